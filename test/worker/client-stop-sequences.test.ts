// Stop sequences where the provider has no field for them (OpenAI Responses; OpenAI Chat's gpt-5
// and o-series, which refuse `stop`): the Worker cuts the text before the first, ends the provider
// request there, and ends the answer as each client's protocol ends one at a stop sequence. Through
// the real clients: @anthropic-ai/sdk (Claude Code's auto-mode classifier sends
// `stop_sequences: ["</block>"]`), openai-node, the AI SDK's DefaultChatTransport and AG-UI's body.
import Anthropic from "@anthropic-ai/sdk";
import type { MessageStream } from "@anthropic-ai/sdk/lib/MessageStream";
import * as ai from "ai";
import fc from "fast-check";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import { workerFetch } from "./client-support.ts";
import { agUIRun, live, scripted } from "./open-responses-support.ts";
import { chatChunk, FakeUpstream, readSSE } from "./support.ts";

const fetchOf = (provider: Provider, upstream: FakeUpstream) => workerFetch({ env: live(provider), upstream });
const sent = (upstream: FakeUpstream): Record<string, unknown> => upstream.requests[0]!.body;
const anthropic = (provider: Provider, upstream: FakeUpstream) =>
  new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch: fetchOf(provider, upstream), maxRetries: 0 });
const openai = (provider: Provider, upstream: FakeUpstream) =>
  new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch: fetchOf(provider, upstream), maxRetries: 0 });

/** A message's blocks as text (the SDK adds `citations: null` to a streamed text block). */
const texts = (message: Anthropic.Message): string[] =>
  message.content.map((block) => (block.type === "text" ? block.text : block.type));

/** A Messages stream read as Claude Code reads it: its text deltas, then the final message. */
async function streamed(stream: MessageStream) {
  const deltas: string[] = [];
  stream.on("text", (text) => deltas.push(text));
  return { deltas, message: await stream.finalMessage() };
}

/** The classifier's answer, with text after its stop that must never reach the client. */
const ANSWER = "<block>no</block> and then a long explanation nobody asked for";

/** The provider request was ended at the stop: its body cancelled before its last chunk, its fetch aborted. */
function endedEarly(upstream: FakeUpstream): void {
  expect(upstream.cancelled).toBeDefined();
  expect(upstream.requests[0]!.signal.aborted).toBe(true);
  expect(upstream.pulled).toBeLessThan((upstream.answer as { chunks: readonly unknown[] }).chunks.length);
}

/** OpenAI Chat chunks, one network chunk each, the text cut at `pieces`, then a stop and `[DONE]`. */
function chatPieces(pieces: readonly string[]): FakeUpstream {
  const events = [chatChunk({ role: "assistant", content: "" }), ...pieces.map((content) => chatChunk({ content }))];
  events.push(chatChunk({}, "stop"));
  return new FakeUpstream({
    kind: "sse",
    chunks: [...events.map((event) => `data: ${JSON.stringify(event)}\n\n`), "data: [DONE]\n\n"],
  });
}

