import type { EncodableEvent } from "./protocol-encoder.ts";

/** A builder of a non-streaming answer: it takes events until it has its answer or can only fail. */
export interface AnswerBuilder<R> {
  /** Takes one event. */
  add(event: EncodableEvent): void;
  /** True once more events change nothing: the answer is known, or can only be an error. */
  readonly settled: boolean;
  /** The answer; called once, after the input ended or the builder settled. */
  result(): R;
}

/**
 * What the readers of a whole answer take: the events of `streamToolCalls`, `ToolRunnerStream` or
 * `runToolLoop` (or the arrays of `streamToolCallBatches`), as a `ReadableStream`, an async
 * iterable or an iterable (an array of recorded events).
 */
export type AnswerEvents =
  | ReadableStream<EncodableEvent | readonly EncodableEvent[]>
  | AsyncIterable<EncodableEvent | readonly EncodableEvent[]>
  | Iterable<EncodableEvent | readonly EncodableEvent[]>;

/** One read of the input, and how the rest is given up (a stream cancelled, an iterator returned). */
interface AnswerInput {
  next(): Promise<{ done?: boolean | undefined; value?: unknown }> | { done?: boolean | undefined; value?: unknown };
  stop(): Promise<unknown> | unknown;
  release(): void;
}

/**
 * The reading of `events`, else a `TypeError` naming `reader` and what it takes: an SDK's stream
 * or a `Response` is no stream of events (`streamToolCalls` turns them into one).
 */
function answerInput(events: AnswerEvents, reader: string): AnswerInput {
  const input = events as Partial<ReadableStream & AsyncIterable<unknown> & Iterable<unknown>> | null;
  if (typeof input === "object" && input !== null) {
    if (typeof input.getReader === "function") {
      const stream = input.getReader();
      const stop = "The answer is known; the rest of the response is not needed.";
      return { next: () => stream.read(), stop: () => stream.cancel(stop), release: () => stream.releaseLock() };
    }
    const iterator =
      Symbol.asyncIterator in input
        ? input[Symbol.asyncIterator]!()
        : Symbol.iterator in input
          ? input[Symbol.iterator]!()
          : undefined;
    if (iterator) return { next: () => iterator.next(), stop: () => iterator.return?.(), release: () => {} };
  }
  throw notEvents(reader);
}

/** The `TypeError` of an input that is not the library's events. */
const notEvents = (reader: string): TypeError =>
  new TypeError(
    `${reader} reads the events of streamToolCalls (a stream, an async iterable or an iterable of them); pass a Response or an SDK's stream through streamToolCalls(input, { provider }) first.`,
  );

/**
 * Reads `events` (one event or a ready batch at a time) into `builder` until it settles or the
 * input ends; once the answer can only be an error it gives up the rest of `events` (a stream
 * cancelled, an iterator returned) without reading it. Throws a `TypeError` naming `reader` for an
 * input, or an item of it, that is not the library's events (an SDK's chunk has no `type`).
 */
export async function readToAnswer<R>(events: AnswerEvents, builder: AnswerBuilder<R>, reader: string): Promise<R> {
  const input = answerInput(events, reader);
  try {
    for (;;) {
      const { done, value } = await input.next();
      if (done) return builder.result();
      const batch = Array.isArray(value);
      for (let i = 0, n = batch ? value.length : 1; i < n; i++) {
        const event = (batch ? value[i] : value) as EncodableEvent | null;
        if (typeof event?.type !== "string") {
          await input.stop();
          throw notEvents(reader);
        }
        builder.add(event);
      }
      if (builder.settled) {
        await input.stop();
        return builder.result();
      }
    }
  } finally {
    input.release();
  }
}

/** Counts the characters of text a non-streaming answer holds, against its limit. */
export class TextBudget {
  readonly #max: number;
  #size = 0;

  /** `max` characters (UTF-16 code units). */
  constructor(max: number) {
    this.#max = max;
  }

  /** Adds the text an event brings; false once the total is past the limit. */
  take(event: EncodableEvent): boolean {
    if (event.type === "text-delta" || event.type === "reasoning-delta") this.#size += event.text.length;
    else if (event.type === "tool-call-delta") this.#size += event.argumentsDelta.length;
    return this.#size <= this.#max;
  }

  /** The error of an answer past the limit. */
  get error(): { code: string; message: string } {
    return { code: "text-too-large", message: `The response's text exceeded the limit of ${this.#max} characters.` };
  }
}
