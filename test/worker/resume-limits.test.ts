// The limits of resumable responses: the detached limit (a response nobody reads is cancelled
// after DETACHED_LIMIT_MS), the expiry (RESUME_TTL_MS), and the bounded log (RESUME_MAX_EVENTS,
// RESUME_MAX_BYTES). The Durable Object runs on a fake upstream and a manual clock injected with
// runInDurableObject, so no test waits for time to pass.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { toBatch, type LogStep } from "../../worker/resumable/log-batch.ts";
import { ResponseLog } from "../../worker/resumable/response-log.ts";
import {
  chatChunk,
  FakeUpstream,
  ManualTimers,
  objectOf,
  openAIChunks,
  readSSE,
  readThenDisconnect,
  responses,
  startResponse,
  testEnv,
  validBody,
  weatherCall,
  worker,
} from "./support.ts";
import { runExpiryAlarm } from "./durable-support.ts";

const app = worker();
const env = testEnv({ RESPONSES: responses });

describe("resumable responses: the detached limit", () => {
  const stalled = () =>
    new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([chatChunk({ content: "Checking. " }), weatherCall(0, "call_1", '{"city":')]).slice(0, 2),
      then: "stall",
    });

  it("a response with no client attached keeps running, and is cancelled once DETACHED_LIMIT_MS passes with nobody back", async () => {
    const upstream = stalled();
    const clock = new ManualTimers();
    const { stub, response, attach } = await startResponse(upstream, clock, {
      DETACHED_LIMIT_MS: "7000",
      IDLE_TIMEOUT_MS: "60000",
    });
    expect(response.status).toBe(200);
    const detached = clock.whenScheduled(7000);
    const before = await readThenDisconnect(response, 1);
    // The promise settles in the object's context: await it there, not here.
    await runInDurableObject(stub, () => detached);
    expect(clock.handlesOf(7000)).toHaveLength(1);
    // Detached but not yet past the limit: the provider request is still running.
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]!.signal.aborted).toBe(false);
    await runInDurableObject(stub, () => clock.fire(clock.handlesOf(7000)[0]!));
    expect(upstream.requests[0]!.signal.aborted).toBe(true);
    // The log ends with an abort that discards the open call; a client coming back reads it.
    const rest = await readSSE(await attach(Number(before.at(-1)!.id)));
    expect(rest.events.map((event) => event.type)).toEqual(["tool-call-start", "tool-call-delta", "abort"]);
    expect(rest.events.at(-1)).toMatchObject({
      type: "abort",
      reason: "cancelled",
      discarded: [{ id: "call_1", name: "get_weather" }],
    });
    expect(upstream.requests).toHaveLength(1);
  });

  it("a client that comes back before the limit disarms it; leaving again re-arms it", async () => {
    const upstream = stalled();
    const clock = new ManualTimers();
    // Every chunk written as it comes (no write window on this manual clock): this is about the detach timer.
    const { stub, response, attach } = await startResponse(upstream, clock, {
      DETACHED_LIMIT_MS: "7000",
      IDLE_TIMEOUT_MS: "60000",
      RESUME_WRITE_WINDOW_MS: "0",
    });
    const detached = clock.whenScheduled(7000);
    const before = await readThenDisconnect(response, 1);
    await runInDurableObject(stub, () => detached);
    const [armed] = clock.handlesOf(7000);
    const resumed = await attach(Number(before.at(-1)!.id));
    expect(resumed.status).toBe(200);
    expect(clock.handlesOf(7000)).toEqual([]);
    const detachedAgain = clock.whenScheduled(7000);
    const more = await readThenDisconnect(resumed, 1);
    expect(more.map((m) => m.event)).toEqual(["tool-call-start"]);
    await runInDurableObject(stub, () => detachedAgain);
    expect(clock.handlesOf(7000)).toHaveLength(1);
    expect(clock.handlesOf(7000)).not.toContain(armed);
    expect(upstream.requests[0]!.signal.aborted).toBe(false);
  });

  it("a response that ends while detached is not cancelled, and the finished log stays resumable", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([
        chatChunk({ content: "Checking. " }),
        weatherCall(0, "call_1", '{"city":'),
        weatherCall(0, "", '"Paris"}'),
        chatChunk({}, "tool_calls"),
      ]),
    });
    const clock = new ManualTimers();
    const { response, attach } = await startResponse(upstream, clock, {
      DETACHED_LIMIT_MS: "7000",
      IDLE_TIMEOUT_MS: "60000",
    });
    const before = await readThenDisconnect(response, 1);
    const rest = await readSSE(await attach(Number(before.at(-1)!.id)));
    expect(rest.events.at(-1)).toMatchObject({ type: "finish", reason: "tool-calls" });
    expect(rest.events.map((event) => event.type)).toContain("tool-call");
    expect(clock.handlesOf(7000)).toEqual([]);
    // Not cancelled by the detached limit: the body is let go only at the provider's own end ([DONE]).
    expect([undefined, "The response ended."]).toContain(upstream.cancelled?.reason);
  });
});

