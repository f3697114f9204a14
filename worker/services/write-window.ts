import type { TimerHandle, Timers } from "../runtime.ts";

/**
 * Arrays of events passed on at most once per write window: what a streamed answer writes per
 * chunk of its body.
 *
 * @module
 */

/** Options of {@link windowedBatches}. */
export interface WriteWindowOptions {
  /** The clock and the timer that closes a window. */
  timers: Timers;
  /** The least time between two arrays passed on, in milliseconds (`WRITE_WINDOW_MS`); 0 passes each as it comes. */
  ms: number;
}

/** Most events in one array before it is passed on, window closed or not. */
const MAX_EVENTS = 4096;
const CLOSED = Symbol("window closed");

/**
 * `batches` passed on at most once per `ms`: an array that comes more than `ms` after the last one
 * passed on goes on at once (the first always, and every one of a slow model); arrays that come
 * sooner are joined, in order, and go on when the window closes. Token by token a model sends an
 * event per network chunk, and each chunk of a response body costs the runtime a read, a write
 * and a pass through every stage after this one: a window makes that one per window. An event
 * waits at most `ms`. One timer per window that holds events, none per array; backpressure and
 * cancellation pass through, and an error of `batches` comes after what was read before it.
 *
 * @example
 * ```ts
 * const body = windowedBatches(streamToolCallBatches(response, { provider }), { timers, ms: 25 })
 *   .pipeThrough(new ToolCallEventEncoderStream({ joinDeltas: true }));
 * ```
 */
export function windowedBatches<E>(
  batches: ReadableStream<readonly E[]>,
  options: WriteWindowOptions,
): ReadableStream<E[]> {
  const { timers, ms } = options;
  const reader = batches.getReader();
  /** A read not settled when the last window closed: the next pull takes it. */
  let pending: Promise<ReadableStreamReadResult<readonly E[]>> | undefined;
  let last = Number.NEGATIVE_INFINITY;
  let failure: { error: unknown } | undefined;
  let timer: TimerHandle | undefined;
  const clear = (): void => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
  };
  return new ReadableStream<E[]>(
    {
      async pull(controller) {
        if (failure) throw failure.error;
        let out: E[] | undefined;
        let closed: Promise<typeof CLOSED> | undefined;
        try {
          for (;;) {
            const read = pending ?? reader.read();
            pending = undefined;
            let result: ReadableStreamReadResult<readonly E[]> | typeof CLOSED;
            if (out === undefined) result = await read;
            else {
              const wait = last + ms - timers.now();
              closed ??= new Promise((resolve) => void (timer = timers.setTimeout(() => resolve(CLOSED), wait)));
              result = await Promise.race([read, closed]);
            }
            if (result === CLOSED) {
              timer = undefined;
              // Kept for the next pull; a rejection then is that pull's (or nobody's, after a cancel).
              pending = read;
              read.catch(() => {});
              break;
            }
            if (result.done) {
              clear();
              if (out !== undefined) controller.enqueue(out);
              controller.close();
              return;
            }
            if (out === undefined) out = result.value.slice();
            else for (const event of result.value) out.push(event);
            if (timers.now() - last >= ms || out.length >= MAX_EVENTS) {
              clear();
              break;
            }
          }
        } catch (error) {
          clear();
          if (out === undefined) throw error;
          failure = { error };
        }
        last = timers.now();
        controller.enqueue(out);
      },
      cancel(reason) {
        clear();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
