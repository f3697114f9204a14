// An upstream whose stream is not SSE answering a streaming request whole, `200 application/json`:
// Gemini's `streamGenerateContent` without `alt=sse` (one JSON array, pretty-printed, as Google
// writes it) or a proxy that dropped the parameter, and `generateContent`'s single object; Ollama's
// `/api/chat` with `stream: false` (one object, its NDJSON's lines in one) or a proxy that
// buffered it; Bedrock's `Converse` answer (`ConverseResponse`) where `converse-stream` was asked.
// The client gets what the same answer streamed gives it, from real recordings; a JSON body that
// is none of these is a clear 502, never a 200 with nothing in it.
import { describe, expect, it } from "vitest";
import { AwsEventStreamDecoderStream, type FramedMessage, SSEDecoderStream } from "../../src/index.ts";
import { recording } from "../support/fixtures.ts";
import { converseEventsOf, converseWhole, payloadsOf } from "../support/whole-responses.ts";
import { openAIClient, post, workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const ENV = testEnv({
  CLIENT_TOKEN: "t",
  GEMINI_API_KEY: "k",
  OLLAMA_BASE_URL: "http://ollama.test:11434",
  AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
  AWS_SECRET_ACCESS_KEY: "secret",
  AWS_REGION: "us-east-1",
});

type Payload = Record<string, unknown>;

async function messagesOf(body: Uint8Array, framing: TransformStream<Uint8Array, FramedMessage>) {
  const messages: FramedMessage[] = [];
  for await (const message of new Response(body as Uint8Array<ArrayBuffer>).body!.pipeThrough(framing))
    messages.push(message);
  return messages;
}

/** The upstream answering `body` with `type`, in three network chunks. */
function upstream(body: string | Uint8Array, type: string): FakeUpstream {
  if (typeof body !== "string")
    return new FakeUpstream({ kind: "sse", chunks: [body], headers: { "content-type": type } });
  const third = Math.ceil(body.length / 3);
  const chunks = [body.slice(0, third), body.slice(third, 2 * third), body.slice(2 * third)];
  return new FakeUpstream({ kind: "sse", chunks, headers: { "content-type": type } });
}

/** What openai-node's chat.completions.create (not streamed) gets through the Worker. */
async function completion(model: string, answer: FakeUpstream) {
  const { choices } = await openAIClient(answer, ENV).chat.completions.create({
    model,
    messages: [{ role: "user", content: "Go." }],
    tools: ["weather", "get_weather", "get_temperature"].map((name) => ({
      type: "function" as const,
      function: { name, parameters: { type: "object" } },
    })),
  });
  const { finish_reason, message } = choices[0]!;
  const calls = (message.tool_calls ?? []).flatMap((call) =>
    call.type === "function" ? [{ name: call.function.name, arguments: JSON.parse(call.function.arguments) }] : [],
  );
  return { finish_reason, content: message.content, calls };
}

/** Ollama's `stream: false` answer from its NDJSON lines: the message's content and calls joined, the last line's fields. */
function ollamaWhole(lines: Payload[]): Payload {
  const last = lines.at(-1)!;
  const message = { role: "assistant", content: "", tool_calls: [] as unknown[] };
  for (const line of lines) {
    const part = line["message"] as { content?: string; tool_calls?: unknown[] } | undefined;
    message.content += part?.content ?? "";
    message.tool_calls.push(...(part?.tool_calls ?? []));
  }
  return { ...last, message };
}

describe("Gemini answered whole (application/json) reads as its stream", () => {
  it("streamGenerateContent's JSON array (a recorded SSE stream's chunks, pretty-printed): the same calls", async () => {
    const fixture = recording("gemini", "parallel-function-calls-thought-signature");
    const payloads = payloadsOf(await messagesOf(fixture.body, new SSEDecoderStream()));
    const streamed = await completion("gemini/gemini-x", upstream(fixture.text, "text/event-stream"));
    expect(streamed.calls.map((call) => call.arguments)).toEqual([{ city: "San Francisco" }, { city: "Santa Cruz" }]);
    const whole = JSON.stringify(payloads, null, 2);
    expect(await completion("gemini/gemini-x", upstream(whole, "application/json; charset=UTF-8"))).toEqual(streamed);
  });

  it("generateContent's single object: the same call", async () => {
    const fixture = recording("gemini", "function-call-gemini-2.0-flash");
    const [payload] = payloadsOf(await messagesOf(fixture.body, new SSEDecoderStream()));
    const streamed = await completion("gemini/gemini-x", upstream(fixture.text, "text/event-stream"));
    expect(streamed.calls).toEqual([{ name: "get_capital", arguments: { country: "France" } }]);
    const whole = JSON.stringify(payload, null, 2);
    expect(await completion("gemini/gemini-x", upstream(whole, "application/json"))).toEqual(streamed);
  });

  it("a recorded JSON array body, as Gemini sends it without alt=sse", async () => {
    const fixture = recording("gemini", "json-array-parallel-function-calls");
    const { calls } = await completion("gemini/gemini-x", upstream(fixture.text, "application/json; charset=UTF-8"));
    expect(calls.map((call) => call.arguments)).toEqual([{ city: "San Diego" }, { city: "Las Vegas" }]);
  });
});

describe("Ollama answered whole (application/json) reads as its NDJSON", () => {
  for (const pretty of [false, true])
    it(`/api/chat's stream: false object${pretty ? ", pretty-printed by a proxy" : ""}: the same call and finish`, async () => {
      const fixture = recording("ollama", "native-tool-call");
      const lines = fixture.text
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Payload);
      const streamed = await completion("ollama/llama3.2", upstream(fixture.text, "application/x-ndjson"));
      expect(streamed.calls).toEqual([{ name: "get_weather", arguments: { city: "Tokyo" } }]);
      const whole = JSON.stringify(ollamaWhole(lines), null, pretty ? 2 : undefined);
      expect(await completion("ollama/llama3.2", upstream(whole, "application/json; charset=utf-8"))).toEqual(streamed);
    });
});