describe("@anthropic-ai/sdk: Messages' stop_sequences to a provider without them", () => {
  const request = {
    model: "openai-responses/gpt-5",
    max_tokens: 64,
    stop_sequences: ["</block>"],
    messages: [{ role: "user" as const, content: "Is this action safe? Answer in <block>yes|no</block>." }],
  };

  it("create(): the text before the stop, stop_reason stop_sequence naming it, the provider request ended", async () => {
    const upstream = scripted("openai-responses", { text: ANSWER });
    const message = await anthropic("openai-responses", upstream).messages.create(request);
    expect(texts(message)).toEqual(["<block>no"]);
    expect([message.stop_reason, message.stop_sequence]).toEqual(["stop_sequence", "</block>"]);
    expect(sent(upstream)).not.toHaveProperty("stop");
    endedEarly(upstream);
  });

  it("stream(): the same message, its text deltas stopping before the stop", async () => {
    const upstream = scripted("openai-responses", { text: ANSWER });
    const { deltas, message } = await streamed(anthropic("openai-responses", upstream).messages.stream(request));
    expect(deltas.join("")).toBe("<block>no");
    expect(texts(message)).toEqual(["<block>no"]);
    expect([message.stop_reason, message.stop_sequence]).toEqual(["stop_sequence", "</block>"]);
    endedEarly(upstream);
  });

  it("to OpenAI Chat's gpt-5, a stop that spans text deltas: the deltas held only while they may begin it", async () => {
    const upstream = chatPieces(["<block>n", "o</bl", "ock> and th", "en more", " text"]);
    const { deltas, message } = await streamed(
      anthropic("openai", upstream).messages.stream({ ...request, model: "openai/gpt-5" }),
    );
    expect(deltas).toEqual(["<block>n", "o"]);
    expect([message.stop_reason, message.stop_sequence]).toEqual(["stop_sequence", "</block>"]);
    expect(sent(upstream)).not.toHaveProperty("stop");
    endedEarly(upstream);
  });

  it("however the provider cuts the text into deltas, the message is the same", async () => {
    const text = "<block>no</block> and </block> again </bl";
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const at = [0, ...cuts.sort((a, b) => a - b), text.length];
          const upstream = chatPieces(at.slice(1).map((end, i) => text.slice(at[i], end)));
          const { deltas, message } = await streamed(
            anthropic("openai", upstream).messages.stream({ ...request, model: "openai/gpt-5" }),
          );
          expect([deltas.join(""), message.stop_sequence]).toEqual(["<block>no", "</block>"]);
          // Nothing past "<block>no" went out (above), and no empty text delta, however the text was cut.
          expect(deltas.every((delta) => delta !== "")).toBe(true);
        },
      ),
      { seed: 20261203, numRuns: 40 },
    );
  });

  it("text that only begins a stop is given out whole at its end, and the answer ends as the provider's", async () => {
    const upstream = chatPieces(["<block>yes</bl", "oc"]);
    const message = await anthropic("openai", upstream).messages.create({ ...request, model: "openai/o4-mini" });
    expect(texts(message)).toEqual(["<block>yes</bloc"]);
    expect([message.stop_reason, message.stop_sequence]).toEqual(["end_turn", null]);
  });

  it("to a provider that takes them, they are sent and not applied by the Worker", async () => {
    const upstream = scripted("anthropic", { text: ANSWER });
    const message = await anthropic("anthropic", upstream).messages.create({
      ...request,
      model: "anthropic/claude-sonnet-4-5",
    });
    expect(sent(upstream)).toMatchObject({ stop_sequences: ["</block>"] });
    expect(texts(message)).toEqual([ANSWER]);
    expect([message.stop_reason, message.stop_sequence]).toEqual(["end_turn", null]);
  });

  it("a provider that stopped at one it was sent: the Messages answer names it, as the provider did", async () => {
    // Anthropic says `stop_reason: "stop_sequence"` with the stop it met, which the finish keeps.
    const wire = scripted("anthropic", { text: "<block>no" }).answer as { chunks: readonly (string | Uint8Array)[] };
    const chunks = wire.chunks.map((chunk) =>
      (typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk)).replace(
        '"stop_reason":"end_turn","stop_sequence":null',
        '"stop_reason":"stop_sequence","stop_sequence":"</block>"',
      ),
    );
    expect(chunks.join("")).toContain('"stop_sequence":"</block>"');
    for (const stop_sequences of [["</block>"], ["</block>", "</allow>"]]) {
      const upstream = new FakeUpstream({ kind: "sse", chunks, headers: { "content-type": "text/event-stream" } });
      const message = await anthropic("anthropic", upstream).messages.create({
        ...request,
        model: "anthropic/claude-sonnet-4-5",
        stop_sequences,
      });
      // Of two sent, the one Anthropic named (null before: only the reason was kept).
      expect([message.stop_reason, message.stop_sequence]).toEqual(["stop_sequence", "</block>"]);
    }
  });
});

describe("openai-node: Chat Completions' stop to a provider without it (a 400 before)", () => {
  const request = {
    model: "openai-responses/gpt-5",
    messages: [{ role: "user" as const, content: "Count." }],
    stop: ["three", "END"],
  };

  it("create(): the content before the first stop, finish_reason stop", async () => {
    const upstream = scripted("openai-responses", { text: "one two three four five" });
    const completion = await openai("openai-responses", upstream).chat.completions.create(request);
    expect(completion.choices[0]).toMatchObject({ message: { content: "one two " }, finish_reason: "stop" });
    endedEarly(upstream);
  });

  it("stream: the deltas before the first stop, then finish_reason stop", async () => {
    const upstream = chatPieces(["one tw", "o thr", "ee four"]);
    const stream = await openai("openai", upstream).chat.completions.create({
      ...request,
      model: "openai/gpt-5",
      stream: true,
    });
    const content: string[] = [];
    const finishes: unknown[] = [];
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) content.push(choice.delta.content);
      if (choice?.finish_reason) finishes.push(choice.finish_reason);
    }
    expect([content.join(""), finishes]).toEqual(["one two ", ["stop"]]);
    expect(sent(upstream)).not.toHaveProperty("stop");
    endedEarly(upstream);
  });
});

