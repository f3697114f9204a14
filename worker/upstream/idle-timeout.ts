import { ToolCallStreamError } from "../../src/index.ts";
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
 */
export function withIdleTimeout(source: ReadableStream<Uint8Array>, options: IdleTimeoutOptions): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const timeout = new ToolCallStreamError({
    code: "stream-failed",
    message: `The provider sent nothing for ${options.ms} ms; the stream was ended.`,
  });
  // The fetch is aborted first and the cancel is not awaited: a source stuck in a read may
  // never settle its cancel, and the client must not wait on the provider to go away.
  const stop = (reason: unknown): void => {
    options.onStop();
    reader.cancel(reason).catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // A chunk the body has ready is taken without a timer: the clock is only for a real wait,
        // and a fast provider (many chunks in a row) then costs no timer per chunk.
        const read = reader.read();
        if (await settlesSoon(read)) {
          const result = await read;
          if (result.done) controller.close();
          else controller.enqueue(result.value);
          return;
        }
        let handle: TimerHandle;
        const expired = new Promise<never>((_, reject) => {
          handle = options.timers.setTimeout(() => reject(timeout), options.ms);
        });
        try {
          const result = await Promise.race([read, expired]);
          if (result.done) controller.close();
          else controller.enqueue(result.value);
        } catch (error) {
          if (error === timeout) stop(timeout);
          throw error;
        } finally {
          options.timers.clearTimeout(handle);
        }
      },
      cancel(reason) {
        stop(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Whether a read settles within a few microtask turns (the body had the chunk ready): no I/O runs in them. */
async function settlesSoon(read: Promise<unknown>): Promise<boolean> {
  let settled = false;
  read.then(
    () => void (settled = true),
    () => void (settled = true),
  );
  for (let turn = 0; turn < 8 && !settled; turn++) await null;
  return settled;
}