describe("Bedrock answered whole (application/json): a ConverseResponse reads as its ConverseStream", () => {
  it("Converse's answer to what ConverseStream was asked: the same text, call and finish", async () => {
    const fixture = recording("bedrock", "converse-nova-text-then-tool-use");
    const events = converseEventsOf(await messagesOf(fixture.body, new AwsEventStreamDecoderStream()));
    const model = "bedrock/amazon.nova-micro-v1:0";
    const streamed = await completion(model, upstream(fixture.body, "application/vnd.amazon.eventstream"));
    expect(streamed.calls).toEqual([{ name: "get_temperature", arguments: { city: "Paris" } }]);
    const whole = JSON.stringify(converseWhole(events));
    expect(await completion(model, upstream(whole, "application/json"))).toEqual(streamed);
  });
});

describe("a 200 JSON body that is no answer (a gateway's own message)", () => {
  const SECRET = "internal-host-7 sk-SECRET";
  const body = JSON.stringify({ message: `Gateway says hello ${SECRET}` });
  for (const model of ["bedrock/amazon.nova-micro-v1:0", "ollama/llama3.2", "gemini/gemini-x"]) {
    it(`${model}: not streamed, a 502 in the protocol's shape, not an empty answer`, async () => {
      const failed = await completion(model, upstream(body, "application/json")).catch((caught: unknown) => caught);
      expect(failed).toMatchObject({ status: 502, code: "input-ended" });
      expect(JSON.stringify(failed)).not.toContain("SECRET");
    });

    it(`${model}: /v1/stream ends without a finish (an abort: the body ended before any answer), nothing of the body`, async () => {
      const [provider, ...rest] = model.split("/");
      const response = await workerFetch({ env: ENV, upstream: upstream(body, "application/json") })(
        post(
          "/v1/stream",
          { provider, model: rest.join("/"), messages: [{ role: "user", content: "Go." }] },
          {
            headers: { authorization: "Bearer t" },
          },
        ),
      );
      const text = await response.text();
      expect(text).not.toContain("SECRET");
      expect(text).not.toContain('"type":"finish"');
      expect(text).toContain('"type":"abort"');
    });
  }
});
