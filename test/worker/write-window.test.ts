// windowedBatches: arrays passed on at most once per write window, on a clock the test sets.
import { describe, expect, it } from "vitest";
import type { Timers } from "../../worker/runtime.ts";
import { windowedBatches } from "../../worker/services/write-window.ts";
import { eventually, ManualTimers, settled } from "./support.ts";

/** A source of arrays the test pushes, a clock it sets, and the windowed stream's reader. */
function setup(ms: number) {
  let source!: ReadableStreamDefaultController<number[]>;
  let cancelled: unknown;
  const batches = new ReadableStream<number[]>({
    start: (controller) => void (source = controller),
    cancel: (reason) => void (cancelled = reason),
  });
  const timers = new ManualTimers();
  let now = 0;
  const clock: Timers = {
    setTimeout: (callback, delay) => timers.setTimeout(callback, delay),
    clearTimeout: (handle) => timers.clearTimeout(handle),
    now: () => now,
  };
  const reader = windowedBatches(batches, { timers: clock, ms }).getReader();
  /** A read, and whether it settled. */
  const read = () => {
    const step = { done: false, result: undefined as ReadableStreamReadResult<number[]> | undefined };
    const promise = reader.read().then((result) => ((step.done = true), (step.result = result)));
    return { step, promise };
  };
  return {
    source,
    timers,
    reader,
    read,
    at: (ms: number) => void (now = ms),
    cancelled: () => cancelled,
  };
}

describe("windowedBatches", () => {
  it("the first array at once; arrays within the window joined in order when it closes (one timer); an array after it at once", async () => {
    const w = setup(25);
    w.source.enqueue([1]);
    expect((await w.reader.read()).value).toEqual([1]);
    w.at(10);
    const held = w.read();
    w.source.enqueue([2, 3]);
    w.source.enqueue([4]);
    await settled();
    expect(held.step.done).toBe(false);
    expect(w.timers.pendingDelays).toEqual([15]);
    w.timers.fireWhere((delay) => delay === 15);
    expect((await held.promise).value).toEqual([2, 3, 4]);
    w.at(100);
    w.source.enqueue([5]);
    expect((await w.reader.read()).value).toEqual([5]);
    expect(w.timers.pending).toBe(0);
  });

  it("a read that was waiting when the window closed goes to the next array", async () => {
    const w = setup(25);
    w.source.enqueue([1]);
    await w.reader.read();
    w.at(5);
    const held = w.read();
    w.source.enqueue([2]);
    await eventually(() => w.timers.pending === 1);
    w.timers.fireWhere(() => true);
    expect((await held.promise).value).toEqual([2]);
    w.at(40);
    const next = w.read();
    await settled();
    expect(next.step.done).toBe(false);
    w.source.enqueue([3]);
    expect((await next.promise).value).toEqual([3]);
  });

  it("0 passes each array as it comes, with no timer", async () => {
    const w = setup(0);
    for (const batch of [[1], [2], [3, 4]]) {
      w.source.enqueue(batch);
      expect((await w.reader.read()).value).toEqual(batch);
    }
    expect(w.timers.scheduled).toEqual([]);
  });

  it("the end passes on what waits, then closes; an error comes after what was read before it", async () => {
    const ended = setup(25);
    ended.source.enqueue([1]);
    await ended.reader.read();
    ended.source.enqueue([2]);
    ended.source.close();
    expect(await ended.reader.read()).toEqual({ done: false, value: [2] });
    expect(await ended.reader.read()).toEqual({ done: true, value: undefined });
    expect(ended.timers.pending).toBe(0);

    const failed = setup(25);
    failed.source.enqueue([1]);
    await failed.reader.read();
    failed.source.enqueue([2]);
    const held = failed.read();
    await eventually(() => failed.timers.pending === 1);
    failed.source.error(new Error("lost"));
    expect((await held.promise).value).toEqual([2]);
    await expect(failed.reader.read()).rejects.toThrow("lost");
    expect(failed.timers.pending).toBe(0);
  });

  it("a cancel reaches the source and leaves no timer", async () => {
    const w = setup(25);
    w.source.enqueue([1]);
    await w.reader.read();
    const held = w.read();
    w.source.enqueue([2]);
    await eventually(() => w.timers.pending === 1);
    await w.reader.cancel("gone");
    await held.promise;
    expect(w.cancelled()).toBe("gone");
    expect(w.timers.pending).toBe(0);
  });

  it("4096 events go on without waiting for the window", async () => {
    const w = setup(25);
    w.source.enqueue([0]);
    await w.reader.read();
    w.source.enqueue(Array.from({ length: 4000 }, (_, i) => i));
    w.source.enqueue(Array.from({ length: 96 }, (_, i) => i));
    expect((await w.reader.read()).value).toHaveLength(4096);
    expect(w.timers.pending).toBe(0);
  });
});
