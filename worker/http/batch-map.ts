/**
 * Synchronous steps over a stream's chunks that cost one stream in all, not one each: an answer
 * goes from the chain's arrays of events through a few steps (the provider data stripped, the
 * tool names given back, an unreadable provider told, the protocol's encoder) to the bytes the
 * client gets. As `TransformStream`s each step would be a pipe of its own (a read, a write and
 * their promises per chunk, and two streams and a pipe to set up per response); as {@link mapChunks}
 * they compose into one function over the first stream, and the last reader of the answer
 * ({@link mappedSource}, `withHeartbeat`) reads that stream through it, once per chunk.
 *
 * @module
 */
import { batchReader, type BatchReader } from "../../src/index.ts";

/** A stream made by {@link mapChunks}: the stream it reads and the steps composed over it. */
export interface MappedSource<O> {
  /** The first stream under every step, or the chain's arrays read with no stream (`readToolCallBatches`). */
  source: ReadableStream<unknown> | BatchReader<unknown>;
  /** Every step at once, over one chunk of `source`; `undefined`: nothing to pass on for it. */
  map: (chunk: unknown) => O | undefined;
  /** What the steps add when `source` ends (each already through the steps after it). */
  end: () => O[];
  /**
   * What the steps make of a failed read of `source` (each already through the steps after it),
   * after which the stream ends as when `source` does (`end`); without it, the failure errors the
   * stream. A step's own throw is never given to it.
   */
  fail?: ((error: unknown) => O[]) | undefined;
  /** Called when the stream's reader cancels it, before `source` is cancelled. */
  cancelled?: (() => void) | undefined;
  /** True once the steps pass nothing more on (an encoder that wrote its last event): `source` is cancelled and read as ended. */
  finished?: (() => boolean) | undefined;
}

/** What the first step over a stream does besides mapping its chunks (see {@link MappedSource}). */
export interface SourceHooks<O> {
  /** The chunks that stand for a failed read of the stream, which then ends. */
  fail?: (error: unknown) => readonly O[];
  /** Called when the stream's reader cancels it. */
  cancelled?: () => void;
}

/**
 * The steps of each stream of {@link mapChunks} until its reader takes them: V8's minor collections
 * keep a weak map's values (only a full collection clears an entry whose key died), so an entry
 * left here kept its answer's steps (encoders, the chain under them) through every scavenge and
 * into old space.
 */
const mapped = new WeakMap<ReadableStream<unknown>, MappedSource<unknown>>();

/** The streams of {@link readMapped} that a reader has pulled: their steps are fixed. */
const pulled = new WeakSet<ReadableStream<unknown>>();

/** What pulls and cancels a stream of {@link readMapped} whose last reader took it ({@link adoptSteps}). */
export interface StepsPump<O> {
  /** The stream's `pull`. */
  pull: (controller: ReadableStreamDefaultController<O>) => Promise<void>;
  /** The stream's `cancel`. */
  cancel: (reason: unknown) => Promise<void>;
}

/** The pumps of {@link adoptSteps}, until the stream's first pull or cancel takes its own. */
const pumps = new WeakMap<ReadableStream<unknown>, StepsPump<unknown>>();

/**
 * `stream` with `map` over each chunk (and `end`, when it ends, for a step that holds something
 * back, like an encoder's last frame); a step that returns `undefined` passes nothing on for that
 * chunk (an encoder with no bytes to write yet). The result reads like any stream; a step over it
 * composes with it instead of reading it (the source is locked only when the last one is read).
 * A step that throws errors the stream and cancels the source.
 *
 * Over a stream of steps that nothing has read yet (one that `mapChunks` or {@link sourceStep}
 * made), the result is that same stream, its steps now these: a step takes its input, as a pipe
 * locks the stream it reads, so an answer's steps cost one stream in all, not one each that
 * nobody reads (a `ReadableStream` is a native object with its controller: three of a small
 * answer's six were 2 to 3 % of its CPU in workerd). Read only the stream a step returns.
 *
 * @example
 * ```ts
 * const stripped = mapChunks(batches, (batch) => batch.map(strip));
 * const bytes = mapChunks(stripped, (batch) => encode(batch), () => encode.end());
 * ```
 */
