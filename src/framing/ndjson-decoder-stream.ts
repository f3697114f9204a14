import { framingOptions } from "./framing-options.ts";
import { ToolCallStreamError } from "../shared/errors.ts";
import { ownText } from "../shared/kept-text.ts";
import {
  DEFAULT_MAX_EVENT_LENGTH,
  FramingStream,
  type FramedMessage,
  type Framing,
  type FramingOptions,
} from "./framing.ts";

/**
 * Bytes of newline-delimited JSON (`application/x-ndjson`, as Ollama's native `/api/chat`
 * streams) to framed messages: one message per line, its `data` the line without its line end
 * (LF or CRLF). Blank lines are skipped. A final line the body ends without a newline is
 * delivered with `truncated: true`: the provider stage uses it when it is complete JSON and
 * reports it as a `truncated-event` otherwise. A line longer than `maxEventLength` characters
 * errors the stream with `event-too-large`.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new NdjsonDecoderStream())
 *   .pipeThrough(new OllamaDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class NdjsonDecoderStream extends FramingStream {
  /** Creates the stage; an option it does not know is a `TypeError`. */
  constructor(options: FramingOptions = {}) {
    super(NdjsonDecoder, framingOptions(options));
  }
}

/**
 * The synchronous core of {@link NdjsonDecoderStream}, the NDJSON {@link Framing}. UTF-8 is
 * decoded by the platform's streaming `TextDecoder`; a line split across chunks is kept as pieces
 * and joined once when its newline arrives.
 *
 * @example
 * ```ts
 * const messages: FramedMessage[] = [];
 * const decoder = new NdjsonDecoder((message) => messages.push(message));
 * decoder.feed(new TextEncoder().encode('{"done":false}\n{"done":'));
 * decoder.feed(new TextEncoder().encode("true}\n"));
 * decoder.end(); // messages: [{ data: '{"done":false}' }, { data: '{"done":true}' }]
 * ```
 */
export class NdjsonDecoder implements Framing {
  readonly #onMessage: (message: FramedMessage) => void;
  readonly #limit: number;
  readonly #decoder = new TextDecoder();
  /** The line so far, not ended yet. */
  #pieces: string[] = [];
  #size = 0;
  #failure: ToolCallStreamError | undefined;

  /** Creates a decoder that reports each line to `onMessage`; an option it does not know (another stage's) is a `TypeError`. */
  constructor(onMessage: (message: FramedMessage) => void, options: FramingOptions = {}) {
    this.#onMessage = onMessage;
    this.#limit = framingOptions(options).maxEventLength ?? DEFAULT_MAX_EVENT_LENGTH;
  }

  /** Feeds the next network chunk. */
  feed(chunk: Uint8Array): void {
    this.#take(this.#decoder.decode(chunk, { stream: true }));
  }

  /** The body ended: a final line without its newline is delivered, marked `truncated`. */
  end(): void {
    this.#take(this.#decoder.decode());
    if (this.#pieces.length > 0) this.#line(this.#joined(""), true);
  }

  #take(text: string): void {
    if (this.#failure) throw this.#failure;
    let start = 0;
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
      const line = this.#pieces.length > 0 ? this.#joined(text.slice(start, newline)) : text.slice(start, newline);
      this.#check(line.length);
      this.#line(line, false);
      start = newline + 1;
    }
    if (start < text.length) {
      const rest = ownText(text.slice(start));
      this.#check(this.#size + rest.length);
      this.#pieces.push(rest);
      this.#size += rest.length;
    }
  }

  #joined(last: string): string {
    this.#pieces.push(last);
    const line = this.#pieces.join("");
    this.#pieces = [];
    this.#size = 0;
    return line;
  }

  #check(size: number): void {
    if (size > this.#limit) {
      throw (this.#failure = new ToolCallStreamError({
        code: "event-too-large",
        message: `An NDJSON line exceeded the limit of ${this.#limit} characters.`,
      }));
    }
  }

  #line(line: string, truncated: boolean): void {
    const data = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (data.trim() === "") return;
    this.#onMessage(truncated ? { data, truncated } : { data });
  }
}