describe("resumable responses: cancel", () => {
  it("DELETE /v1/stream/<id> cancels the provider request; readers get the abort with the open call discarded", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([chatChunk({ content: "Checking. " }), weatherCall(0, "call_1", '{"city":')]).slice(0, 2),
      then: "stall",
    });
    const { id, response } = await startResponse(upstream, new ManualTimers(), { IDLE_TIMEOUT_MS: "60000" });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("event: text-delta");
    const cancelled = await app.call(new Request(`http://localhost:8787/v1/stream/${id}`, { method: "DELETE" }), env);
    expect(cancelled.status).toBe(204);
    expect(upstream.requests[0]!.signal.aborted).toBe(true);
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    const { events } = await readSSE(new Response(rest));
    expect(events.at(-1)).toMatchObject({ type: "abort", reason: "cancelled", discarded: [{ id: "call_1" }] });
    // A client's cancel is no failure: no error event (a timeout's ends the stream with one).
    expect(events.some((event) => event.type === "error")).toBe(false);
  });
});

describe("resumable responses: expiry and unknown ids", () => {
  it("after RESUME_TTL_MS the alarm drops the finished response; its id then gets 404 unknown_response, like an id never issued", async () => {
    const started = await app.call(
      new Request("http://localhost:8787/v1/stream", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(validBody()),
      }),
      env,
    );
    const id = started.headers.get("x-response-id")!;
    await started.text();
    const resume = (lastEventId: string) =>
      app.call(
        new Request(`http://localhost:8787/v1/stream/${id}`, { headers: { "last-event-id": lastEventId } }),
        env,
      );
    expect((await resume("0")).status).toBe(200);
    expect(await runExpiryAlarm(objectOf(id))).toBe(true);
    for (const lastEventId of ["-1", "0"]) {
      const expired = await resume(lastEventId);
      expect(expired.status).toBe(404);
      expect(await expired.json()).toEqual({
        error: { code: "unknown_response", message: "No response with this id is in flight or recent." },
      });
    }
  });

  it("the alarm never drops a response still in flight", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([chatChunk({ content: "one" })]).slice(0, 1),
      then: "stall",
    });
    const { stub, response, attach } = await startResponse(upstream, new ManualTimers(), { IDLE_TIMEOUT_MS: "60000" });
    const before = await readThenDisconnect(response, 1);
    await runInDurableObject(stub, (instance: ResponseBuffer) => instance.alarm());
    const again = await attach(Number(before[0]!.id));
    expect(again.status).toBe(200);
    await again.body!.cancel();
  });
});

describe("resumable responses: the bounded log", () => {
  const calls = Array.from({ length: 6 }, (_, index) => weatherCall(index, `call_${index}`, "{}"));
  const finished = () =>
    new FakeUpstream({ kind: "sse", chunks: openAIChunks([...calls, chatChunk({}, "tool_calls")]) });

  it("past RESUME_MAX_EVENTS the attached reader still gets every event; resuming from before the kept window is 410 resume_window_passed", async () => {
    const upstream = finished();
    const { response, attach } = await startResponse(upstream, new ManualTimers(), { RESUME_MAX_EVENTS: "4" });
    const whole = (await readSSE(response)).messages;
    expect(whole.map((m) => m.id)).toEqual(whole.map((_, index) => String(index)));
    expect(whole.at(-1)!.event).toBe("finish");
    const last = whole.length - 1;
    // The last four are kept: resuming after id last-4 needs last-3 .. last, all kept.
    const kept = await readSSE(await attach(last - 4));
    expect(kept.messages.map((m) => Number(m.id))).toEqual([last - 3, last - 2, last - 1, last]);
    const gone = await attach(last - 5);
    expect(gone.status).toBe(410);
    expect(await gone.json()).toEqual({
      error: { code: "resume_window_passed", message: "The events after this Last-Event-ID are no longer kept." },
    });
  });

  it("past RESUME_MAX_BYTES the oldest frames go first, and the newest frame is kept whatever its size", async () => {
    const { response, attach } = await startResponse(finished(), new ManualTimers(), { RESUME_MAX_BYTES: "1" });
    const whole = (await readSSE(response)).messages;
    const last = whole.length - 1;
    expect((await readSSE(await attach(last - 1))).messages.map((m) => Number(m.id))).toEqual([last]);
    expect((await attach(last - 2)).status).toBe(410);
  });
});

