// The clocks of a response: the idle timeout counts events (keep-alive bytes do not reset it), and
// both clocks keep one timer for the whole response, not one per read nor one per clock: the timer
// that fires while a later wait is younger waits again for what is left, ends the body only when
// the provider made no event for the full time, and is cleared at the end. The deadline ends it
// whatever flows.
import { describe, expect, it, vi } from "vitest";
import { ToolCallStreamError, type ToolCallEvent } from "../../src/index.ts";
import type { Timers } from "../../worker/runtime.ts";
import { mapChunks } from "../../worker/http/batch-map.ts";
import { withHeartbeat } from "../../worker/http/heartbeat.ts";
import { ResponseWatch } from "../../worker/upstream/response-watch.ts";
import { failureEvents, streamOf } from "../../worker/upstream/watched-body.ts";

/** A clock the test sets, and the timers waiting on it. */
class Clock implements Timers {
  time = 0;
  readonly waiting = new Map<number, { callback: () => void; due: number }>();
  #next = 1;
  setTimeout(callback: () => void, ms: number): number {
    this.waiting.set(this.#next, { callback, due: this.time + ms });
    return this.#next++;
  }
  clearTimeout(handle: unknown): void {
    this.waiting.delete(handle as number);
  }
  now(): number {
    return this.time;
  }
  /** Moves the clock to `time` and fires the timers due by then. */
  advance(time: number): void {
    this.time = time;
    for (const [handle, timer] of [...this.waiting]) {
      if (timer.due > time) continue;
      this.waiting.delete(handle);
      timer.callback();
    }
  }
}

/** A body whose chunks the test pushes. */
function pushed(): {
  body: ReadableStream<Uint8Array>;
  push: (text: string) => void;
  close: () => void;
  cancelled: () => boolean;
} {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    { start: (c) => void (controller = c), cancel: () => void (cancelled = true) },
    { highWaterMark: 0 },
  );
  return {
    body,
    push: (text) => controller.enqueue(new TextEncoder().encode(text)),
    close: () => controller.close(),
    cancelled: () => cancelled,
  };
}

const turns = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await null;
};

const HOUR = 3_600_000;
const watchOn = (clock: Clock, maxResponseMs = HOUR) =>
  new ResponseWatch({ timers: clock, idleTimeoutMs: 1000, maxResponseMs });
/** The due times of the timers waiting. */
const dues = (clock: Clock) => [...clock.waiting.values()].map((timer) => timer.due);