describe("the AI SDK (POST /v1/ui) and AG-UI: stop to a provider without it (a 400 before)", () => {
  it("DefaultChatTransport: the text part before the stop, then the finish", async () => {
    const upstream = scripted("openai-responses", { text: "one two three four five" });
    const transport = new ai.DefaultChatTransport({
      api: "http://localhost:8787/v1/ui",
      fetch: fetchOf("openai-responses", upstream),
      headers: { authorization: "Bearer t" },
      body: { model: "openai-responses/gpt-5", stop: ["three"] },
    });
    const chunks = await transport.sendMessages({
      chatId: "chat_1",
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Count." }] }],
      abortSignal: undefined,
      trigger: "submit-message",
      messageId: undefined,
    });
    const seen: ai.UIMessageChunk[] = [];
    for await (const chunk of chunks) seen.push(chunk);
    const text = seen.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : [])).join("");
    expect(text).toBe("one two ");
    expect(seen.map((chunk) => chunk.type)).not.toContain("error");
    expect(seen.at(-1)).toMatchObject({ type: "finish" });
    endedEarly(upstream);
  });

  it("AG-UI: the text before the stop, then RUN_FINISHED", async () => {
    const upstream = scripted("openai-responses", { text: "one two three four five" });
    const response = await fetchOf("openai-responses", upstream)(
      "http://localhost:8787/v1/ag-ui",
      agUIRun({ model: "openai-responses/gpt-5", stop: "three" }),
    );
    expect(response.status).toBe(200);
    const events = (await response.text())
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string });
    const text = events.flatMap((event) => (event.type === "TEXT_MESSAGE_CONTENT" ? [event.delta] : [])).join("");
    expect([text, events.at(-1)?.type]).toEqual(["one two ", "RUN_FINISHED"]);
    endedEarly(upstream);
  });
});

describe("/v1/stream and /v1/run: stop to a provider without it (a 400 before)", () => {
  const body = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      provider: "openai-responses",
      model: "gpt-5",
      messages: [{ role: "user", content: "Count." }],
      stop: ["three"],
      ...extra,
    });
  const post = (upstream: FakeUpstream, path: string, json: string) =>
    fetchOf("openai-responses", upstream)(`http://localhost:8787${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: json,
    });

  it("/v1/stream: the text before the stop, the finish naming it", async () => {
    const upstream = scripted("openai-responses", { text: "one two three four five" });
    const { events } = await readSSE(await post(upstream, "/v1/stream", body()));
    const text = events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("");
    expect(text).toBe("one two ");
    expect(events.at(-1)).toMatchObject({
      type: "finish",
      reason: "stop",
      rawReason: "stop_sequence",
      stopSequence: "three",
      text: "one two ",
    });
    endedEarly(upstream);
  });

  it("/v1/run: the step's text cut at the stop, the loop ended without another call", async () => {
    // The provider would call a Worker tool after the text: ended at the stop, the call never comes.
    const calls = [{ name: "calculate", arguments: { expression: "1 + 1" } }];
    const upstream = scripted("openai-responses", { text: "one two three four five", calls });
    const response = await post(upstream, "/v1/run", body({ tools: ["calculate"] }));
    const events = (await readSSE(response)).events as unknown as { type: string; text?: string; reason?: string }[];
    const text = events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("");
    expect(text).toBe("one two ");
    expect(events.map((event) => event.type)).not.toContain("tool-call");
    expect(events.find((event) => event.type === "finish")).toMatchObject({ reason: "stop", text: "one two " });
    expect(events.at(-1)).toMatchObject({ type: "loop-finish" });
    expect(upstream.requests).toHaveLength(1);
    endedEarly(upstream);
  });
});
