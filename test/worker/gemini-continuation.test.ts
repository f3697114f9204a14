// Gemini's automatic continuation through the Worker: a fake Gemini API behind the injected fetch
// answers each streamGenerateContent request with one hop of a long decode, the hops before the
// last ending with finishReason CONTINUATION and a continuationToken (on the last chunk, or on a
// checkpoint chunk before it), as @google/genai 3.3.0 reads them. The Worker sends the same request
// again with the token as the body's `continuationToken` (the SDK's wire field) and the client gets
// one answer: the text of all hops, every call, one finish, the hops' usage summed.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import { MAX_GEMINI_HOPS } from "../../worker/upstream/gemini-continuation.ts";
import { readChatStream } from "../support/openai-chat-stream.ts";
import { post } from "./client-support.ts";
import { eventually, ManualTimers, settled, testEnv } from "./support.ts";

// No write window: the manual clock never closes one, and the abort test reads the answer's start mid-hop.
const env = testEnv({
  GEMINI_API_KEY: "k",
  GEMINI_BASE_URL: "https://provider.test/v1beta",
  CLIENT_TOKEN: "t",
  WRITE_WINDOW_MS: "0",
});
const MODEL = "gemini/gemini-3-pro-preview";

const text = (value: string) => ({ text: value });
const call = (city: string) => ({ functionCall: { name: "get_weather", args: { city } } });
const usage = (prompt: number, output: number) => ({
  promptTokenCount: prompt,
  candidatesTokenCount: output,
  totalTokenCount: prompt + output,
});
const chunk = (parts: object[], extra: Record<string, unknown> = {}, usageMetadata?: object) => ({
  candidates: [{ content: { role: "model", parts }, index: 0, ...extra }],
  ...(usageMetadata && { usageMetadata }),
});

/** One hop's answer: its chunks, or a status it fails with; `stall`: the connection stays open after them. */
type Hop = { chunks: object[]; stall?: boolean } | { status: number };

/** Three hops: the first's token on a checkpoint chunk (its last chunk has none), the second's on its last. */
const THREE_HOPS: Hop[] = [
  {
    chunks: [
      chunk([text("It is sunny ")], {}, usage(10, 3)),
      chunk([call("Paris")], { continuationToken: "tok-1" }),
      chunk([text("in Paris, ")], { finishReason: "CONTINUATION" }, usage(10, 7)),
    ],
  },
  { chunks: [chunk([text("rainy in ")], { finishReason: "CONTINUATION", continuationToken: "tok-2" }, usage(20, 4))] },
  { chunks: [chunk([text("Oslo.")]), chunk([call("Oslo")], { finishReason: "STOP" }, usage(30, 6))] },
];

/** A fake Gemini API: request n gets `hops[n]` (the last one again past the end); each body is recorded. */
function fakeGemini(hops: readonly Hop[]) {
  const bodies: Record<string, unknown>[] = [];
  let aborted = false;
  const encoder = new TextEncoder();
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    expect(new URL(request.url).pathname).toBe("/v1beta/models/gemini-3-pro-preview:streamGenerateContent");
    bodies.push((await request.json()) as Record<string, unknown>);
    const hop = hops[Math.min(bodies.length, hops.length) - 1]!;
    if ("status" in hop) return Response.json({ error: { code: hop.status, message: "failed" } }, hop);
    const data = hop.chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join("");
    // The hop's chunks in one read; a stalled connection fails only when the Worker aborts its
    // request, and closes when it cancels the body (over the network, either closes the connection).
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(data));
        if (!hop.stall) return controller.close();
        request.signal.addEventListener("abort", () => {
          aborted = true;
          controller.error(request.signal.reason);
        });
      },
      cancel() {
        aborted = true;
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
  const timers = new ManualTimers();
  const handler = createFetchHandler({ fetch, timers });
  const clientFetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(input, init), env)) as typeof globalThis.fetch;
  return { bodies, timers, clientFetch, isAborted: () => aborted };
}