export function mapChunks<I, O>(
  stream: ReadableStream<I>,
  map: (chunk: I) => O | undefined,
  end?: () => O | undefined,
  finished?: () => boolean,
): ReadableStream<O> {
  const inner = mapped.get(stream) as MappedSource<I> | undefined;
  const ending = (out: O[]): O[] => {
    const last = end?.();
    if (last !== undefined) out.push(last);
    return out;
  };
  const through = (chunks: readonly I[]): O[] => {
    const out: O[] = [];
    for (const chunk of chunks) {
      const value = map(chunk);
      if (value !== undefined) out.push(value);
    }
    return out;
  };
  const innerFail = inner?.fail;
  const step: MappedSource<O> = inner
    ? {
        source: inner.source,
        map: (chunk) => {
          const value = inner.map(chunk);
          return value === undefined ? undefined : map(value);
        },
        end: () => ending(through(inner.end())),
        fail: innerFail && ((error) => through(innerFail(error))),
        cancelled: inner.cancelled,
        finished: finished && inner.finished ? () => finished() || inner.finished!() : (finished ?? inner.finished),
      }
    : { source: stream, map: map as (chunk: unknown) => O | undefined, end: () => ending([]), finished };
  if (inner && !stream.locked && !pulled.has(stream)) {
    mapped.set(stream, step as MappedSource<unknown>);
    return stream as unknown as ReadableStream<O>;
  }
  const out = readMapped(step);
  mapped.set(out, step as MappedSource<unknown>);
  return out;
}

/**
 * The first step over `stream` (which no step reads yet), as {@link mapChunks} makes it, with what
 * it does when a read of `stream` fails or its reader cancels: the stream it returns is one step
 * of the steps after it, not a stream to pass through of its own.
 *
 * @example
 * ```ts
 * const events = sourceStep(chain, (batch) => batch, () => undefined, { fail: (error) => [failureEvents(error)] });
 * ```
 */
export function sourceStep<I, O>(
  stream: ReadableStream<I> | BatchReader<I>,
  map: (chunk: I) => O | undefined,
  end: () => O | undefined,
  hooks: SourceHooks<O>,
): ReadableStream<O> {
  const { fail, cancelled } = hooks;
  const ending = (out: O[]): O[] => {
    const last = end();
    if (last !== undefined) out.push(last);
    return out;
  };
  const step: MappedSource<O> = {
    source: stream,
    map: map as (chunk: unknown) => O | undefined,
    end: () => ending([]),
    fail: fail && ((error) => [...fail(error)]),
    cancelled,
  };
  const out = readMapped(step);
  mapped.set(out, step as MappedSource<unknown>);
  return out;
}

/**
 * The steps composed over `stream` and the stream they read; `stream` itself when it was not made
 * by {@link mapChunks}.
 *
 * @example
 * ```ts
 * const { source, map, end } = mappedSource(body);
 * const reader = source.getReader();
 * ```
 */
export function mappedSource<O>(stream: ReadableStream<O>): MappedSource<O> {
  return (
    (mapped.get(stream) as MappedSource<O> | undefined) ?? { source: stream, map: (chunk) => chunk as O, end: () => [] }
  );
}

/**
 * {@link mappedSource} for the reader that reads the steps' source instead of `stream` (the last
 * reader of an answer): `stream` forgets its steps, which no one else reads.
 *
 * @example
 * ```ts
 * const { source, map, end } = takeMappedSource(body);
 * ```
 */
export function takeMappedSource<O>(stream: ReadableStream<O>): MappedSource<O> {
  const step = mappedSource(stream);
  mapped.delete(stream);
  return step;
}

/**
 * True when `stream` is one of {@link mapChunks}'s or {@link sourceStep}'s that nothing has read or
 * locked: the last reader of an answer that makes a stream of its own over its steps
 * (`withHeartbeat`) may make `stream` that stream instead ({@link adoptSteps}).
 */
