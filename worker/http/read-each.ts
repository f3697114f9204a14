import type { BatchReader } from "../../src/index.ts";
import { takeMappedSource } from "./batch-map.ts";

/**
 * Reads each chunk of `stream` (a stream of {@link mapChunks}'s steps, or any other) into `take`,
 * until `take` returns false (then `stream` is cancelled with `reason`) or it ends. What a
 * non-streaming answer does with its events, without a read of a stream per event: the steps'
 * source is read directly (the chain's events with no stream, `readToolCalls`, which hands out the
 * events of a network chunk from an array, running the chain only when it is empty: events are
 * still made on demand, so a limit `take` checks stops the provider at the event past it; a stream
 * through its own async iterator) and the steps run on
 * each chunk here, as the stream made by `mapChunks` would run them on its reads. A read that fails
 * goes through the steps' `fail` as there; a step that throws cancels the source and throws.
 *
 * @example
 * ```ts
 * const builder = new OpenAIChatCompletionBuilder({ model });
 * await readEach(events, (batch) => {
 *   builder.add(batch);
 *   return !builder.failed;
 * }, "The answer is an error.");
 * ```
 */
export async function readEach<O>(
  stream: ReadableStream<O>,
  take: (chunk: O) => boolean,
  reason: string,
): Promise<void> {
  const step = takeMappedSource(stream);
  const { source } = step;
  const iterator: AsyncIterator<unknown> =
    source instanceof ReadableStream ? source[Symbol.asyncIterator]() : readerIterator(source);
  /** The source may have more: leaving early cancels it. */
  let open = true;
  const stop = async (why: unknown): Promise<void> => {
    open = false;
    step.cancelled?.();
    await iterator.return?.(why);
  };
  try {
    for (;;) {
      let result: IteratorResult<unknown>;
      try {
        result = await iterator.next();
      } catch (error) {
        open = false;
        if (!step.fail) throw error;
        for (const chunk of [...step.fail(error), ...step.end()]) if (!take(chunk)) break;
        return;
      }
      if (result.done) {
        open = false;
        for (const chunk of step.end()) if (!take(chunk)) break;
        return;
      }
      const value = step.map(result.value);
      if (value !== undefined && !take(value)) return await stop(reason);
    }
  } catch (error) {
    if (open) await stop(error).catch(() => undefined);
    throw error;
  }
}

/** A reader (the chain's arrays read with no stream) as the iterator {@link readEach} reads. */
function readerIterator(reader: BatchReader<unknown>): AsyncIterator<unknown> {
  return {
    next: () => reader.read() as Promise<IteratorResult<unknown>>,
    return: async (why?: unknown) => {
      await reader.cancel(why);
      return { done: true, value: undefined };
    },
  };
}
