import { framingOptions } from "./framing-options.ts";
import { ToolCallStreamError } from "../shared/errors.ts";
import { crc32 } from "./crc32.ts";
import {
  DEFAULT_MAX_EVENT_LENGTH,
  FramingStream,
  type FramedMessage,
  type Framing,
  type FramingOptions,
} from "./framing.ts";
import { readEventStreamHeaders } from "./aws-event-stream-headers.ts";

/** Total length, headers length and the prelude's CRC, 4 bytes each. */
const PRELUDE = 12;
/** The prelude and the message CRC: the smallest message, with no header and no payload. */
const SMALLEST = PRELUDE + 4;

/**
 * Bytes of an AWS event stream (`application/vnd.amazon.eventstream`, as Amazon Bedrock streams
 * ConverseStream and InvokeModelWithResponseStream) to framed messages.
 *
 * Each message is its total length, its headers' length, a CRC-32 of those 8 bytes, the headers,
 * the payload, and a CRC-32 of everything before it (big-endian). Both checksums are checked.
 * A message becomes a {@link FramedMessage} whose `data` is the payload as UTF-8, `headers` every
 * header, and `event` the `:event-type` header (for a `:message-type` of `exception`, the
 * `:exception-type`; for `error`, the `:error-code`): the provider stage tells them apart by
 * `headers[":message-type"]` and reports exceptions and errors as provider errors.
 *
 * A checksum that does not match, a length that is impossible or a header that runs past its
 * section errors the stream with a `ToolCallStreamError` of code `malformed-frame`; a message
 * longer than `maxEventLength` bytes with `event-too-large`. Every message complete before the
 * fault has been delivered. A body that ends inside a message gives it as `{ data: "", truncated:
 * true }` (as the SSE framing gives a final event cut short), which the provider stage reports as a
 * `truncated-event`: an answer whose stop came before (its usage cut off) still finishes.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new AwsEventStreamDecoderStream())
 *   .pipeThrough(new BedrockDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class AwsEventStreamDecoderStream extends FramingStream {
  /** Creates the stage; an option it does not know is a `TypeError`. */
  constructor(options: FramingOptions = {}) {
    super(AwsEventStreamDecoder, framingOptions(options));
  }
}

/**
 * The synchronous core of {@link AwsEventStreamDecoderStream}, the AWS event-stream
 * {@link Framing}. A message that arrives whole within one network chunk is read where it lies;
 * one split across chunks is copied once into a buffer of its declared length, which the limit
 * bounds. Each byte is checksummed once.
 *
 * @example
 * ```ts
 * const messages: FramedMessage[] = [];
 * const decoder = new AwsEventStreamDecoder((message) => messages.push(message));
 * decoder.feed(bytes); // messages: [{ event: "messageStart", data: '{"role":"assistant"}', headers: {...} }]
 * decoder.end();
 * ```
 */
export class AwsEventStreamDecoder implements Framing {
  readonly #onMessage: (message: FramedMessage) => void;
  readonly #limit: number;
  readonly #text = new TextDecoder();
  /** A message split across chunks: its declared length once the prelude is read, and its bytes so far. */
  #partial: Uint8Array = new Uint8Array(PRELUDE);
  #filled = 0;
  #failure: ToolCallStreamError | undefined;

  /** Creates a decoder that reports each message to `onMessage`; an option it does not know (another stage's) is a `TypeError`. */
  constructor(onMessage: (message: FramedMessage) => void, options: FramingOptions = {}) {
    this.#onMessage = onMessage;
    this.#limit = framingOptions(options).maxEventLength ?? DEFAULT_MAX_EVENT_LENGTH;
  }