export function adoptable(stream: ReadableStream<unknown>): boolean {
  return mapped.has(stream) && !stream.locked;
}

/**
 * Makes `pump` the `pull` and `cancel` of `stream`, an {@link adoptable} stream whose steps its
 * last reader took ({@link takeMappedSource}) to read their source itself, and returns `stream`:
 * an answer is then one `ReadableStream` in all, not one made for its steps and never read beside
 * the one its reader makes (a stream's constructor is tens of thousands of instructions in workerd).
 *
 * @example
 * ```ts
 * const step = takeMappedSource(body);
 * return adoptSteps(body, { pull: (controller) => pullFrom(step, controller), cancel: (reason) => stop(reason) });
 * ```
 */
export function adoptSteps<O>(stream: ReadableStream<O>, pump: StepsPump<O>): ReadableStream<O> {
  pumps.set(stream, pump as StepsPump<unknown>);
  return stream;
}

/** A reader of `source`: a stream's (`batchReader`: the chain's arrays taken directly), or the reader it is. */
export function readerOf(source: ReadableStream<unknown> | BatchReader<unknown>): BatchReader<unknown> {
  return source instanceof ReadableStream ? batchReader(source) : source;
}

/**
 * The next chunk of `reader`, or, when the read fails and the steps have a `fail`, what they make
 * of the failure followed by their `end` (`failed`); the failure itself otherwise. Once the steps
 * are `finished`, the end: the source is cancelled, not read.
 */
export async function readSource<O>(
  reader: BatchReader<unknown>,
  step: MappedSource<O>,
): Promise<Awaited<ReturnType<BatchReader<unknown>["read"]>> | { failed: O[] }> {
  if (step.finished?.() === true) {
    reader.cancel("The answer ended.").catch(() => undefined);
    return { done: true, value: undefined };
  }
  if (!step.fail) return reader.read();
  try {
    return await reader.read();
  } catch (error) {
    const failed = step.fail(error);
    for (const chunk of step.end()) failed.push(chunk);
    return { failed };
  }
}

/**
 * Reads `step.source` through its steps, a chunk per pull; the source is locked at the first pull.
 * The steps are those registered for the stream then (a later `mapChunks` over it replaces them
 * until it is read), `step` until it is registered.
 */
function readMapped<O>(first: MappedSource<O>): ReadableStream<O> {
  let reader: BatchReader<unknown> | undefined;
  let step = first;
  /** The pump its last reader gave it ({@link adoptSteps}), taken at the first pull or cancel. */
  let pump: StepsPump<O> | undefined;
  const adopted = (): StepsPump<O> | undefined => {
    pump = pumps.get(out) as StepsPump<O> | undefined;
    if (pump) pumps.delete(out);
    return pump;
  };
  const out: ReadableStream<O> = new ReadableStream<O>(
    {
      pull: (controller) => (pump || (!reader && adopted()) ? pump!.pull(controller) : pullSteps(controller)),
      cancel: (reason) => {
        if (pump || (!reader && adopted())) return pump!.cancel(reason);
        if (!reader) step = (mapped.get(out) as MappedSource<O> | undefined) ?? step;
        mapped.delete(out);
        step.cancelled?.();
        return reader ? reader.cancel(reason) : step.source.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  async function pullSteps(controller: ReadableStreamDefaultController<O>): Promise<void> {
    if (!reader) {
      pulled.add(out);
      step = (mapped.get(out) as MappedSource<O> | undefined) ?? step;
      mapped.delete(out); // the steps are fixed now
      reader = readerOf(step.source);
    }
    try {
      for (;;) {
        const result = await readSource(reader, step);
        if ("failed" in result) {
          for (const chunk of result.failed) controller.enqueue(chunk);
          return controller.close();
        }
        if (result.done) break;
        const value = step.map(result.value);
        if (value !== undefined) return controller.enqueue(value);
      }
      for (const chunk of step.end()) controller.enqueue(chunk);
      controller.close();
    } catch (error) {
      reader.cancel(error).catch(() => undefined);
      throw error;
    }
  }
  return out;
}
