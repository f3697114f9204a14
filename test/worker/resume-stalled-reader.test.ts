// A client attached to a resumable response that reads nothing (its connection open, its socket
// full) holds the log full, and the log waits for it instead of dropping frames it has yet to read.
// That wait is bounded: once the client has read nothing for DETACHED_LIMIT_MS while the log is
// full, it is cut (its body errors; a resume with its Last-Event-ID is then served what is kept,
// or is 410), and the response goes on to its end, so it still ends (MAX_RESPONSE_MS, the provider's
// end) and leaves the object's memory however long that client holds its connection open.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { HEARTBEAT_MS, withHeartbeat } from "../../worker/http/heartbeat.ts";
import { logBody } from "../../worker/resumable/log-pump.ts";
import { LAGGED } from "../../worker/resumable/log-batch.ts";
import { ResponseLog } from "../../worker/resumable/response-log.ts";
import { chatChunk, eventually, FakeUpstream, ManualTimers, openAIChunks, startResponse } from "./support.ts";

const STEP_MS = 1000;
const steady = `data: ${JSON.stringify(chatChunk({ content: `${"x".repeat(8000)} ` }))}\n\n`;

describe("a resumable response whose one client reads nothing", () => {
  it("is not held for ever: the stalled client is cut after DETACHED_LIMIT_MS and the response ends", async () => {
    const clock = new ManualTimers();
    const upstream = new FakeUpstream(
      {
        kind: "sse",
        chunks: openAIChunks([chatChunk({ content: "Hello. " })]).slice(0, 1),
        then: "keep-alive",
        keepAlive: steady,
        keepAliveMs: STEP_MS,
      },
      clock,
    );
    const { id, stub, response, attach } = await startResponse(upstream, clock, {
      DETACHED_LIMIT_MS: "7000",
      IDLE_TIMEOUT_MS: "60000",
      MAX_RESPONSE_MS: "30000",
      RESUME_MAX_EVENTS: "5",
      RESUME_WRITE_WINDOW_MS: "0",
    });
    expect(response.status).toBe(200);
    // The client reads nothing: the log fills, then the provider is read no further.
    const inObject = (act: () => unknown) => runInDurableObject(stub, act);
    for (let step = 0; step < 300; step++) {
      const handles = clock.handlesOf(STEP_MS);
      if (handles.length === 0) {
        await inObject(() => eventually(() => clock.handlesOf(STEP_MS).length > 0, 300));
        if (clock.handlesOf(STEP_MS).length === 0) break;
        continue;
      }
      await inObject(() => clock.fire(handles[0]!));
    }
    // Stalled: the provider is read no further (each keep-alive comes only when the Worker reads on).
    const stalledAt = upstream.keepAlives;
    expect(stalledAt).toBeLessThan(290);
    expect(clock.handlesOf(STEP_MS)).toEqual([]);
    const running = () => runInDurableObject(stub, (instance: ResponseBuffer) => instance.isRunning(id));
    expect(await running()).toBe(true);
    // The log has waited DETACHED_LIMIT_MS for the client: it is cut, and the provider is read again.
    expect(clock.handlesOf(7000)).toHaveLength(1);
    await inObject(() => clock.fire(clock.handlesOf(7000)[0]!));
    await inObject(() => eventually(() => clock.handlesOf(STEP_MS).length > 0, 300));
    expect(clock.handlesOf(STEP_MS)).toHaveLength(1);
    // Time passes to the deadline (the provider's steady chunks, the heartbeat): the response ends.
    for (let turn = 0; turn < 200 && (await running()); turn++) {
      await inObject(() => clock.fireNext());
      await inObject(() => eventually(() => false, 20));
    }
    expect(upstream.keepAlives).toBeGreaterThan(stalledAt);
    expect(upstream.requests[0]!.signal.aborted).toBe(true);
    expect(await running()).toBe(false);
    // The client that was cut sees its body fail, not a clean end it would take for the whole answer.
    await expect(response.text()).rejects.toThrow();
    // Its resume from an event it saw is a clear 410: the frames after it were dropped.
    const resumed = await attach(0);
    expect(resumed.status).toBe(410);
    expect(await resumed.json()).toMatchObject({ error: { code: "resume_window_passed" } });
    // The end is stored like any other: deadline-exceeded, then the abort.
    const tail = await (await attach(-1 + (await lastId(attach)))).text();
    expect(tail).toContain("event: abort");
  });
});

describe("ResponseLog.cutLaggards", () => {
  it("cuts only the readers that hold the log full: their next read throws, the others read on and the writer has room", async () => {
    const log = new ResponseLog({ maxFrames: 2, maxBytes: 1 << 20 });
    const lagging = log.open(-1);
    const keeping = log.open(-1);
    let told = 0;
    lagging.onCut?.(() => told++);
    log.append(["a"]);
    log.append(["b"]);
    expect(await keeping.read()).toEqual({ type: "frames", text: "a" });
    expect(await keeping.read()).toEqual({ type: "frames", text: "b" });
    log.append(["c"]);
    expect(log.full).toBe(true);
    expect(log.cutLaggards()).toBe(1);
    expect(told).toBe(1);
    expect(log.full).toBe(false);
    expect(log.readers).toBe(1);
    await expect(lagging.read()).rejects.toThrow(LAGGED);
    expect(await keeping.read()).toEqual({ type: "frames", text: "c" });
    // Nobody lags now: nothing more to cut.
    expect(log.cutLaggards()).toBe(0);
    expect(log.canResumeAfter(0)).toBe(true);
  });
});

describe("a cut reader's answer", () => {
  it("fails at once, its heartbeat stopped, though its client reads nothing more", async () => {
    const clock = new ManualTimers();
    const log = new ResponseLog({ maxFrames: 2, maxBytes: 1 << 20 });
    let left = 0;
    const body = withHeartbeat(
      logBody(log.open(-1), () => left++),
      clock,
    );
    const reader = body.getReader();
    log.append(["a"]);
    expect(await reader.read()).toMatchObject({ done: false });
    // The client reads no more (its socket full): the answer read one batch ahead, the log fills.
    log.append(["b"]);
    log.append(["c"]);
    log.append(["d"]);
    expect(log.full).toBe(true);
    expect(log.cutLaggards()).toBe(1);
    expect(left).toBe(1);
    await eventually(() => clock.handlesOf(HEARTBEAT_MS).length === 0, 50);
    // Failed before: the heartbeat re-armed every HEARTBEAT_MS for as long as the connection stayed open.
    for (const handle of clock.handlesOf(HEARTBEAT_MS)) clock.fire(handle);
    expect(clock.handlesOf(HEARTBEAT_MS)).toEqual([]);
    await expect(reader.read()).rejects.toThrow(LAGGED);
  });
});

/** The last event id of a finished response, from its stored window (a resume past it says it). */
async function lastId(attach: (after: number) => Promise<Response>): Promise<number> {
  const past = (await (await attach(1_000_000)).json()) as { error: { message: string } };
  return Number(/\((\d+)\)\.$/.exec(past.error.message)![1]);
}
