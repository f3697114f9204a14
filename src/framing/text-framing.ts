import { isSpace } from "../shared/json-literal.ts";
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
 * A {@link Framing} that reads a body with the framing its `detect` picks from the content type
 * and the first byte that is not white space: the base of {@link TextFraming}, of the framings of
 * the built-in text protocols (each picks among its provider's own) and of `DetectingFraming`.
 * White space before the first byte that tells is held (up to `maxEventLength`, past which the
 * framing picked is the one for a first byte that is a space, SSE's) and given to the framing chosen.
 *
 * @example
 * ```ts
 * class SseOrNdjson extends ChoosingFraming {
 *   protected detect(_type: string | undefined, firstByte: number) { return firstByte === 0x7b ? NdjsonDecoder : SSEDecoder; }
 * }
 * ```
 */
export abstract class ChoosingFraming implements Framing {
  readonly #onMessage: (message: FramedMessage) => void;
  readonly #options: FramingOptions;
  /** White space seen before the first byte that tells. */
  readonly #held: Uint8Array[] = [];
  #heldBytes = 0;
  #framing: Framing | undefined;
  /** The framing chosen, once told. */
  chosen: FramingClass | undefined;

  /** Picks the framing from the content type and the first byte that is not white space. */
  protected abstract detect(contentType: string | undefined, firstByte: number): FramingClass;

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
      const { contentType, maxEventLength = DEFAULT_MAX_EVENT_LENGTH } = this.#options;
      if (this.#heldBytes > maxEventLength) this.#choose(this.detect(contentType, 0x20));
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

/**
 * A {@link Framing} for the text framings (SSE, NDJSON, a JSON array), told by
 * {@link detectTextFraming} from the content type and the first bytes: for a body whose text
 * framing is not known in advance (a gateway of the application's own).
 *
 * @example
 * ```ts
 * const protocol = { name: "my-gateway", framing: TextFraming, createDecoder: (emit) => new MyDecoder(emit) };
 * ```
 */
export class TextFraming extends ChoosingFraming {
  /** Picks the framing by {@link detectTextFraming}. */
  protected detect(contentType: string | undefined, firstByte: number): FramingClass {
    return detectTextFraming(contentType, firstByte);
  }
}

/**
 * The framing of the protocols whose bodies are SSE, or the NDJSON of an SDK's
 * `toReadableStream()` (openai-node's and `@anthropic-ai/sdk`'s, one chunk per line): NDJSON when
 * the first byte that is not white space is `{`, else SSE. With the content type
 * `application/json`, a `{` is a whole (non-streamed) response, pretty-printed or not, which the
 * JSON array framing reads as one message (the main entry's `streamToolCalls` reads it as the
 * stream it stands for). No JSON array: none of these providers sends one.
 *
 * @example
 * ```ts
 * const protocol = { name: "my-openai-gateway", framing: SseOrNdjsonFraming, createDecoder: (emit) => new OpenAIChatDecoder(emit) };
 * ```
 */
export class SseOrNdjsonFraming extends ChoosingFraming {
  /** `{` is NDJSON (a whole response with the content type `application/json`), anything else SSE. */
  protected detect(contentType: string | undefined, firstByte: number): FramingClass {
    return firstByte === 0x7b ? detectTextFraming(contentType, firstByte) : SSEDecoder;
  }
}

/**
 * Gemini's framing: SSE (`alt=sse`), or without it the JSON array `streamGenerateContent` writes
 * element by element (`[`), or a bare object (`{`, an error body), both read by the JSON array
 * framing. No NDJSON: Gemini sends none.
 *
 * @example
 * ```ts
 * const protocol = { name: "my-gemini-gateway", framing: SseOrJsonArrayFraming, createDecoder: (emit) => new GeminiDecoder(emit) };
 * ```
 */
export class SseOrJsonArrayFraming extends ChoosingFraming {
  /** `[` or `{` is the JSON array framing, anything else SSE. */
  protected detect(_contentType: string | undefined, firstByte: number): FramingClass {
    return firstByte === 0x5b || firstByte === 0x7b ? JsonArrayDecoder : SSEDecoder;
  }
}