describe("ResponseLog", () => {
  const frame = (n: number) => `id: ${n}\n\n`;
  const drain = async (read: () => Promise<LogStep>, count: number) => {
    const steps: LogStep[] = [];
    for (let i = 0; i < count; i++) steps.push(await read());
    return steps;
  };

  it("a cursor reads the kept frames, then waits for live ones, then the end", async () => {
    const log = new ResponseLog({ maxFrames: 10, maxBytes: 1000 });
    log.append([frame(0)]);
    const cursor = log.open(-1);
    expect(log.readers).toBe(1);
    expect(await cursor.read()).toEqual({ type: "frames", text: frame(0) });
    const waiting = cursor.read();
    log.append([frame(1)]);
    expect(await waiting).toEqual({ type: "frames", text: frame(1) });
    const end = cursor.read();
    log.finish();
    expect(await end).toEqual({ type: "end" });
    cursor.close();
    cursor.close();
    expect(log.readers).toBe(0);
  });

  it("past the bounds the oldest frames are dropped, and only frames after a kept one can be resumed from", async () => {
    const log = new ResponseLog({ maxFrames: 3, maxBytes: 1000 });
    for (let n = 0; n < 5; n++) log.append([frame(n)]);
    expect([log.first, log.next, log.full]).toEqual([2, 5, false]);
    expect([0, 1, 4, 5].map((lastSeen) => log.canResumeAfter(lastSeen))).toEqual([false, true, true, false]);
    expect(() => log.open(0)).toThrow(RangeError);
    const cursor = log.open(1);
    log.finish();
    expect(await drain(cursor.read, 4)).toEqual([
      ...[2, 3, 4].map((n) => ({ type: "frames", text: frame(n) })),
      { type: "end" },
    ]);
  });

  it("a reader that lags keeps its unread frames: the log is full and the writer waits for room instead of dropping them", async () => {
    const log = new ResponseLog({ maxFrames: 3, maxBytes: 1000 });
    const slow = log.open(-1);
    for (let n = 0; n < 3; n++) log.append([frame(n)]);
    expect(log.full).toBe(false);
    log.append([frame(3)]);
    expect([log.first, log.full]).toEqual([0, true]);
    let roomy = false;
    const room = log.room().then(() => (roomy = true));
    await Promise.resolve();
    expect(roomy).toBe(false);
    expect(await slow.read()).toEqual({ type: "frames", text: frame(0) });
    await room;
    expect([log.first, log.full]).toEqual([1, false]);
    // A reader that leaves frees the frames it held.
    log.append([frame(4)]);
    expect([log.first, log.full]).toEqual([1, true]);
    slow.close();
    expect([log.first, log.full, log.readers]).toEqual([2, false, 0]);
  });

  it("the byte bound counts too, and the newest frame stays whatever its size", () => {
    const log = new ResponseLog({ maxFrames: 100, maxBytes: 10 });
    log.append(["x".repeat(6)]);
    log.append(["y".repeat(6)]);
    expect([log.first, log.next]).toEqual([1, 2]);
    log.append(["z".repeat(50)]);
    expect([log.first, log.next, log.full]).toEqual([2, 3, false]);
  });

  it("a cursor closed while it waits reads the end, not a frame", async () => {
    const log = new ResponseLog({ maxFrames: 10, maxBytes: 1000 });
    const cursor = log.open(-1);
    const waiting = cursor.read();
    cursor.close();
    log.append([frame(0)]);
    expect(await waiting).toEqual({ type: "end" });
    expect(log.readers).toBe(0);
  });

  it("a finished log accepts no frame", () => {
    const log = new ResponseLog({ maxFrames: 3, maxBytes: 1000 });
    log.finish();
    expect(() => log.append([frame(0)])).toThrow("already ended");
  });

  it("a batch is read as one step, and a cursor opened inside a batch starts at the frame after Last-Event-ID exactly", async () => {
    const log = new ResponseLog({ maxFrames: 10, maxBytes: 1000 });
    const whole = log.open(-1);
    expect(log.append([0, 1, 2].map(frame))).toEqual({
      first: 0,
      text: [0, 1, 2].map(frame).join(""),
      ends: [7, 14, 21],
    });
    log.append([3, 4].map(frame));
    log.finish();
    expect(await drain(whole.read, 3)).toEqual([
      { type: "frames", text: [0, 1, 2].map(frame).join("") },
      { type: "frames", text: [3, 4].map(frame).join("") },
      { type: "end" },
    ]);
    for (let lastSeen = -1; lastSeen < 5; lastSeen++) {
      const cursor = log.open(lastSeen);
      let text = "";
      for (let step = await cursor.read(); step.type === "frames"; step = await cursor.read()) text += step.text;
      expect(text).toBe(
        [0, 1, 2, 3, 4]
          .filter((n) => n > lastSeen)
          .map(frame)
          .join(""),
      );
    }
    expect(log.lastFrame()).toBe(frame(4));
  });

  it("past the bounds frames are dropped one by one from inside the oldest batch; an empty batch appends nothing", async () => {
    const log = new ResponseLog({ maxFrames: 4, maxBytes: 1000 });
    log.append([0, 1, 2].map(frame));
    log.append([]);
    log.append([3, 4, 5].map(frame));
    expect([log.first, log.next, log.full]).toEqual([2, 6, false]);
    const cursor = log.open(2);
    log.finish();
    expect(await drain(cursor.read, 3)).toEqual([
      { type: "frames", text: [3, 4, 5].map(frame).join("") },
      { type: "end" },
      { type: "end" },
    ]);
    const restored = ResponseLog.restore(
      { maxFrames: 2, maxBytes: 1000 },
      [toBatch(7, [7, 8].map(frame)), toBatch(9, [frame(9)])],
      false,
    );
    expect([restored.first, restored.next, restored.done]).toEqual([8, 10, false]);
    expect(await restored.open(7).read()).toEqual({ type: "frames", text: frame(8) });
  });
});