describe("ResponseWatch: the idle timeout", () => {
  it("keep-alive bytes do not restart the clock: a provider that sends only them is ended after the limit, with idle-timeout", async () => {
    const clock = new Clock();
    const source = pushed();
    let stops = 0;
    const reader = streamOf(watchOn(clock).body(source.body, () => void stops++)).getReader();
    const first = reader.read();
    await turns();
    clock.time = 600;
    source.push(": keep-alive\n\n");
    expect(new TextDecoder().decode((await first).value)).toBe(": keep-alive\n\n");
    const second = reader.read();
    await turns();
    expect(dues(clock)).toEqual([1000]);
    clock.advance(1000);
    const error = await second.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ToolCallStreamError);
    expect((error as ToolCallStreamError).code).toBe("idle-timeout");
    expect(stops).toBe(1);
    expect(source.cancelled()).toBe(true);
    expect(clock.waiting.size).toBe(0);
  });

  it("an event restarts it: the timer armed before gives the next wait its whole limit, one timer at a time", async () => {
    const clock = new Clock();
    const source = pushed();
    const watch = watchOn(clock);
    let stops = 0;
    const reader = streamOf(watch.body(source.body, () => void stops++)).getReader();
    const first = reader.read();
    await turns();
    clock.time = 600;
    source.push("data: {}\n\n");
    await first;
    const second = reader.read();
    watch.progress(); // the chain made an event of the chunk while the next read waits
    await turns();
    expect(dues(clock)).toEqual([1000]);
    clock.advance(1000); // the first wait's timer; the second has waited 400 ms
    await turns();
    expect(stops).toBe(0);
    expect(dues(clock)).toEqual([1600]);
    clock.advance(1600);
    await expect(second).rejects.toBeInstanceOf(ToolCallStreamError);
    expect(stops).toBe(1);
  });

  it("while no read waits (a slow client holds the reads back) the timer ends nothing and waits the whole limit again from when it fired; none once the response ends", async () => {
    const clock = new Clock();
    const source = pushed();
    const watch = watchOn(clock);
    const reader = streamOf(watch.body(source.body, () => {})).getReader();
    const first = reader.read();
    await turns();
    source.push("a");
    await first;
    watch.progress();
    clock.advance(5000); // no read waits: the timer ends nothing, and waits the whole limit from now
    expect(dues(clock)).toEqual([6000]);
    clock.advance(5500);
    const second = reader.read(); // this wait's limit (6500) is after the timer: never late for it
    await turns();
    expect(dues(clock)).toEqual([6000]);
    clock.advance(6000);
    expect(dues(clock)).toEqual([6500]);
    source.close();
    expect((await second).done).toBe(true);
    watch.end();
    expect(clock.waiting.size).toBe(0);
  });

  it("a wait that goes on from one whose limit passed while no read waited (bytes, no event) ends at once, not a whole limit later", async () => {
    const clock = new Clock();
    const source = pushed();
    const watch = watchOn(clock);
    let stops = 0;
    const reader = streamOf(watch.body(source.body, () => void stops++)).getReader();
    const first = reader.read();
    await turns();
    clock.time = 300;
    source.push("data: {"); // half an event: no progress, the wait since 0 goes on
    await first;
    clock.advance(1200); // no read waits: the timer ends nothing and waits again
    expect(stops).toBe(0);
    expect(dues(clock)).toEqual([2200]);
    const second = reader.read();
    await turns();
    expect(dues(clock)).toEqual([1200]); // brought forward to now
    clock.advance(1200);
    await expect(second).rejects.toMatchObject({ code: "idle-timeout" });
    expect(stops).toBe(1);
    expect(clock.waiting.size).toBe(0);
  });

  it("the wait for the headers (wait()) is under the same timer: no timer of its own, ended by the idle limit", () => {
    const clock = new Clock();
    const watch = watchOn(clock);
    const stopped: string[] = [];
    watch.onTimeout((error) => void stopped.push(error.code));
    const done = watch.wait();
    expect(clock.waiting.size).toBe(1);
    clock.advance(999);
    expect(stopped).toEqual([]);
    clock.advance(1000);
    expect(stopped).toEqual(["idle-timeout"]);
    expect(clock.waiting.size).toBe(0);
    done();
  });

  it("a wait for the headers that ended (the provider answered) leaves the timer to end nothing", () => {
    const clock = new Clock();
    const watch = watchOn(clock);
    const stopped: string[] = [];
    watch.onTimeout((error) => void stopped.push(error.code));
    watch.wait()();
    clock.advance(1000);
    expect(stopped).toEqual([]);
    expect(dues(clock)).toEqual([2000]);
    watch.end();
    expect(clock.waiting.size).toBe(0);
  });

  it("a byte stream (what a fetch body is, read with large reads): what queued comes as one chunk, and a timeout while a read is pending cancels the source", async () => {
    const clock = new Clock();
    let controller!: ReadableByteStreamController;
    let cancelled: unknown;
    const body = new ReadableStream({
      type: "bytes",
      start: (c) => void (controller = c),
      cancel: (reason) => void (cancelled = reason),
    });
    let stops = 0;
    // Read as the chain reads it: the iterator itself, no stream between.
    const chunks = watchOn(clock).body(body, () => void stops++);
    for (const piece of ["a", "bc", "def"]) controller.enqueue(new TextEncoder().encode(piece));
    expect(new TextDecoder().decode((await chunks.next()).value)).toBe("abcdef");
    const pending = chunks.next();
    await turns();
    clock.advance(1000);
    await expect(pending).rejects.toBeInstanceOf(ToolCallStreamError);
    expect(stops).toBe(1);
    await turns();
    expect(cancelled).toBeInstanceOf(ToolCallStreamError);
    expect(clock.waiting.size).toBe(0);
  });
});

describe("ResponseWatch: the deadline", () => {
  it("ends the response at MAX_RESPONSE_MS however steadily events flow, with deadline-exceeded; a body opened after it fails at once", async () => {
    const clock = new Clock();
    const source = pushed();
    const watch = watchOn(clock, 2500);
    let stops = 0;
    const reader = streamOf(watch.body(source.body, () => void stops++)).getReader();
    for (let t = 500; t < 2500; t += 500) {
      const read = reader.read();
      await turns();
      clock.advance(t);
      source.push("data: {}\n\n");
      await read;
      watch.progress();
    }
    const last = reader.read();
    await turns();
    clock.advance(2500);
    const error = await last.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect((error as ToolCallStreamError).code).toBe("deadline-exceeded");
    expect((error as ToolCallStreamError).message).toContain("MAX_RESPONSE_MS");
    expect(stops).toBe(1);
    expect(clock.waiting.size).toBe(0);
    let laterStops = 0;
    const later = streamOf(watch.body(pushed().body, () => void laterStops++)).getReader();
    await expect(later.read()).rejects.toMatchObject({ code: "deadline-exceeded" });
    expect(laterStops).toBe(1);
  });

  it("events() notes progress per event or non-empty batch, and its end clears both clocks", async () => {
    const clock = new Clock();
    const watch = watchOn(clock);
    const events = watch.events(
      new ReadableStream<number[]>({
        start(controller) {
          controller.enqueue([]);
          controller.enqueue([1]);
          controller.close();
        },
      }),
      () => [],
    );
    expect(clock.waiting.size).toBe(1);
    const read: number[][] = [];
    for await (const batch of events) read.push(batch);
    expect(read).toEqual([[], [1]]);
    expect(clock.waiting.size).toBe(0);
  });
});

