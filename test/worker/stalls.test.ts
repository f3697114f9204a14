// A stall is an error, a vanished client is found: against the Worker in workerd with a fake
// provider on a manual clock. A provider that sends only keep-alives (bytes that make no event)
// is ended by IDLE_TIMEOUT_MS, one that never ends by MAX_RESPONSE_MS, on every path (plain,
// resumable, run, the client protocols), with an `error` naming which before the `abort`; a
// client that vanished is found by the heartbeat's write and the provider request is cancelled.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ToolCallEvent } from "../../src/index.ts";
import { DEFAULT_SETTINGS, type Env } from "../../worker/env.ts";
import { HEARTBEAT_MS } from "../../worker/http/heartbeat.ts";
import { endpoints } from "./endpoint-bodies.ts";
import {
  chatChunk,
  FakeUpstream,
  liveOpenAI,
  ManualTimers,
  openAIChunks,
  readSSE,
  settled,
  startResponse,
  streamRequest,
  testEnv,
  validBody,
  weatherCall,
  worker,
} from "./support.ts";

const auth = { authorization: "Bearer t" };
// The idle clock runs from when the last events were passed on: the write window holds the events
// of the chunks after the first for up to its length (WRITE_WINDOW_MS, a resumable response's
// RESUME_WRITE_WINDOW_MS), so a timeout comes that much after the provider's last event.
const WINDOW = DEFAULT_SETTINGS.writeWindowMs;
const RESUME_WINDOW = DEFAULT_SETTINGS.resumeWriteWindowMs;
const live = (overrides: Partial<Env> = {}): Env => testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t", ...overrides });
const decoder = new TextDecoder();

/** Fires the timer due first inside the object `stub` (its streams can be touched only from there). */
const inObject = (stub: DurableObjectStub, timers: ManualTimers) => () =>
  runInDurableObject(stub, () => timers.fireNext());

/** One text chunk and the start of a call, then what `then` says. */
function provider(timers: ManualTimers, then: "stall" | "keep-alive", keepAlive?: string): FakeUpstream {
  const chunks = openAIChunks([chatChunk({ content: "Checking. " }), weatherCall(0, "call_1", '{"city":')]).slice(0, 2);
  return new FakeUpstream(
    { kind: "sse", chunks, then, keepAliveMs: 10_000, ...(keepAlive ? { keepAlive } : {}) },
    timers,
  );
}

/**
 * Reads `body` to its end while time passes: whenever the Worker waits, the timer due first fires
 * (the provider's keep-alives, the heartbeat, the idle timeout, the deadline, in their order).
 */
async function readWhileTimePasses(
  body: ReadableStream<Uint8Array>,
  timers: ManualTimers,
  fire: () => Promise<boolean> | boolean = () => timers.fireNext(),
): Promise<string> {
  const reader = body.getReader();
  let text = "";
  let done = false;
  const reading = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value);
    done = true;
  })();
  for (let turn = 0; turn < 500 && !done; turn++) {
    await settled();
    if (!done && !(await fire())) break;
  }
  await reading;
  return text;
}

const eventsOf = async (text: string): Promise<ToolCallEvent[]> => (await readSSE(new Response(text))).events;
const typesOf = (events: readonly ToolCallEvent[]) => events.map((event) => event.type);

