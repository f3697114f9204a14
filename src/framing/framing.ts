/**
 * The framing stage's contract: bytes in, messages out. Every framing (Server-Sent Events, the
 * AWS event stream, NDJSON, JSON arrays, and any of your own) implements {@link Framing}, so a
 * provider stage reads the messages of any framing without knowing which one cut them.
 *
 * @module
 */

/**
 * One message cut from the body by a framing stage: for Server-Sent Events, one event as
 * produced by {@link SSEDecoderStream}; for NDJSON one line, for a JSON array one element (no
 * `event`); for the AWS event stream one binary message, whose `event` is its `:event-type`
 * (`:exception-type` for an exception message, `:error-code` for an error message) and whose
 * `headers` hold every header. `data` is the payload as text; `event` names it when the wire does.
 *
 * `truncated` is set only on a final message that the body ended without its terminator (some
 * gateways end an SSE body without the last blank line): the provider stage delivers it when its
 * payload is complete and reports it as a truncated event otherwise.
 *
 * @example
 * ```ts
 * const message: FramedMessage = { event: "message_start", data: '{"type":"message_start"}' };
 * ```
 */
export interface FramedMessage {
  /** The message's name (the SSE `event:` field), or `undefined` when the wire gave none. */
  event?: string | undefined;
  /** The message's id (the SSE `id:` field), or `undefined` when the wire gave none. */
  id?: string | undefined;
  /** The payload as text (for SSE, the `data:` lines joined by `\n`; for the AWS event stream, the payload bytes as UTF-8). */
  data: string;
  /**
   * The headers of an AWS event-stream message, by name (`:message-type`, `:event-type`,
   * `:content-type`, ...); absent for the text framings. Each value as its header type gives it:
   * `boolean`, `number` (byte, short, integer), `bigint` (long), `Uint8Array` (bytes), `string`
   * (string, and a UUID as its 36-character form) or `Date` (timestamp).
   */
  headers?: Readonly<Record<string, EventStreamHeaderValue>> | undefined;
  /** The body ended before the terminator of this message. */
  truncated?: true;
  /**
   * The payload already parsed: an object an SDK yielded (`streamToolCalls` given an SDK's
   * stream). Decoders read it instead of parsing `data`, which is then empty.
   */
  value?: unknown;
  /**
   * How the decoder writes an object of `value` (a call's arguments) as JSON text: the SDK path
   * gives `JSON.stringify`'s rules for any object (`toJSON`, boxed values, a cycle or a BigInt
   * refused at once). Without it, objects are written as the JSON data `JSON.parse` gives, so
   * that the byte path carries no more than it needs.
   */
  jsonText?: ((value: unknown) => string | undefined) | undefined;
}

/** The value of one AWS event-stream header (see {@link FramedMessage.headers}). */
export type EventStreamHeaderValue = boolean | number | bigint | string | Uint8Array | Date;

/**
 * One Server-Sent Event as produced by {@link SSEDecoderStream}: a {@link FramedMessage}, whose
 * `event`, `id` and `data` are the SSE fields.
 */
export type SSEMessage = FramedMessage;

/** Options every framing takes: its limit on what it holds while waiting for a message's end. */
export interface FramingOptions {
  /**
   * Longest message held while waiting for its end: for the text framings (SSE: a line or an
   * event; NDJSON, a JSON array) its length in characters (UTF-16 code units, as `String.length`
   * and eventsource-parser's `maxBufferSize` count); for the AWS event stream, a binary framing
   * with no characters, the message's total length as its prelude gives it, in bytes. Past it the
   * framing throws (its stream errors) with a `ToolCallStreamError` of code `event-too-large`.
   * @defaultValue 4194304
   */
  maxEventLength?: number | undefined;
  /**
   * The body's content type, when known (`streamToolCalls` passes the response's): a framing
   * that reads several formats ({@link DetectingFraming}) chooses by it. The others ignore it.
   */
  contentType?: string | undefined;
}

/**
 * Default for {@link FramingOptions.maxEventLength}.
 *
 * @example
 * ```ts
 * new SSEDecoderStream({ maxEventLength: DEFAULT_MAX_EVENT_LENGTH / 4 });
 * ```
 */
export const DEFAULT_MAX_EVENT_LENGTH: number = 4 * 1024 * 1024;

/**
 * The synchronous core of a framing stage: network chunks in with `feed`, each complete message
 * out through the callback it was made with, `end()` when the body ended. A limit exceeded or
 * input the framing cannot read throws a `ToolCallStreamError`, after everything complete before
 * it was delivered; a framing that threw keeps throwing. Partial input is kept as pieces joined
 * once when its message ends, never as `prefix + chunk` per feed, so the work stays linear.
 *
 * @example Driving a framing by hand (`SSEDecoder` is the SSE one)
 * ```ts
 * const messages: FramedMessage[] = [];
 * const framing: Framing = new SSEDecoder((message) => messages.push(message));
 * framing.feed(new TextEncoder().encode("data: {\"a\":"));
 * framing.feed(new TextEncoder().encode("1}\n\n"));
 * framing.end(); // messages: [{ data: '{"a":1}' }]
 * ```
 */
export interface Framing {
  /** Feeds the next network chunk. */
  feed(chunk: Uint8Array): void;
  /** The body ended: delivers a final message, or throws for bytes that make none. */
  end(): void;
}

/**
 * A framing class: what a custom protocol names as its `framing` (`SSEDecoder` is one).
 *
 * @example
 * ```ts
 * const framing: FramingClass = SSEDecoder;
 * const core = new framing((message) => console.log(message.data), { maxEventLength: 1 << 20 });
 * ```
 */
export type FramingClass = new (onMessage: (message: FramedMessage) => void, options?: FramingOptions) => Framing;

/**
 * The stage of any {@link FramingClass}: bytes in, its messages out. `SSEDecoderStream` is this
 * stage with `SSEDecoder`.
 *
 * @example
 * ```ts
 * const messages = response.body!.pipeThrough(new FramingStream(SSEDecoder, { maxEventLength: 1 << 20 }));
 * ```
 */
export class FramingStream extends TransformStream<Uint8Array, FramedMessage> {
  /** Creates the stage around a new instance of `framing`. */
  constructor(framing: FramingClass, options: FramingOptions = {}) {
    let core: Framing;
    super({
      start(controller) {
        core = new framing((message) => controller.enqueue(message), options);
      },
      transform(chunk) {
        core.feed(chunk);
      },
      flush() {
        core.end();
      },
    });
  }
}
