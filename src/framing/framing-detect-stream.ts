import { AwsEventStreamDecoder } from "./aws-event-stream-decoder-stream.ts";
import {
  DEFAULT_MAX_EVENT_LENGTH,
  FramingStream,
  type FramedMessage,
  type Framing,
  type FramingClass,
  type FramingOptions,
} from "./framing.ts";
import { JsonArrayDecoder } from "./json-array-decoder-stream.ts";
import { NdjsonDecoder } from "./ndjson-decoder-stream.ts";
import { SSEDecoder } from "./sse-decoder-stream.ts";

/**
 * The framing of a body, from its content type and its first byte that is not white space:
 *
 * - `application/vnd.amazon.eventstream`, or a first byte that is a control character (an event
 *   stream's first byte is the high byte of a message length, 0 for any message under 16 MiB):
 *   the AWS event stream;
 * - `[`: a JSON array (Gemini without `alt=sse`);
 * - `{`: NDJSON (Ollama), or, when the content type is `application/json`, the JSON array framing,
 *   which reads a bare object (or several) as one message each;
 * - anything else: Server-Sent Events.
 *
 * The bytes decide between the text framings rather than the content type alone, so a gateway
 * that labels an SSE body `application/json` still has it read as SSE.
 *
 * @example
 * ```ts
 * detectFraming("application/x-ndjson", "{".charCodeAt(0)); // NdjsonDecoder
 * detectFraming(undefined, "d".charCodeAt(0)); // SSEDecoder ("data: ...")
 * ```
 */
export function detectFraming(contentType: string | undefined, firstByte: number): FramingClass {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  if (type === "application/vnd.amazon.eventstream" || (firstByte < 0x20 && !isSpace(firstByte)))
    return AwsEventStreamDecoder;
  if (firstByte === 0x5b) return JsonArrayDecoder;
  if (firstByte === 0x7b) return type === "application/json" ? JsonArrayDecoder : NdjsonDecoder;
  return SSEDecoder;
}

/**
 * The framing stage when the framing is not known in advance: it waits for the first byte that is
 * not white space, picks the framing by {@link detectFraming} (with `contentType` when given),
 * and reads the whole body with it.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new FramingDetectStream({ contentType: response.headers.get("content-type") ?? undefined }))
 *   .pipeThrough(new ProviderDetectStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class FramingDetectStream extends FramingStream {
  /** Creates the stage. */
  constructor(options: FramingOptions = {}) {
    super(DetectingFraming, options);
  }
}

/**
 * The synchronous core of {@link FramingDetectStream}: a {@link Framing} for any of the built-in
 * framings, told from the content type and the first bytes. White space before the first byte
 * that tells is held (up to `maxEventLength`) and given to the framing chosen.
 *
 * @example
 * ```ts
 * const messages: FramedMessage[] = [];
 * const framing = new DetectingFraming((message) => messages.push(message), { contentType: "application/x-ndjson" });
 * framing.feed(new TextEncoder().encode('{"done":true}\n'));
 * framing.end(); // messages: [{ data: '{"done":true}' }]
 * ```
 */
export class DetectingFraming implements Framing {
  readonly #onMessage: (message: FramedMessage) => void;
  readonly #options: FramingOptions;
  /** White space seen before the first byte that tells. */
  readonly #held: Uint8Array[] = [];
  #heldBytes = 0;
  #framing: Framing | undefined;
  /** The framing chosen, once told. */
  chosen: FramingClass | undefined;

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
    } else this.#choose(detectFraming(this.#options.contentType, chunk[at]!));
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

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}