const openai = (fetch: typeof globalThis.fetch) =>
  new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", maxRetries: 0, fetch });
const weather = { type: "function" as const, function: { name: "get_weather", parameters: { type: "object" } } };
const chatRequest = {
  model: MODEL,
  messages: [{ role: "user" as const, content: "Weather in Paris and Oslo?" }],
  tools: [weather],
};

describe("Gemini's CONTINUATION hops joined into one answer by the Worker", () => {
  it("the second and third requests are the first with the hop's token (a checkpoint's, then the last chunk's)", async () => {
    const fake = fakeGemini(THREE_HOPS);
    await openai(fake.clientFetch).chat.completions.create(chatRequest);
    expect(fake.bodies.map((body) => body["continuationToken"])).toEqual([undefined, "tok-1", "tok-2"]);
    const { continuationToken: _, ...second } = fake.bodies[1]!;
    expect(second).toEqual(fake.bodies[0]);
  });

  it("POST /v1/chat/completions streamed: the text of all hops, both calls, one tool_calls finish", async () => {
    const fake = fakeGemini(THREE_HOPS);
    const read = await readChatStream(openai(fake.clientFetch), { ...chatRequest, stream: true });
    expect([read.text, read.finish, read.error]).toEqual([
      "It is sunny in Paris, rainy in Oslo.",
      "tool_calls",
      undefined,
    ]);
    expect(read.calls.map((c) => c.args)).toEqual(['{"city":"Paris"}', '{"city":"Oslo"}']);
  });

  it("POST /v1/chat/completions whole: one message, the hops' usage summed (each hop is a billed request)", async () => {
    const fake = fakeGemini(THREE_HOPS);
    const completion = await openai(fake.clientFetch).chat.completions.create(chatRequest);
    const choice = completion.choices[0]!;
    expect([choice.message.content, choice.finish_reason]).toEqual([
      "It is sunny in Paris, rainy in Oslo.",
      "tool_calls",
    ]);
    expect(choice.message.tool_calls?.map((c) => c.type === "function" && c.function.arguments)).toEqual([
      '{"city":"Paris"}',
      '{"city":"Oslo"}',
    ]);
    expect(completion.usage).toMatchObject({ prompt_tokens: 60, completion_tokens: 17, total_tokens: 77 });
  });

  it("POST /v1/messages: one message, its text and both tool_use blocks, stop_reason tool_use", async () => {
    const fake = fakeGemini(THREE_HOPS);
    const anthropic = new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      maxRetries: 0,
      fetch: fake.clientFetch,
    });
    const message = await anthropic.messages
      .stream({
        model: MODEL,
        max_tokens: 1024,
        messages: [{ role: "user", content: "Weather in Paris and Oslo?" }],
        tools: [{ name: "get_weather", input_schema: { type: "object" } }],
      })
      .finalMessage();
    const texts = message.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
    const inputs = message.content.flatMap((block) => (block.type === "tool_use" ? [block.input] : []));
    expect([texts.join(""), inputs, message.stop_reason]).toEqual([
      "It is sunny in Paris, rainy in Oslo.",
      [{ city: "Paris" }, { city: "Oslo" }],
      "tool_use",
    ]);
    expect(message.usage.output_tokens).toBe(17);
  });

  it("POST /v1/responses: completed, not incomplete, with the whole text and both calls", async () => {
    const fake = fakeGemini(THREE_HOPS);
    const response = await openai(fake.clientFetch).responses.create({
      model: MODEL,
      input: "Weather in Paris and Oslo?",
      tools: [{ type: "function", name: "get_weather", parameters: { type: "object" }, strict: false }],
    });
    expect([response.status, response.output_text]).toEqual(["completed", "It is sunny in Paris, rainy in Oslo."]);
    const calls = response.output.flatMap((item) => (item.type === "function_call" ? [item.arguments] : []));
    expect(calls).toEqual(['{"city":"Paris"}', '{"city":"Oslo"}']);
    expect(response.usage).toMatchObject({ input_tokens: 60, output_tokens: 17, total_tokens: 77 });
  });

  it(`at most ${MAX_GEMINI_HOPS} requests: a decode that never ends finishes length after them`, async () => {
    let n = 0;
    const endless: Hop = {
      get chunks() {
        n++;
        return [chunk([text(`${n} `)], { finishReason: "CONTINUATION", continuationToken: `tok-${n}` })];
      },
    };
    const fake = fakeGemini([endless]);
    const read = await readChatStream(openai(fake.clientFetch), { ...chatRequest, stream: true });
    expect(fake.bodies.length).toBe(MAX_GEMINI_HOPS);
    expect([read.text, read.finish, read.error]).toEqual(["1 2 3 4 5 6 7 8 ", "length", undefined]);
  });

  it("a hop that ends CONTINUATION with no token of its own is the last (the SDK's rule): length, no third request", async () => {
    const again: Hop = { chunks: [chunk([text("more")], { finishReason: "CONTINUATION" })] };
    const fake = fakeGemini([THREE_HOPS[0]!, again, THREE_HOPS[2]!]);
    const read = await readChatStream(openai(fake.clientFetch), { ...chatRequest, stream: true });
    expect(fake.bodies.length).toBe(2);
    expect([read.text, read.finish, read.error]).toEqual(["It is sunny in Paris, more", "length", undefined]);
  });

  it("a hop whose CONTINUATION is followed by a finish of its own (a malformed stream) is the last: one finish, no second request", async () => {
    const cut = { chunks: [chunk([text("A")], { finishReason: "CONTINUATION", continuationToken: "tok-1" })] };
    const stop = { chunks: [...cut.chunks, chunk([text("B")], { finishReason: "STOP" })] };
    const fake = fakeGemini([stop, { chunks: [chunk([text(" C")], { finishReason: "STOP" })] }]);
    const read = await readChatStream(openai(fake.clientFetch), { ...chatRequest, stream: true });
    expect(fake.bodies.length).toBe(1);
    expect([read.text, read.finish, read.error]).toEqual(["AB", "stop", undefined]);
  });

  it("a hop that fails: what came before is delivered, then the stream's error, no finish", async () => {
    const fake = fakeGemini([THREE_HOPS[0]!, { status: 500 }]);
    const read = await readChatStream(openai(fake.clientFetch), { ...chatRequest, stream: true });
    expect(fake.bodies.length).toBe(2);
    expect([read.text, read.finish]).toEqual(["It is sunny in Paris, ", null]);
    expect(read.calls.map((c) => c.args)).toEqual(['{"city":"Paris"}']);
    expect(read.error).toMatch(/continues the answer \(request 2 of at most 8\)/);
  });

  it("a client that goes away during the first hop: that request is aborted and no second one is sent", async () => {
    // The first hop has sent its checkpoint's token, not yet its CONTINUATION finish, and keeps its connection
    // open (after the finish, the next hop opens at once: test/worker/gemini-hop-held-open.test.ts).
    const first = THREE_HOPS[0] as { chunks: object[] };
    const hops: Hop[] = [{ chunks: first.chunks.slice(0, 2), stall: true }, THREE_HOPS[2]!];
    const readThenLeave = async () => {
      const fake = fakeGemini(hops);
      const response = await fake.clientFetch("http://localhost:8787/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        body: JSON.stringify({ ...chatRequest, stream: true }),
      });
      const reader = response.body!.getReader();
      // The first hop's chunks came in one read, decoded before the client reads the answer's start.
      expect(new TextDecoder().decode((await reader.read()).value)).toContain("data:");
      await reader.cancel("client went away");
      expect(await eventually(fake.isAborted)).toBe(true);
      for (let i = 0; i < 5; i++) await settled();
      return fake.bodies.length;
    };
    expect(await readThenLeave()).toBe(1);
    // Read to its end, the same first hop (its connection closed) takes a second request.
    const fake = fakeGemini([THREE_HOPS[0]!, THREE_HOPS[2]!]);
    await openai(fake.clientFetch).chat.completions.create(chatRequest);
    expect(fake.bodies.length).toBe(2);
  });

  it("a later hop under the answer's clocks: one that stalls is cut by the idle timeout, after the first hop's output", async () => {
    const fake = fakeGemini([THREE_HOPS[0]!, { chunks: [], stall: true }]);
    const reading = readChatStream(openai(fake.clientFetch), { ...chatRequest, stream: true });
    for (let i = 0; i < 50 && fake.bodies.length < 2; i++) await settled();
    expect(fake.bodies.length).toBe(2);
    let done = false;
    void reading.then(() => (done = true));
    // The clocks' one timer (and any other waiting) fires until the answer ends.
    for (let i = 0; i < 20 && !done; i++) {
      for (let j = 0; j < 5; j++) await settled();
      fake.timers.fireNext();
    }
    const read = await reading;
    expect(fake.isAborted()).toBe(true);
    expect([read.text, read.finish]).toEqual(["It is sunny in Paris, ", null]);
    expect(read.error).toMatch(/The provider sent no event for \d+ ms/);
  });

  it("POST /v1/run: a step's hops are one model turn, and the next step's request carries no token", async () => {
    const fake = fakeGemini([
      { chunks: [chunk([text("Computing. ")], { finishReason: "CONTINUATION", continuationToken: "tok-1" })] },
      {
        chunks: [
          chunk([{ functionCall: { name: "calculate", args: { expression: "6*7" } } }], { finishReason: "STOP" }),
        ],
      },
      { chunks: [chunk([text("42.")], { finishReason: "STOP" })] },
    ]);
    const run = { provider: "gemini", model: "gemini-3-pro-preview", tools: ["calculate"] };
    const messages = [{ role: "user", content: "6 times 7?" }];
    const response = await fake.clientFetch(
      post("/v1/run", { ...run, messages }, { headers: { authorization: "Bearer t" } }),
    );
    const events = (await response.text())
      .split("\n")
      .flatMap((line) => (line.startsWith("data: ") ? [JSON.parse(line.slice(6))] : []));
    expect(fake.bodies.map((body) => body["continuationToken"])).toEqual([undefined, "tok-1", undefined]);
    expect((fake.bodies[2]!["contents"] as { parts: unknown[] }[])[1]!.parts).toEqual([
      { text: "Computing. " },
      { functionCall: { name: "calculate", args: { expression: "6*7" } } },
    ]);
    expect(events.at(-1)).toEqual({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
  });
});

