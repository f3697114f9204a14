import { settlesSoon } from "../shared/settles-soon.ts";

/** Options of {@link readyBatches}. */
export interface ReadyBatchesOptions {
  /**
   * Most items in one batch, so that a source that is always ready (a generator, a replay) still
   * yields batches of bounded size and the consumer's backpressure still reaches it.
   * @defaultValue 1024
   */
  maxItems?: number | undefined;
}

/**
 * The items of `source` in batches of every item that is ready, never waiting for more: a batch
 * starts with the next item (however long that takes) and takes every item after it that the
 * source can give without waiting, then is passed on at once. Where items become bytes, a batch
 * becomes one string, one `TextEncoder` call and one chunk of a response body instead of one per
 * item, and no item is held back: an item the source has ready is passed on as soon as the reader
 * asks, so the latency stays the source's.
 *
 * "Ready" is "settled within a few microtask turns of asking", before any I/O or timer could run:
 * a read that the source answers from its queue, or from a `pull` that enqueues without waiting. `streamToolCalls` enqueues every event of one
 * network chunk in one pull, so a batch is the events of one chunk of the provider's body.
 *
 * Nothing is read before the consumer asks (`highWaterMark` 0). Cancelling the batches cancels
 * `source`; an error of `source` errors the batches after the items read before it were passed on.
 *
 * @example
 * ```ts
 * const encoder = new ToolCallEventEncoderStream();
 * const body = readyBatches(streamToolCalls(upstream)).pipeThrough(encoder); // one chunk per batch
 * ```
 */
export function readyBatches<T>(source: ReadableStream<T>, options: ReadyBatchesOptions = {}): ReadableStream<T[]> {
  const maxItems = options.maxItems ?? 1024;
  if (!Number.isSafeInteger(maxItems) || maxItems < 1) throw new RangeError("maxItems must be a positive integer.");
  const reader = source.getReader();
  /** A read started for the last batch that was not settled when it ended: the next batch's first item. */
  let pending: Promise<ReadableStreamReadResult<T>> | undefined;
  return new ReadableStream<T[]>(
    {
      async pull(controller) {
        const first = await (pending ?? reader.read());
        pending = undefined;
        if (first.done) return controller.close();
        const batch = [first.value];
        while (batch.length < maxItems) {
          const read = reader.read();
          // Not ready, the end, or a failure: the items before it go first, the next pull takes it.
          const next = (await settlesSoon(read)) ? await read.catch(() => undefined) : undefined;
          if (next === undefined || next.done) {
            pending = read;
            break;
          }
          batch.push(next.value);
        }
        controller.enqueue(batch);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
