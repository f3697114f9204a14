// A provider whose payloads are all unreadable (each an in-band malformed-payload error, then its
// end marker) is an error on every client endpoint, streamed or not: the real SDKs throw, never
// read an empty success (an empty `end_turn` message, a `completed` response with no output, a
// chat stream with no content, an AG-UI run that finished). One readable payload among bad ones is
// still an answer.
import Anthropic, { APIError as AnthropicAPIError } from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { chatChunk, FakeUpstream, liveOpenAI, openAIChunks, testEnv } from "./support.ts";

const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });
const unreadable = () =>
  new FakeUpstream({ kind: "sse", chunks: ["data: not json\n\n", "data: {oops\n\n", "data: [DONE]\n\n"] });
const readable = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: ["data: not json\n\n", ...openAIChunks([chatChunk({ content: "Hi" }, "stop")])],
  });
const anthropic = (upstream: FakeUpstream) =>
  new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });
const openai = (upstream: FakeUpstream) =>
  new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });
const message = { model: "openai/m", max_tokens: 64, messages: [{ role: "user" as const, content: "hi" }] };
const response = { model: "openai/m", input: "hi" };

describe("only unreadable payloads from the provider", () => {
  it("/v1/messages: stream().finalMessage() and create() throw; the stream ends with event: error", async () => {
    await expect(anthropic(unreadable()).messages.stream(message).finalMessage()).rejects.toThrow(
      /payloads could be read/,
    );
    await expect(anthropic(unreadable()).messages.create(message)).rejects.toBeInstanceOf(AnthropicAPIError);
    const events: string[] = [];
    const stream = await anthropic(unreadable()).messages.create({ ...message, stream: true });
    await expect(
      (async () => {
        for await (const event of stream) events.push(event.type);
      })(),
    ).rejects.toThrow(/payloads could be read/);
    expect(events).not.toContain("message_delta");
  });

  it("/v1/responses: stream().finalResponse() throws the error event and create() throws 502", async () => {
    await expect(openai(unreadable()).responses.stream(response).finalResponse()).rejects.toThrow(
      /payloads could be read/,
    );
    await expect(openai(unreadable()).responses.create(response)).rejects.toMatchObject({ status: 502 });
  });

  it("/v1/chat/completions streamed: the SDK throws instead of reading an empty stop", async () => {
    const stream = await openai(unreadable()).chat.completions.create({ ...message, stream: true });
    const finishes: unknown[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) finishes.push(chunk.choices[0]?.finish_reason);
      })(),
    ).rejects.toThrow(/payloads could be read/);
    expect(finishes).not.toContain("stop");
  });

  it("/v1/ag-ui: RUN_ERROR, not RUN_FINISHED", async () => {
    const fetch = workerFetch({ env, upstream: unreadable() });
    const answer = await fetch("http://localhost:8787/v1/ag-ui", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({
        threadId: "t",
        runId: "r",
        messages: [{ id: "1", role: "user", content: "hi" }],
        tools: [],
        context: [],
        state: {},
        forwardedProps: { model: "openai/m" },
      }),
    });
    const text = await answer.text();
    expect(text).toContain('"RUN_ERROR"');
    expect(text).not.toContain('"RUN_FINISHED"');
  });

  it("one readable payload among unreadable ones is still an answer on both agent endpoints", async () => {
    const final = await anthropic(readable()).messages.stream(message).finalMessage();
    expect([final.stop_reason, final.content]).toEqual(["end_turn", [{ type: "text", text: "Hi" }]]);
    const done = await openai(readable()).responses.stream(response).finalResponse();
    expect([done.status, done.output_text]).toEqual(["completed", "Hi"]);
  });
});
