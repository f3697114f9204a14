// A bad upstream is an error: a non-streaming answer built from no readable payload is a 502 in the
// protocol's shape, never a 200 with an empty completion; one readable payload among bad ones is
// still an answer.
import { describe, expect, it } from "vitest";
import type { EncodableEvent } from "../../src/index.ts";
import { failUnreadable } from "../../worker/services/payload-tally.ts";
import { endpoints } from "./endpoint-bodies.ts";
import { chatChunk, FakeUpstream, liveOpenAI, openAIChunks, testEnv, worker } from "./support.ts";

const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });
const ask = (upstream: FakeUpstream) =>
  worker(upstream).call(
    new Request("http://localhost:8787/v1/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({ ...endpoints["chat"]!.valid(), stream: false }),
    }),
    env,
  );

describe("POST /v1/chat/completions (not streamed) over unreadable payloads", () => {
  it("only unreadable payloads, then [DONE]: 502 upstream_error in OpenAI's shape", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: ["data: not json\n\n", 'data: {"choices": 5}\n\n', "data: {oops\n\n", "data: [DONE]\n\n"],
    });
    const response = await ask(upstream);
    expect(response.status).toBe(502);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("upstream_error");
    expect(body.error.message).not.toMatch(/oops|not json/);
  });

  it("one readable payload among unreadable ones is still a completion", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: ["data: not json\n\n", ...openAIChunks([chatChunk({ content: "Hi" }, "stop")])],
    });
    const response = await ask(upstream);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ choices: [{ message: { content: "Hi" } }] });
  });
});

describe("the agent endpoints (not streamed) over unreadable payloads", () => {
  const unreadable = ["data: not json\n\n", 'data: {"choices": 5}\n\n', "data: [DONE]\n\n"];
  for (const [path, body] of [
    ["/v1/messages", { model: "openai/gpt-4o-mini", max_tokens: 64, messages: [{ role: "user", content: "Hi" }] }],
    ["/v1/responses", { model: "openai/gpt-4o-mini", input: "Hi" }],
  ] as const) {
    it(`${path}: 502 in the protocol's error shape, without the payloads`, async () => {
      const response = await worker(new FakeUpstream({ kind: "sse", chunks: unreadable })).call(
        new Request(`http://localhost:8787${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer t" },
          body: JSON.stringify(body),
        }),
        env,
      );
      expect(response.status).toBe(502);
      const text = await response.text();
      expect(text).toContain("none of its payloads could be read");
      expect(text).not.toMatch(/not json|choices/);
      if (path === "/v1/messages")
        expect(JSON.parse(text)).toMatchObject({ type: "error", error: { type: expect.any(String) } });
      else expect(JSON.parse(text)).toMatchObject({ error: { code: "upstream_error" } });
    });
  }
});

describe("failUnreadable (a streamed answer's arrays)", () => {
  const read = async (batches: EncodableEvent[][]) => {
    const out: (readonly EncodableEvent[])[] = [];
    const reader = failUnreadable(
      new ReadableStream({ start: (c) => (batches.forEach((b) => c.enqueue(b)), c.close()) }),
    ).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(r.value);
    return out;
  };
  const malformed: EncodableEvent = { type: "error", error: { code: "malformed-payload", message: "skipped" } };
  const finish = {
    type: "finish",
    reason: "stop",
    rawReason: "stop",
    text: "",
    toolCalls: [],
    invalidToolCalls: [],
  } as unknown as EncodableEvent;

  it("a finish after unreadable payloads only becomes an error and an abort, the events before it in its array kept", async () => {
    const [batch] = await read([[malformed, malformed, finish]]);
    expect(batch!.map((e) => e.type)).toEqual(["error", "error", "error", "abort"]);
    expect(batch!.slice(0, 2)).toEqual([malformed, malformed]);
    expect(batch![2]).toMatchObject({
      error: { message: "The provider answered, but none of its payloads could be read." },
    });
  });

  it("an array with nothing to replace passes as it is; a finish after a readable payload stays", async () => {
    const text: EncodableEvent = { type: "text-delta", text: "Hi" };
    const first = [malformed, text];
    const batches = await read([first, [finish]]);
    expect(batches[0]).toBe(first);
    expect(batches[1]!.map((e) => e.type)).toEqual(["finish"]);
  });
});

describe("a body of `[DONE]` alone (no payload, no finish of the provider's)", () => {
  const done = () => new FakeUpstream({ kind: "sse", chunks: ["data: [DONE]\n\n"] });
  for (const name of ["chat", "messages", "responses"]) {
    for (const stream of [false, true]) {
      it(`${endpoints[name]!.path} (stream: ${stream}): the protocol's error, never an empty success`, async () => {
        const response = await worker(done()).call(
          new Request(`http://localhost:8787${endpoints[name]!.path}`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: "Bearer t" },
            body: JSON.stringify({
              ...endpoints[name]!.valid(),
              stream,
              ...(name === "responses" && { store: false }),
            }),
          }),
          env,
        );
        const text = await response.text();
        expect(response.status).toBe(stream ? 200 : 502);
        expect(text).toContain("none of its payloads could be read");
        expect(text).not.toMatch(/"finish_reason":"stop"|"stop_reason":"end_turn"|"status":"completed"/);
      });
    }
  }
});
