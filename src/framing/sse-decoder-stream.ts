import { createParser, type EventSourceParser } from "eventsource-parser";
import { ToolCallStreamError } from "../shared/errors.ts";
import {
  DEFAULT_MAX_EVENT_LENGTH,
  FramingStream,
  type Framing,
  type FramingOptions,
  type SSEMessage,
} from "./framing.ts";

/** Options of {@link SSEDecoderStream}: the limit every framing takes. */
// An interface (not an alias) so that it stays open to declaration merging, as it was.
// deno-lint-ignore no-empty-interface
export interface SSEDecoderStreamOptions extends FramingOptions {}

/**
 * Bytes to Server-Sent Events: the first stage of the chain.
 *
 * UTF-8 is decoded by the platform's streaming `TextDecoder` (a character split across chunks
 * stays whole) and framing follows the SSE spec through eventsource-parser (CR, LF and CRLF
 * line ends, a BOM, comments, `retry:`, `data:` with or without a space).
 *
 * One deliberate departure from the spec: the spec drops an event the body ends without its
 * blank line, but real gateways end that way. Such a final event is delivered with
 * `truncated: true`, and the provider stage uses it only when its payload is complete.
 *
 * @example
 * ```ts
 * const events = response.body!.pipeThrough(new SSEDecoderStream());
 * for await (const { event, data } of events) console.log(event, data);
 * ```
 */
export class SSEDecoderStream extends FramingStream {
  /** Creates the stage. */
  constructor(options: SSEDecoderStreamOptions = {}) {
    super(SSEDecoder, options);
  }
}

/**
 * The synchronous core of {@link SSEDecoderStream}, the SSE {@link Framing}: bytes in with `feed`,
 * messages out through `onMessage`, `end()` when the body ended. Throws a {@link ToolCallStreamError} of code
 * `event-too-large` past the limit.
 *
 * @example
 * ```ts
 * const messages: SSEMessage[] = [];
 * const decoder = new SSEDecoder((message) => messages.push(message));
 * decoder.feed(new TextEncoder().encode("data: {}\n\n"));
 * decoder.end(); // messages: [{ data: "{}" }]
 * ```
 */
export class SSEDecoder implements Framing {
  readonly #decoder = new TextDecoder();
  readonly #parser: EventSourceParser;
  #atEnd = false;
  /** The text so far ends with CR: the parser holds it, since an LF may follow to make a CRLF. */
  #endsWithCR = false;
  #failure: ToolCallStreamError | undefined;

  /** Creates a decoder that reports each message to `onMessage`. */
  constructor(onMessage: (message: SSEMessage) => void, options: SSEDecoderStreamOptions = {}) {
    const limit = options.maxEventLength ?? DEFAULT_MAX_EVENT_LENGTH;
    this.#parser = createParser({
      maxBufferSize: limit,
      onEvent: (message) => {
        // The parser bounds what it buffers across chunks; an event that arrived whole in
        // one large chunk is held to the same limit.
        if (message.data.length > limit) throw (this.#failure = tooLarge(limit));
        const out: SSEMessage = { data: message.data };
        if (message.event !== undefined) out.event = message.event;
        if (message.id !== undefined) out.id = message.id;
        if (this.#atEnd) out.truncated = true;
        onMessage(out);
      },
      onError: (error) => {
        // Unknown fields and bad `retry:` values are ignored as the spec says; only the
        // buffer limit stops the stream, since the parser cannot go on after it.
        if (error.type === "max-buffer-size-exceeded") throw (this.#failure = tooLarge(limit));
      },
    });
  }

  /** Feeds the next network chunk. */
  feed(chunk: Uint8Array): void {
    this.#feedText(this.#decoder.decode(chunk, { stream: true }));
  }

  /** The body ended: a final event without its blank line is delivered, marked `truncated`. */
  end(): void {
    this.#feedText(this.#decoder.decode());
    // A CR that ended the body ended its line: the LF makes that a CRLF for the parser, so an
    // event the CR completed is not taken for one cut short.
    if (this.#endsWithCR) this.#feedText("\n");
    this.#atEnd = true;
    this.#feedText("\n\n");
  }

  #feedText(text: string): void {
    if (text === "") return;
    if (this.#failure) throw this.#failure;
    this.#endsWithCR = text.endsWith("\r");
    // A limit throws from inside the parser's callbacks; the failure is kept, so that a later
    // feed throws it again instead of going on with a parser stopped half-way.
    this.#parser.feed(text);
  }
}

function tooLarge(limit: number): ToolCallStreamError {
  return new ToolCallStreamError({
    code: "event-too-large",
    message: `An SSE event exceeded the limit of ${limit} characters.`,
  });
}