/** One hop's grounding: one web page, and supports of it (`[start, end, text?]` in the hop's own UTF-8 bytes). */
const grounding = (query: string, uri: string, segments: [number, number, string?][]) => ({
  groundingMetadata: {
    webSearchQueries: [query],
    groundingChunks: [{ web: { uri, title: query } }],
    groundingSupports: segments.map(([start, end, cited]) => ({
      // proto3 JSON leaves a 0 out.
      segment: { ...(start && { startIndex: start }), endIndex: end, ...(cited && { text: cited }) },
      groundingChunkIndices: [0],
    })),
  },
});
/**
 * Each hop grounds its own text: its supports name its own chunk (index 0) and count its own bytes.
 * "ü" is two bytes: the second hop's text starts 24 bytes (23 UTF-16 units) in. Its support with no
 * text ("In Oslo") is placed by its bytes alone; the one with text ("it is sunny.") would be
 * found in the first hop's text at the unshifted bytes.
 */
const GROUNDED_HOPS: Hop[] = [
  {
    chunks: [
      chunk([text("In Zürich it is sunny. ")], {
        ...grounding("zurich", "https://a.example/zurich", [[11, 23, "it is sunny."]]),
        finishReason: "CONTINUATION",
        continuationToken: "tok-1",
      }),
    ],
  },
  {
    chunks: [
      chunk([text("In Oslo it is sunny.")]),
      chunk([], {
        ...grounding("oslo", "https://b.example/oslo", [
          [0, 7],
          [8, 20, "it is sunny."],
        ]),
        finishReason: "STOP",
      }),
    ],
  },
];
const GROUNDED_TEXT = "In Zürich it is sunny. In Oslo it is sunny.";
/** Where each hop's supports are in the one text, in UTF-16 units, and whose page they cite. */
const GROUNDED_SPANS = [
  { url: "https://a.example/zurich", start: 10, end: 22 },
  { url: "https://b.example/oslo", start: 23, end: 30 },
  { url: "https://b.example/oslo", start: 31, end: 43 },
];