describe("a provider that sends only keep-alives is ended by the idle timeout", () => {
  it("POST /v1/stream: error idle-timeout, then the abort with the open call, the provider request cancelled; the heartbeat wrote meanwhile", async () => {
    const timers = new ManualTimers();
    const upstream = provider(timers, "keep-alive");
    const response = await worker(upstream, timers).call(
      streamRequest(validBody(), { headers: auth }),
      live({ IDLE_TIMEOUT_MS: "60000" }),
    );
    const text = await readWhileTimePasses(response.body!, timers);
    const events = await eventsOf(text);
    expect(typesOf(events)).toEqual(["text-delta", "tool-call-start", "tool-call-delta", "error", "abort"]);
    expect(events[3]).toMatchObject({ error: { code: "idle-timeout" } });
    expect(events[4]).toMatchObject({ reason: "stream-failed", discarded: [{ id: "call_1" }] });
    // Six keep-alives came (one every 10 s); none kept the stalled model alive past 60 s.
    expect(upstream.keepAlives).toBe(6);
    expect(timers.now()).toBe(60_000 + WINDOW);
    expect(upstream.requests[0]!.signal.aborted).toBe(true);
    expect(upstream.cancelled).toBeDefined();
    // Nothing to send for 15 s at a time: the heartbeat's SSE comments went out, 15, 30, 45 and 60 s
    // after the last write (the idle timeout, due then too, was armed again after the heartbeat).
    expect(text.match(/^: keep-alive$/gm)).toHaveLength(4);
    // The Worker left no timer behind (what waits is the fake provider's next keep-alive).
    expect(timers.pendingDelays.filter((ms) => ms !== 10_000)).toEqual([]);
  });

  it("the same on a resumable response: the error, not a cancelled abort (only a DELETE is that)", async () => {
    const timers = new ManualTimers();
    const upstream = provider(timers, "keep-alive", 'event: ping\ndata: {"type":"ping"}\n\n');
    const { response, stub } = await startResponse(upstream, timers, { IDLE_TIMEOUT_MS: "30000" });
    const events = await eventsOf(await readWhileTimePasses(response.body!, timers, inObject(stub, timers)));
    expect(typesOf(events).slice(-2)).toEqual(["error", "abort"]);
    expect(events.at(-2)).toMatchObject({ error: { code: "idle-timeout" } });
    expect(events.at(-1)).toMatchObject({ reason: "stream-failed", discarded: [{ id: "call_1" }] });
    expect(timers.now()).toBe(30_000 + RESUME_WINDOW);
    expect(upstream.requests[0]!.signal.aborted).toBe(true);
  });
});

describe("MAX_RESPONSE_MS ends a response however steadily it streams", () => {
  const steady = `data: ${JSON.stringify(chatChunk({ content: "more " }))}\n\n`;

  it("POST /v1/stream: events every 10 s keep the idle timeout away, the deadline ends it with deadline-exceeded", async () => {
    const timers = new ManualTimers();
    const upstream = provider(timers, "keep-alive", steady);
    const response = await worker(upstream, timers).call(
      streamRequest(validBody(), { headers: auth }),
      live({ IDLE_TIMEOUT_MS: "15000", MAX_RESPONSE_MS: "45000" }),
    );
    const events = await eventsOf(await readWhileTimePasses(response.body!, timers));
    expect(typesOf(events).slice(-2)).toEqual(["error", "abort"]);
    expect(events.at(-2)).toMatchObject({ error: { code: "deadline-exceeded" } });
    expect(events.filter((event) => event.type === "text-delta").length).toBeGreaterThanOrEqual(4);
    expect(timers.now()).toBe(45_000);
    expect(upstream.requests[0]!.signal.aborted).toBe(true);
  });

  it("a resumable response: the same error before the abort", async () => {
    const timers = new ManualTimers();
    const upstream = provider(timers, "keep-alive", steady);
    const { response, stub } = await startResponse(upstream, timers, {
      IDLE_TIMEOUT_MS: "15000",
      MAX_RESPONSE_MS: "45000",
    });
    const events = await eventsOf(await readWhileTimePasses(response.body!, timers, inObject(stub, timers)));
    expect(typesOf(events).slice(-2)).toEqual(["error", "abort"]);
    expect(events.at(-2)).toMatchObject({ error: { code: "deadline-exceeded" } });
    expect(events.at(-1)).toMatchObject({ reason: "stream-failed" });
  });
});

