import { BODY_READ_MS } from "../../worker/http/read-json-body.ts";
import { describe, expect, it } from "vitest";
import {
  FakeUpstream,
  ManualTimers,
  openAIChunks,
  eventually,
  readSSE,
  settled,
  streamRequest,
  testEnv,
  validBody,
  worker,
} from "./support.ts";

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const liveEnv = (overrides = {}) => testEnv({ OPENAI_API_KEY: "sk-test", CLIENT_TOKEN: "t", ...overrides });
const auth = { headers: { authorization: "Bearer t" } };

describe("POST /v1/stream cancellation, idle timeout and limits", () => {
  it("a client that disconnects cancels the upstream request (the upstream sees the cancel)", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([chunk({ content: "one" }), chunk({ content: "two" }), chunk({ content: "three" })]).slice(
        0,
        3,
      ),
      then: "stall",
    });
    const response = await worker(upstream).call(streamRequest(validBody(), auth), liveEnv());
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("event: text-delta");
    expect(upstream.cancelled).toBeUndefined();
    await reader.cancel("client went away");
    expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
    expect(upstream.cancelled?.reason).toBe("client went away");
    expect(upstream.requests[0]?.signal.aborted).toBe(true);
  });
});

describe("POST /v1/stream after the stream started", () => {
  it("an upstream that stalls longer than IDLE_TIMEOUT_MS ends the stream with an error event and is cancelled", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([chunk({ content: "one" }), chunk({ content: "two" })]).slice(0, 2),
      then: "stall",
    });
    const timers = new ManualTimers();
    const response = await worker(upstream, timers).call(
      streamRequest(validBody(), auth),
      // Each chunk written as it comes (no write window): only the idle timer is armed.
      liveEnv({ IDLE_TIMEOUT_MS: "5000", WRITE_WINDOW_MS: "0" }),
    );
    const reader = response.body!.getReader();
    let received = "";
    while ((received.match(/event: text-delta/g) ?? []).length < 2)
      received += new TextDecoder().decode((await reader.read()).value);
    // Both chunks are through; the Worker now waits for the third, under the response's one
    // timer of its idle timeout and deadline (MAX_RESPONSE_MS, later), beside the heartbeat to the
    // client; the request body's deadline was cleared once it was read.
    expect(await eventually(() => timers.pending === 2)).toBe(true);
    expect(new Set(timers.scheduled)).toEqual(new Set([BODY_READ_MS, 5000, 15_000]));
    expect(upstream.cancelled).toBeUndefined();
    await settled();
    timers.fire(timers.handlesOf(5000)[0]!);
    for (let r = await reader.read(); !r.done; r = await reader.read()) received += new TextDecoder().decode(r.value);
    const { events } = await readSSE(new Response(received));
    expect(events.map((e) => e.type)).toEqual(["text-delta", "text-delta", "error", "abort"]);
    expect(events[2]).toEqual({
      type: "error",
      error: {
        code: "idle-timeout",
        message: "The provider sent no event for 5000 ms (keep-alives do not count); the stream was ended.",
      },
    });
    expect(events[3]).toMatchObject({ type: "abort", reason: "stream-failed" });
    expect(upstream.cancelled).toBeDefined();
    expect(upstream.requests[0]?.signal.aborted).toBe(true);
  });

  it("a network failure mid-stream becomes an error event and an abort, after everything read before", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([chunk({ content: "partial" })]).slice(0, 1),
      then: "fail",
    });
    const response = await worker(upstream).call(streamRequest(validBody(), auth), liveEnv());
    expect(response.status).toBe(200);
    const { events } = await readSSE(response);
    expect(events.map((e) => e.type)).toEqual(["text-delta", "error", "abort"]);
    expect(events[1]).toMatchObject({ type: "error", error: { code: "stream-failed" } });
  });

  it("MAX_TOOL_CALLS ends the stream with error and abort, after the call sent whole, and cancels the upstream", async () => {
    const calls = [0, 1, 2].map((index) =>
      chunk({ tool_calls: [{ index, id: `call_${index}`, function: { name: "f", arguments: "{}" } }] }),
    );
    const chunks = openAIChunks([...calls, chunk({}, "tool_calls")]);
    const upstream = new FakeUpstream({ kind: "sse", chunks });
    const response = await worker(upstream).call(streamRequest(validBody(), auth), liveEnv({ MAX_TOOL_CALLS: "1" }));
    const { events } = await readSSE(response);
    // call_0 was sent whole (index 1 began): completed before the error (of a tool the request did not declare), not discarded.
    expect(events.map((e) => e.type)).toEqual([
      "tool-call-start",
      "tool-call-delta",
      "invalid-tool-call",
      "error",
      "abort",
    ]);
    expect(events[2]).toMatchObject({ type: "invalid-tool-call", id: "call_0", rawArguments: "{}" });
    expect(events[3]).toMatchObject({ type: "error", error: { code: "too-many-tool-calls" } });
    expect(events[4]).toMatchObject({ type: "abort", reason: "limit-exceeded", discarded: [] });
    expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
    expect(upstream.pulled).toBeLessThan(chunks.length);
  });

  it("MAX_ARGUMENTS_LENGTH ends the stream with error and abort and cancels the upstream", async () => {
    const parts = ['{"city":', '"Paris, France, Europe', '"}'].map((text, i) =>
      chunk({
        tool_calls: [
          {
            index: 0,
            ...(i === 0
              ? { id: "call_1", function: { name: "get_weather", arguments: text } }
              : { function: { arguments: text } }),
          },
        ],
      }),
    );
    const chunks = openAIChunks([...parts, chunk({}, "tool_calls")]);
    const upstream = new FakeUpstream({ kind: "sse", chunks });
    const response = await worker(upstream).call(
      streamRequest(validBody(), auth),
      liveEnv({ MAX_ARGUMENTS_LENGTH: "16" }),
    );
    const { events } = await readSSE(response);
    expect(events.at(-2)).toMatchObject({ type: "error", error: { code: "arguments-too-large" } });
    expect(events.at(-1)).toMatchObject({ type: "abort", reason: "limit-exceeded" });
    expect(events.some((e) => e.type === "tool-call")).toBe(false);
    expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
    expect(upstream.pulled).toBeLessThan(chunks.length);
  });
});

describe("POST /v1/stream provider event size", () => {
  it("a provider SSE event over MAX_EVENT_LENGTH ends the stream with error and abort and cancels the upstream", async () => {
    const chunks = [
      ...openAIChunks([chunk({ content: "ok" })]).slice(0, 1),
      `data: ${JSON.stringify(chunk({ content: "x".repeat(5000) }))}\n\n`,
      ...openAIChunks([chunk({}, "stop")]),
    ];
    const upstream = new FakeUpstream({ kind: "sse", chunks });
    const response = await worker(upstream).call(
      streamRequest(validBody(), auth),
      liveEnv({ MAX_EVENT_LENGTH: "1000" }),
    );
    const { events } = await readSSE(response);
    expect(events.map((e) => e.type)).toEqual(["text-delta", "error", "abort"]);
    expect(events[1]).toMatchObject({ type: "error", error: { code: "event-too-large" } });
    expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
  });
});
