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
 * Reads `events` (one event or a ready batch at a time) into `builder` until it settles or the
 * input ends; once the answer can only be an error it cancels `events` without reading the rest.
 */
export async function readToAnswer<R>(
  events: ReadableStream<EncodableEvent | readonly EncodableEvent[]>,
  builder: AnswerBuilder<R>,
): Promise<R> {
  const reader = events.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return builder.result();
      if (Array.isArray(value)) for (const event of value as readonly EncodableEvent[]) builder.add(event);
      else builder.add(value as EncodableEvent);
      if (builder.settled) {
        await reader.cancel("The answer is known; the rest of the response is not needed.");
        return builder.result();
      }
    }
  } finally {
    reader.releaseLock();
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
