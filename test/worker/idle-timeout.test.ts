// The idle timeout on the upstream body keeps one timer for the whole body, not one per read: the
// timer that fires while a later read waits gives that read its whole wait (it waits again for
// what is left), ends the body only when a read has waited the full time, and is cleared at the end.
import { describe, expect, it } from "vitest";
import { ToolCallStreamError } from "../../src/index.ts";
import type { Timers } from "../../worker/runtime.ts";
import { withIdleTimeout } from "../../worker/upstream/idle-timeout.ts";

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

describe("withIdleTimeout", () => {
  it("a read that waits less than the limit is not ended when the timer armed by an earlier read fires; one that waits the full limit is", async () => {
    const clock = new Clock();
    const source = pushed();
    let stops = 0;
    const reader = withIdleTimeout(source.body, { ms: 1000, timers: clock, onStop: () => void stops++ }).getReader();
    const first = reader.read();
    await turns();
    expect(clock.waiting.size).toBe(1);
    clock.time = 600;
    source.push("a");
    expect(new TextDecoder().decode((await first).value)).toBe("a");
    const second = reader.read();
    await turns();
    // Still the first read's timer: no timer per read.
    expect(clock.waiting.size).toBe(1);
    clock.advance(1000); // due for the first read's wait; the second has waited 400 ms
    await turns();
    expect(stops).toBe(0);
    expect([...clock.waiting.values()].map((timer) => timer.due)).toEqual([1600]);
    clock.advance(1600);
    await expect(second).rejects.toBeInstanceOf(ToolCallStreamError);
    expect(stops).toBe(1);
    expect(source.cancelled()).toBe(true);
  });

  it("leaves no timer once the body ends, and none while no read waits", async () => {
    const clock = new Clock();
    const source = pushed();
    const reader = withIdleTimeout(source.body, { ms: 1000, timers: clock, onStop: () => {} }).getReader();
    const first = reader.read();
    await turns();
    source.push("a");
    await first;
    clock.advance(1000); // no read waits: the timer lapses without ending anything or arming another
    expect(clock.waiting.size).toBe(0);
    const second = reader.read();
    await turns();
    expect(clock.waiting.size).toBe(1);
    source.close();
    expect((await second).done).toBe(true);
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
    const reader = withIdleTimeout(body, { ms: 1000, timers: clock, onStop: () => void stops++ }).getReader();
    for (const piece of ["a", "bc", "def"]) controller.enqueue(new TextEncoder().encode(piece));
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("abcdef");
    const pending = reader.read();
    await turns();
    clock.advance(1000);
    await expect(pending).rejects.toBeInstanceOf(ToolCallStreamError);
    expect(stops).toBe(1);
    await turns();
    expect(cancelled).toBeInstanceOf(ToolCallStreamError);
    expect(clock.waiting.size).toBe(0);
  });
});
