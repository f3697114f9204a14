import { ToolCallStreamError } from "../../src/index.ts";
import { chunkReader } from "../../src/shared/chunk-reader.ts";
import type { TimerHandle, Timers } from "../runtime.ts";

/** Options of {@link withIdleTimeout}. */
export interface IdleTimeoutOptions {
  /** Longest wait for the next chunk, in milliseconds. */
  ms: number;
  timers: Timers;
  /** Called when the wait ran out or the reader cancelled: aborts the upstream fetch. */
  onStop: () => void;
}

/**
 * The upstream body, ended when the provider sends nothing for `ms` while a chunk is awaited,
 * and the fetch aborted when the reader cancels (the client went away).
 * The clock runs only while the Worker waits for the provider, never while a slow client holds
 * back the reads. On timeout the source is cancelled and the stream errors with a
 * `ToolCallStreamError`, which `streamToolCalls` turns into an `error` event (this message)
 * followed by an `abort`.
 *
 * One timer at a time, not one per read: each read notes when its wait began, and the timer,
 * when it fires, ends the stream if the read it finds waiting began `ms` ago or more, or waits
 * again for what is left of that read's `ms`. A fast provider (a chunk per read) then costs no
 * timer call per chunk, only a clock read, and no race between a read and a timer.
 */
export function withIdleTimeout(
  source: ReadableStream<Uint8Array>,
  options: IdleTimeoutOptions,
): ReadableStream<Uint8Array> {
  const { ms, timers } = options;
  // A fetch body in large reads: what the upstream has ready, up to 64 KiB, per chunk.
  const reader = chunkReader(source);
  const timeout = new ToolCallStreamError({
    code: "stream-failed",
    message: `The provider sent nothing for ${ms} ms; the stream was ended.`,
  });
  let timer: TimerHandle | undefined;
  /** When the pending read began waiting, or undefined while no read is pending. */
  let waitingSince: number | undefined;
  let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  let ended = false;
  // The fetch is aborted first and the cancel is not awaited: a source stuck in a read may
  // never settle its cancel, and the client must not wait on the provider to go away.
  /** Ends the stream's clock: no timer fires after the stream ended. */
  const end = (): void => {
    ended = true;
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
  };
  const stop = (reason: unknown): void => {
    end();
    options.onStop();
    reader.cancel(reason).catch(() => undefined);
  };
  const check = (): void => {
    timer = undefined;
    if (waitingSince === undefined || ended) return; // no read waits now: the next one arms the timer again
    const left = waitingSince + ms - timers.now();
    if (left > 0) {
      timer = timers.setTimeout(check, left);
      return;
    }
    stream?.error(timeout);
    stop(timeout);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        stream = controller;
      },
      async pull(controller) {
        waitingSince = timers.now();
        if (timer === undefined) timer = timers.setTimeout(check, ms);
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
        } catch (error) {
          end();
          throw error;
        } finally {
          waitingSince = undefined;
        }
        // After a timeout the stream has errored already (and the cancelled read says done).
        if (ended) return;
        if (!result.done) return controller.enqueue(result.value);
        end();
        controller.close();
      },
      cancel(reason) {
        stop(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
