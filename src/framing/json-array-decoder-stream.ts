import { framingOptions } from "./framing-options.ts";
import { ToolCallStreamError } from "../shared/errors.ts";
import { isSpace } from "../shared/json-literal.ts";
import { ownText } from "../shared/kept-text.ts";
import {
  DEFAULT_MAX_EVENT_LENGTH,
  FramingStream,
  type FramedMessage,
  type Framing,
  type FramingOptions,
} from "./framing.ts";

/** Where the scanner is, outside the element it may be in: before the array (white space, then `[` or a bare top-level object), */
const START = 0;
/** after the array's `[` (an element or `]`), */
const FIRST = 1;
/** after an element of the array (`,` or `]`), */
const NEXT = 2;
/** after a `,` (an element), */
const ELEMENT = 3;
/** or after the array's `]` (white space, or another array or object). */
const AFTER = 4;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Bytes of one JSON array written element by element (`application/json`, as Gemini's
 * `streamGenerateContent` streams without `alt=sse`, each element pretty-printed over many lines
 * with `\r\n,\r\n` between them) to framed messages: one message per element, its `data` the
 * element's text.
 *
 * Elements are found by a scanner that knows strings and escapes, in time linear in the body
 * (nothing is scanned twice). A bare top-level object (an error body, or several objects one
 * after another) is delivered as one message each. An element the body ends inside is delivered
 * with `truncated: true`, and the provider stage reports it as a `truncated-event`. An element
 * longer than `maxEventLength` characters errors the stream with `event-too-large`; anything
 * but white space and exactly one `,` between two elements (no comma, two, one before the first
 * element or after the last, anything else) errors it with `malformed-frame`, after every element
 * before the fault.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new JsonArrayDecoderStream())
 *   .pipeThrough(new GeminiDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class JsonArrayDecoderStream extends FramingStream {
  /** Creates the stage; an option it does not know is a `TypeError`. */
  constructor(options: FramingOptions = {}) {
    super(JsonArrayDecoder, framingOptions(options));
  }
}

/**
 * The synchronous core of {@link JsonArrayDecoderStream}, the JSON array {@link Framing}. An
 * element split across chunks is kept as pieces and joined once when it ends.
 *
 * @example
 * ```ts
 * const messages: FramedMessage[] = [];
 * const decoder = new JsonArrayDecoder((message) => messages.push(message));
 * decoder.feed(new TextEncoder().encode('[{"a":1}\r\n,\r\n{"b":'));
 * decoder.feed(new TextEncoder().encode("2}]"));
 * decoder.end(); // messages: [{ data: '{"a":1}' }, { data: '{"b":2}' }]
 * ```
 */
export class JsonArrayDecoder implements Framing {
  readonly #onMessage: (message: FramedMessage) => void;
  readonly #limit: number;
  readonly #decoder = new TextDecoder();
  #at = START;
  /** Nesting inside the current element; 0 when between elements. */
  #depth = 0;
  /** The current element is a string or a scalar (number, `true`, ...): it ends differently. */
  #scalar = false;
  #inString = false;
  #escaped = false;
  /** The current element's text from earlier chunks. */
  #pieces: string[] = [];
  #size = 0;
  #inElement = false;
  #failure: ToolCallStreamError | undefined;

  /** Creates a decoder that reports each element to `onMessage`; an option it does not know (another stage's) is a `TypeError`. */
  constructor(onMessage: (message: FramedMessage) => void, options: FramingOptions = {}) {
    this.#onMessage = onMessage;
    this.#limit = framingOptions(options).maxEventLength ?? DEFAULT_MAX_EVENT_LENGTH;
  }

  /** Feeds the next network chunk. */
  feed(chunk: Uint8Array): void {
    this.#scan(this.#decoder.decode(chunk, { stream: true }));
  }

  /** The body ended: an element cut short is delivered, marked `truncated`. */
  end(): void {
    this.#scan(this.#decoder.decode());
    // Even a scalar is cut short here: what would have ended it never came.
    if (this.#inElement) this.#deliver(this.#pieces.join(""), true);
  }

  #scan(text: string): void {
    if (this.#failure) throw this.#failure;
    let start = this.#inElement ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.#inElement) {
        if (this.#inString) {
          if (this.#escaped) this.#escaped = false;
          else if (c === BACKSLASH) this.#escaped = true;
          else if (c === QUOTE) {
            this.#inString = false;
            if (this.#scalar) this.#close(text, start, i + 1);
          }
        } else if (c === QUOTE) this.#inString = true;
        else if (this.#scalar) {
          if (c === COMMA || c === CLOSE_BRACKET || isSpace(c)) {
            this.#close(text, start, i);
            i--; // the character that ended the scalar is read again between elements
          }
        } else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.#depth++;
        else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --this.#depth === 0) this.#close(text, start, i + 1);
        continue;
      }
      if (isSpace(c)) continue;
      const inArray = this.#at !== START && this.#at !== AFTER;
      // Exactly one comma between elements, none before the first or after the last (RFC 8259).
      if (this.#at === NEXT) {
        if (c !== COMMA && c !== CLOSE_BRACKET) throw this.#fail("no comma between elements");
        this.#at = c === COMMA ? ELEMENT : AFTER;
        continue;
      }
      if (c === COMMA || (c === CLOSE_BRACKET && this.#at === ELEMENT))
        throw this.#fail("a comma where an element belongs");
      if (c === CLOSE_BRACKET && this.#at === FIRST) {
        this.#at = AFTER;
        continue;
      }
      if (c === OPEN_BRACKET && !inArray) {
        this.#at = FIRST;
        continue;
      }
      if (!inArray && c !== OPEN_BRACE) throw this.#fail("something other than an array or an object");
      // An element begins.
      this.#inElement = true;
      start = i;
      this.#scalar = c !== OPEN_BRACE && c !== OPEN_BRACKET;
      this.#inString = c === QUOTE;
      this.#depth = this.#scalar ? 0 : 1;
      if (this.#scalar && !this.#inString && !/[-0-9tfn]/.test(text[i]!))
        throw this.#fail("something other than an element between elements");
    }
    if (this.#inElement && start < text.length) {
      const rest = ownText(text.slice(start));
      this.#size += rest.length;
      if (this.#size > this.#limit) throw this.#tooLarge();
      this.#pieces.push(rest);
    }
  }

  /** The element ends at `end` in `text`, having begun at `start` (or in earlier chunks). */
  #close(text: string, start: number, end: number): void {
    const tail = text.slice(start, end);
    if (this.#size + tail.length > this.#limit) throw this.#tooLarge();
    this.#pieces.push(tail);
    const data = this.#pieces.join("");
    this.#pieces = [];
    this.#size = 0;
    this.#inElement = false;
    if (this.#at === FIRST || this.#at === ELEMENT) this.#at = NEXT;
    this.#deliver(data, false);
  }

  #deliver(data: string, truncated: boolean): void {
    this.#onMessage(truncated ? { data, truncated } : { data });
  }

  #tooLarge(): ToolCallStreamError {
    return (this.#failure = new ToolCallStreamError({
      code: "event-too-large",
      message: `A JSON array element exceeded the limit of ${this.#limit} characters.`,
    }));
  }

  #fail(what: string): ToolCallStreamError {
    return (this.#failure = new ToolCallStreamError({
      code: "malformed-frame",
      message: `Cannot read the JSON array: ${what}.`,
    }));
  }
}