describe("Gemini's grounding over CONTINUATION hops: each request's, merged as @google/genai merges them", () => {
  it("POST /v1/chat/completions: a url_citation for each hop's supports, at its place in the one text", async () => {
    const fake = fakeGemini(GROUNDED_HOPS);
    const completion = await openai(fake.clientFetch).chat.completions.create({
      model: MODEL,
      messages: chatRequest.messages,
    });
    const message = completion.choices[0]!.message;
    expect(message.content).toBe(GROUNDED_TEXT);
    const spans = (message.annotations ?? []).map(({ url_citation: c }) => ({
      url: c.url,
      start: c.start_index,
      end: c.end_index,
    }));
    expect(spans).toEqual(GROUNDED_SPANS);
  });

  it("POST /v1/responses: the output text's url_citation annotations, the same spans", async () => {
    const fake = fakeGemini(GROUNDED_HOPS);
    const response = await openai(fake.clientFetch).responses.create({ model: MODEL, input: "Weather?" });
    expect(response.output_text).toBe(GROUNDED_TEXT);
    const annotations = response.output.flatMap((item) =>
      item.type === "message" ? item.content.flatMap((c) => (c.type === "output_text" ? c.annotations : [])) : [],
    );
    const spans = annotations.map((a) =>
      a.type === "url_citation" ? { url: a.url, start: a.start_index, end: a.end_index } : a,
    );
    expect(spans).toEqual(GROUNDED_SPANS);
  });

  it("POST /v1/stream: one groundingMetadata, the hops' queries and chunks joined, the later supports shifted", async () => {
    const fake = fakeGemini(GROUNDED_HOPS);
    const response = await fake.clientFetch(
      post(
        "/v1/stream",
        { provider: "gemini", model: "gemini-3-pro-preview", messages: [{ role: "user", content: "Weather?" }] },
        { headers: { authorization: "Bearer t" } },
      ),
    );
    const finish = (await response.text())
      .split("\n")
      .flatMap((line) => (line.startsWith("data: ") ? [JSON.parse(line.slice(6))] : []))
      .find((event) => event.type === "finish");
    expect(finish.text).toBe(GROUNDED_TEXT);
    expect(finish.reasoningParts).toEqual([
      {
        type: "block",
        block: {
          groundingMetadata: {
            webSearchQueries: ["zurich", "oslo"],
            groundingChunks: [
              { web: { uri: "https://a.example/zurich", title: "zurich" } },
              { web: { uri: "https://b.example/oslo", title: "oslo" } },
            ],
            groundingSupports: [
              { segment: { startIndex: 11, endIndex: 23, text: "it is sunny." }, groundingChunkIndices: [0] },
              { segment: { startIndex: 24, endIndex: 31 }, groundingChunkIndices: [1] },
              { segment: { startIndex: 32, endIndex: 44, text: "it is sunny." }, groundingChunkIndices: [1] },
            ],
          },
        },
      },
    ]);
  });
});