  /** Feeds the next network chunk. */
  feed(chunk: Uint8Array): void {
    if (this.#failure) throw this.#failure;
    try {
      this.#feed(chunk);
    } catch (error) {
      // A framing that threw keeps throwing: the bytes after a bad frame cannot be trusted.
      this.#failure = error as ToolCallStreamError;
      throw error;
    }
  }

  /**
   * The body ended: a message cut short is delivered as the SSE framing delivers a final event cut
   * short, marked `truncated` (with no data: none of it can be checked), for the provider stage to
   * report as a `truncated-event` while a finish before it stands.
   */
  end(): void {
    if (this.#failure) throw this.#failure;
    if (this.#filled > 0) this.#onMessage({ data: "", truncated: true });
  }

  #feed(chunk: Uint8Array): void {
    let offset = 0;
    if (this.#filled > 0) {
      offset = this.#fill(chunk, 0);
      if (offset === chunk.length) return;
    }
    // Messages that lie whole in this chunk are read in place.
    while (chunk.length - offset >= PRELUDE) {
      const total = this.#prelude(chunk, offset);
      if (chunk.length - offset < total) break;
      this.#message(chunk, offset, total);
      offset += total;
    }
    if (offset < chunk.length) {
      this.#partial = new Uint8Array(PRELUDE);
      this.#filled = 0;
      this.#fill(chunk, offset);
    }
  }

  /** Copies bytes of a message split across chunks; returns the offset in `chunk` after them. */
  #fill(chunk: Uint8Array, offset: number): number {
    if (this.#filled < PRELUDE) {
      const take = Math.min(PRELUDE - this.#filled, chunk.length - offset);
      this.#partial.set(chunk.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
      if (this.#filled < PRELUDE) return offset;
      const total = this.#prelude(this.#partial, 0);
      const whole = new Uint8Array(total);
      whole.set(this.#partial);
      this.#partial = whole;
    }
    const partial = this.#partial;
    const take = Math.min(partial.length - this.#filled, chunk.length - offset);
    partial.set(chunk.subarray(offset, offset + take), this.#filled);
    this.#filled += take;
    if (this.#filled === partial.length) {
      this.#filled = 0;
      this.#partial = new Uint8Array(PRELUDE);
      this.#message(partial, 0, partial.length);
    }
    return offset + take;
  }

  /** Checks the prelude at `offset` and returns the message's total length. */
  #prelude(bytes: Uint8Array, offset: number): number {
    const total = u32(bytes, offset);
    const headers = u32(bytes, offset + 4);
    if (crc32(bytes, offset, offset + 8) !== u32(bytes, offset + 8))
      throw malformed("the prelude's checksum does not match");
    if (total < SMALLEST || headers > total - SMALLEST)
      throw malformed(`a message declares an impossible length (${total} bytes, ${headers} of headers)`);
    if (total > this.#limit) {
      throw new ToolCallStreamError({
        code: "event-too-large",
        message: `An event-stream message of ${total} bytes exceeded the limit of ${this.#limit} bytes.`,
      });
    }
    return total;
  }

  /** Checks and delivers the whole message `bytes[offset, offset + total)`. */
  #message(bytes: Uint8Array, offset: number, total: number): void {
    const end = offset + total - 4;
    if (crc32(bytes, offset, end) !== u32(bytes, end)) throw malformed("a message's checksum does not match");
    const payload = offset + PRELUDE + u32(bytes, offset + 4);
    const headers = readEventStreamHeaders(bytes, offset + PRELUDE, payload, this.#text);
    if (!headers) throw malformed("a header runs past the headers section");
    const type = headers[":message-type"];
    const name =
      type === "exception"
        ? headers[":exception-type"]
        : type === "error"
          ? headers[":error-code"]
          : headers[":event-type"];
    const message: FramedMessage = { data: this.#text.decode(bytes.subarray(payload, end)), headers };
    if (typeof name === "string") message.event = name;
    this.#onMessage(message);
  }
}

/** The big-endian unsigned 32-bit integer at `offset`. */
function u32(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0;
}

function malformed(what: string): ToolCallStreamError {
  return new ToolCallStreamError({ code: "malformed-frame", message: `Cannot read the event stream: ${what}.` });
}