describe("ResponseWatch: a throw inside the chain", () => {
  it("a step that throws ends the events with error and abort (never a cut stream), aborts the provider, and logs name and stack without the message", async () => {
    const clock = new Clock();
    const watch = watchOn(clock);
    const source = pushed();
    let stops = 0;
    const body = watch.body(source.body, () => void stops++);
    const bodyReader = streamOf(body).getReader();
    const pending = bodyReader.read();
    await turns();
    let pulls = 0;
    // A deliberately throwing step between the chain and the client: its second pull throws.
    const throwing = new ReadableStream<ToolCallEvent[]>({
      pull(controller) {
        if (pulls++ === 0) return controller.enqueue([{ type: "text-delta", text: "Hi" }]);
        throw new TypeError('Unexpected token in {"secret":"prompt text"}');
      },
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const read: ToolCallEvent[][] = [];
    for await (const batch of watch.events(throwing, (error) => [failureEvents(error)])) read.push(batch);
    expect(read.map((batch) => batch.map((event) => event.type))).toEqual([["text-delta"], ["error", "abort"]]);
    expect(read[1]![0]).toEqual({
      type: "error",
      error: { code: "stream-failed", message: "The Worker failed while streaming the response." },
    });
    expect(stops).toBe(1);
    await expect(pending).rejects.toMatchObject({ code: "stream-failed" });
    expect(logged).toHaveBeenCalledTimes(1);
    const line = String(logged.mock.calls[0]![0]);
    logged.mockRestore();
    expect(line).toMatch(/^tool-call-stream: unexpected TypeError in the response's events\n\s+at /);
    expect(line).not.toContain("secret");
    expect(clock.waiting.size).toBe(0);
  });

  /** A source whose first pull gives a text delta and whose second throws. */
  const throwingAfterOne = (): ReadableStream<ToolCallEvent[]> => {
    let pulls = 0;
    return new ReadableStream<ToolCallEvent[]>({
      pull(controller) {
        if (pulls++ === 0) return controller.enqueue([{ type: "text-delta", text: "Hi" }]);
        throw new TypeError("a bug");
      },
    });
  };

  it("read through the answer's steps and its heartbeat (the events a step of theirs, no stream of its own), the failure's events are encoded and the answer ends whole", async () => {
    const clock = new Clock();
    const watch = watchOn(clock);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const events = watch.events(throwingAfterOne(), (error) => [failureEvents(error)]);
    const types = mapChunks(events, (batch) => new TextEncoder().encode(`${batch.map((e) => e.type).join(",")};`));
    const text = await new Response(withHeartbeat(types, clock)).text();
    logged.mockRestore();
    expect(text).toBe("text-delta;error,abort;");
    expect(watch.failure?.code).toBe("stream-failed");
    expect(clock.waiting.size).toBe(0);
  });

  it("over steps already (a run's), a throw of one of those steps ends the events with error and abort too", async () => {
    const clock = new Clock();
    const watch = watchOn(clock);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    let seen = 0;
    const step = mapChunks(
      new ReadableStream<ToolCallEvent[]>({
        pull: (controller) => controller.enqueue([{ type: "text-delta", text: "Hi" }]),
      }),
      (batch) => {
        if (seen++ > 0) throw new TypeError("a bug in a step");
        return batch;
      },
    );
    const read: string[][] = [];
    for await (const batch of watch.events(step, (error) => [failureEvents(error)]))
      read.push(batch.map((event) => event.type));
    logged.mockRestore();
    expect(read).toEqual([["text-delta"], ["error", "abort"]]);
    expect(clock.waiting.size).toBe(0);
  });

  it("an answer cancelled by its reader ends the watch: no timer is left", async () => {
    const clock = new Clock();
    const watch = watchOn(clock);
    const events = watch.events(new ReadableStream<ToolCallEvent[]>(), () => []);
    const reader = withHeartbeat(
      mapChunks(events, () => new Uint8Array(1)),
      clock,
    ).getReader();
    expect(clock.waiting.size).toBe(2); // the watch's and the heartbeat's
    await reader.cancel("gone");
    expect(clock.waiting.size).toBe(0);
  });
});
