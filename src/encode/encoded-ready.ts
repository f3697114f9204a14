import { settlesSoon } from "../shared/settles-soon.ts";
import { joinDeltas } from "./join-deltas.ts";
import { Utf8Writer } from "./utf8-writer.ts";

/** What {@link encodedReady} needs of a `ProtocolEncoder` (its whole interface, named here so that no import loops back). */
interface Encoder<E> {
  encode(event: E, out: string[]): void;
  end(out: string[]): void;
  readonly ended?: boolean;
}

/** Most inputs in one chunk, so that a source that is always ready still meets the reader's backpressure. */
const MAX_INPUTS = 1024;

/** Why the input is cancelled once the encoder wrote its last event. */
const ENDED = "The answer ended.";

/**
 * The bytes of `input` through `encoder`, read when the reader asks (`highWaterMark` 0), one chunk
 * per read: the first input (however long it takes) and, when it is one event, every input after
 * it that is ready ({@link settlesSoon}: in the input's queue or a pipe's few microtask turns
 * behind it, never waiting for I/O or a timer), so a pipe of single events is written as the
 * Worker writes its ready batches, one `join`, one UTF-8 encoding and one chunk for all. An array
 * is a batch its writer made ready (`readyBatches`): one chunk of its own, its fragments joined
 * when `join`. A failure of the input, or a throw of the encoder (an application's callback),
 * errors the output after what came before it, and the latter cancels the input with the error.
 *
 * Once the encoder `ended`, no input is read: the output closes after that chunk, and the input is
 * cancelled (so the provider's body, or a tool loop's next step, is not read for nobody) unless its
 * writer closes it right away (`closing` settles: a pipe of a source that ended, whose `pipeTo`
 * then settles). Cancelling the output cancels the input with the reason.
 *
 * @example
 * ```ts
 * const stage = new TransformStream(undefined, { highWaterMark: 1 }, { highWaterMark: 0 });
 * const body = encodedReady(stage.readable, new OpenAIChatEncoder({ model }), false, closing);
 * ```
 */
export function encodedReady<E>(
  input: ReadableStream<E | readonly E[]>,
  encoder: Encoder<E>,
  join: boolean,
  closing: Promise<void>,
): ReadableStream<Uint8Array> {
  const reader = input.getReader();
  const bytes = new Utf8Writer();
  const out: string[] = [];
  /** A read started for the last chunk that was not ready when it was written: the next chunk's first input. */
  let pending: Promise<ReadableStreamReadResult<E | readonly E[]>> | undefined;
  /** What the encoder threw at an input after the first of a chunk: thrown at the next read. */
  let failure: { error: unknown } | undefined;
  /** Encodes one input; true once the encoder wrote its last event. */
  const encode = (value: E | readonly E[]): boolean => {
    if (!Array.isArray(value)) encoder.encode(value as E, out);
    else
      for (const event of join ? joinDeltas(value as readonly { type: string }[]) : value)
        encoder.encode(event as E, out);
    return encoder.ended === true;
  };
  /** The inputs ready after the first, encoded; true when the input ended among them. */
  const takeReady = async (): Promise<boolean> => {
    for (let inputs = 1; inputs < MAX_INPUTS; inputs++) {
      const read = reader.read();
      // Not ready, or a failure: what came before it goes first, the next chunk's read takes it.
      const next = (await settlesSoon(read)) ? await read.catch(() => undefined) : undefined;
      if (next === undefined) {
        pending = read;
        return false;
      }
      if (next.done) return true;
      const written = out.length;
      try {
        if (encode(next.value)) return false;
      } catch (error) {
        // The inputs before it go out first; the next read fails with it.
        out.length = written;
        failure = { error };
        return false;
      }
    }
    return false;
  };
  const stop = async (): Promise<void> => {
    // A pipe closes the writable a few turns after its last write (its reads and the close's steps).
    if (!(await settlesSoon(closing, 32))) await reader.cancel(ENDED);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          await encodeNext(controller);
        } catch (error) {
          // A throw of the encoder (an application's callback): the input is stopped with it too.
          reader.cancel(error).catch(() => undefined);
          throw error;
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );

  /** Writes the next chunk (or closes the output): what {@link encodedReady}'s reads do. */
  async function encodeNext(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    // An input that shows nothing (an event the protocol skips) writes no chunk: the next one is read.
    for (;;) {
      if (failure) throw failure.error;
      const first = await (pending ?? reader.read());
      pending = undefined;
      let done = first.done;
      if (!first.done && !encode(first.value) && !Array.isArray(first.value)) done = await takeReady();
      if (done) encoder.end(out);
      const sent = out.length > 0;
      if (sent) {
        controller.enqueue(bytes.encode(out.join("")));
        out.length = 0;
      }
      if (done) return controller.close();
      if (encoder.ended === true) {
        controller.close();
        return void stop().catch(() => undefined);
      }
      if (sent) return;
    }
  }
}