describe("a stall after one chunk is an error on every path", () => {
  it("POST /v1/run: the step ends with error idle-timeout before its abort", async () => {
    const timers = new ManualTimers();
    const upstream = provider(timers, "stall");
    const response = await worker(upstream, timers).call(
      new Request("http://localhost:8787/v1/run", {
        method: "POST",
        headers: { "content-type": "application/json", ...auth },
        body: JSON.stringify(endpoints["run"]!.valid()),
      }),
      live({ IDLE_TIMEOUT_MS: "20000" }),
    );
    expect(response.status).toBe(200);
    const text = await readWhileTimePasses(response.body!, timers);
    const events = (await readSSE(new Response(text))).events as unknown as Array<Record<string, unknown>>;
    const error = events.findIndex((event) => event.type === "error");
    expect(events[error]).toMatchObject({ error: { code: "idle-timeout" } });
    expect(events.findIndex((event) => event.type === "abort")).toBeGreaterThan(error);
    expect(upstream.requests[0]!.signal.aborted).toBe(true);
  });

  const parameters = { type: "object", properties: { city: { type: "string" } } };
  for (const [path, body, says] of [
    ["/v1/chat/completions", { ...endpoints["chat"]!.valid(), stream: true }, /"code":"idle-timeout"/],
    ["/v1/ui", endpoints["ui"]!.valid(), /idle-timeout|sent no event/],
    ["/v1/ag-ui", endpoints["agui"]!.valid(), /"type":"RUN_ERROR"[^\n]*(idle-timeout|sent no event)/],
    [
      "/v1/messages",
      {
        model: "openai/gpt-4o-mini",
        max_tokens: 256,
        stream: true,
        messages: [{ role: "user", content: "Weather in Paris?" }],
        tools: [{ name: "get_weather", input_schema: parameters }],
      },
      /event: error\n[^\n]*(idle-timeout|sent no event)/,
    ],
    [
      "/v1/responses",
      {
        model: "openai/gpt-4o-mini",
        stream: true,
        input: "Weather in Paris?",
        tools: [{ type: "function", name: "get_weather", parameters }],
      },
      /response\.failed[^\n]*\n[^\n]*(idle-timeout|sent no event)/,
    ],
  ] as const) {
    it(`${path}: the protocol's error names the idle timeout`, async () => {
      const timers = new ManualTimers();
      const upstream = provider(timers, "stall");
      const response = await worker(upstream, timers).call(
        new Request(`http://localhost:8787${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...auth },
          body: JSON.stringify(body),
        }),
        live({ IDLE_TIMEOUT_MS: "20000" }),
      );
      expect(response.status).toBe(200);
      const text = await readWhileTimePasses(response.body!, timers);
      expect(text).toMatch(says);
      expect(timers.now()).toBe(20_000 + WINDOW);
      expect(upstream.requests[0]!.signal.aborted).toBe(true);
    });
  }
});

/**
 * A client that vanished once it had every event (the text and the call's start): the next chunk
 * the runtime writes to it fails, so the body is cancelled then, and only then (nothing else tells
 * a Worker a client is gone). Resolves with the clock's time of the last chunk it took.
 */
async function vanishAfterTheEvents(body: ReadableStream<Uint8Array>, timers: ManualTimers): Promise<number> {
  const reader = body.getReader();
  let text = "";
  while (!text.includes("event: tool-call-delta")) text += decoder.decode((await reader.read()).value);
  const lastWrite = timers.now();
  await reader.read();
  await reader.cancel("the write to the client failed");
  return lastWrite;
}

/** The clock's time when the provider request is aborted. */
function abortTime(upstream: FakeUpstream, timers: ManualTimers): Promise<number> {
  const { signal } = upstream.requests[0]!;
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(timers.now()), { once: true }));
}

describe("a client that vanished while the provider sends only keep-alives", () => {
  it("POST /v1/stream: the heartbeat's write finds it, and the provider request is cancelled then", async () => {
    const timers = new ManualTimers();
    const upstream = provider(timers, "keep-alive");
    const response = await worker(upstream, timers).call(
      streamRequest(validBody(), { headers: auth }),
      live({ IDLE_TIMEOUT_MS: "600000" }),
    );
    const lastWrite = vanishAfterTheEvents(response.body!, timers);
    const aborted = abortTime(upstream, timers);
    for (let turn = 0; turn < 50 && !upstream.requests[0]!.signal.aborted; turn++) {
      await settled();
      timers.fireNext();
    }
    expect(await aborted).toBe((await lastWrite) + HEARTBEAT_MS);
  });

  it("a resumable response: found by the heartbeat, then cancelled once DETACHED_LIMIT_MS passes with nobody back", async () => {
    const timers = new ManualTimers();
    const upstream = provider(timers, "keep-alive");
    const { response, stub } = await startResponse(upstream, timers, {
      IDLE_TIMEOUT_MS: "600000",
      DETACHED_LIMIT_MS: "20000",
    });
    const lastWrite = vanishAfterTheEvents(response.body!, timers);
    const aborted = abortTime(upstream, timers);
    for (let turn = 0; turn < 50 && !upstream.requests[0]!.signal.aborted; turn++) {
      await settled();
      await runInDurableObject(stub, () => timers.fireNext());
    }
    expect(await aborted).toBe((await lastWrite) + HEARTBEAT_MS + 20_000);
  });
});
