import {
  DEFAULT_MAX_EVENT_LENGTH,
  type FramedMessage,
  type Framing,
  type FramingClass,
  type FramingOptions,
} from "./framing.ts";
import { JsonArrayDecoder } from "./json-array-decoder-stream.ts";
import { NdjsonDecoder } from "./ndjson-decoder-stream.ts";
import { SSEDecoder } from "./sse-decoder-stream.ts";

/**
 * The text framing of a body, from its content type and its first byte that is not white space:
 * `[` a JSON array (Gemini without `alt=sse`); `{` NDJSON (Ollama, an SDK's `toReadableStream()`),
 * or with the content type `application/json` the JSON array framing, which reads a bare object
 * (or several) as one message each; anything else Server-Sent Events. No binary framing: a
 * provider whose bodies are text needs no AWS event-stream decoder in its bundle.
 *
 * @example
 * ```ts
 * detectTextFraming("application/x-ndjson", "{".charCodeAt(0)); // NdjsonDecoder
 * detectTextFraming(undefined, "d".charCodeAt(0)); // SSEDecoder ("data: ...")
 * ```
 */
export function detectTextFraming(contentType: string | undefined, firstByte: number): FramingClass {
  if (firstByte === 0x5b) return JsonArrayDecoder;
  if (firstByte !== 0x7b) return SSEDecoder;
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type === "application/json" ? JsonArrayDecoder : NdjsonDecoder;
}

/**
 * A {@link Framing} for the text framings (SSE, NDJSON, a JSON array), told by
 * {@link detectTextFraming} from the content type and the first bytes: what the protocols of
 * providers whose bodies are text read with. White space before the first byte that tells is held
 * (up to `maxEventLength`) and given to the framing chosen.
 *
 * @example
 * ```ts
 * const protocol = { name: "my-gateway", framing: TextFraming, createDecoder: (emit) => new MyDecoder(emit) };
 * ```
 */
export class TextFraming implements Framing {
  readonly #onMessage: (message: FramedMessage) => void;
  readonly #options: FramingOptions;
  /** White space seen before the first byte that tells. */
  readonly #held: Uint8Array[] = [];
  #heldBytes = 0;
  #framing: Framing | undefined;
  /** The framing chosen, once told. */
  chosen: FramingClass | undefined;

  /** Picks the framing from the content type and the first byte that is not white space. */
  protected detect(contentType: string | undefined, firstByte: number): FramingClass {
    return detectTextFraming(contentType, firstByte);
  }

  /** Creates a framing that reports each message to `onMessage`. */
  constructor(onMessage: (message: FramedMessage) => void, options: FramingOptions = {}) {
    this.#onMessage = onMessage;
    this.#options = options;
  }

  /** Feeds the next network chunk. */
  feed(chunk: Uint8Array): void {
    if (this.#framing) return this.#framing.feed(chunk);
    let at = 0;
    while (at < chunk.length && isSpace(chunk[at]!)) at++;
    if (at === chunk.length) {
      this.#heldBytes += chunk.length;
      if (this.#heldBytes > (this.#options.maxEventLength ?? DEFAULT_MAX_EVENT_LENGTH)) this.#choose(SSEDecoder);
      else this.#held.push(chunk.slice());
      if (!this.#framing) return;
    } else this.#choose(this.detect(this.#options.contentType, chunk[at]!));
    this.#framing!.feed(chunk);
  }

  /** The body ended. */
  end(): void {
    // A body of white space only: any framing reads it as nothing.
    this.#framing?.end();
  }

  #choose(framing: FramingClass): void {
    this.chosen = framing;
    this.#framing = new framing(this.#onMessage, this.#options);
    for (const chunk of this.#held.splice(0)) this.#framing.feed(chunk);
  }
}

/** Whether a byte is JSON's and SSE's white space. */
export function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}
