import { framingOptions } from "./framing-options.ts";
import { ToolCallStreamError } from "../shared/errors.ts";
import { ownText } from "../shared/kept-text.ts";
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
 * stays whole, a BOM is dropped) and framed as the WHATWG HTML spec's event stream parsing says:
 * CR, LF and CRLF line ends (a CRLF split across chunks is one), comments, `data:` with or without
 * the one space, multi-line data joined by LF, `event:` and `id:` (one holding NULL ignored),
 * `retry:` and unknown fields ignored, an event dispatched at a blank line when it has data. Each
 * message carries the `event` and `id` fields of its own event (none carried over from the last).
 *
 * Three deliberate departures from the spec. The spec drops an event the body ends without its
 * blank line, but real gateways end that way: such a final event is delivered with
 * `truncated: true`, and the provider stage uses it only when its payload is complete. And a body
 * whose first character other than white space is `{` or `[` is JSON (an SDK's
 * `toReadableStream()` NDJSON, a JSON array), whose lines the spec would skip as unknown fields,
 * ending with nothing read: it throws a {@link ToolCallStreamError} of code `unknown-provider`
 * naming the framing that reads it (`framing: NdjsonDecoder` or `JsonArrayDecoder`). And an
 * `error:` field (llama.cpp's server reports a failure so, then sends `data: [DONE]`) is the data of
 * an `event: error` rather than an unknown field.
 *
 * @example
 * ```ts
 * const events = response.body!.pipeThrough(new SSEDecoderStream());
 * for await (const { event, data } of events) console.log(event, data);
 * ```
 */
export class SSEDecoderStream extends FramingStream {
  /** Creates the stage; an option it does not know is a `TypeError`. */
  constructor(options: SSEDecoderStreamOptions = {}) {
    super(SSEDecoder, framingOptions(options));
  }
}

/**
 * The synchronous core of {@link SSEDecoderStream}, the SSE {@link Framing}: bytes in with `feed`,
 * messages out through `onMessage`, `end()` when the body ended. Throws a {@link ToolCallStreamError} of code
 * `event-too-large` past the limit, and of code `unknown-provider` for a body that is JSON.
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
  readonly #onMessage: (message: SSEMessage) => void;
  readonly #limit: number;
  /** The start of a line whose end has not come yet. */
  #line = "";
  /** The event's `data:` lines joined by LF; `undefined` before its first. */
  #data: string | undefined;
  #event: string | undefined;
  #id: string | undefined;
  /** The text so far ends with CR: an LF that begins the next one makes it a CRLF (one line end). */
  #endsWithCR = false;
  #atEnd = false;
  /** A character other than white space came: the body's first tells whether it is JSON. */
  #begun = false;
  #failure: ToolCallStreamError | undefined;

  /** Creates a decoder that reports each message to `onMessage`; an option it does not know (another stage's) is a `TypeError`. */
  constructor(onMessage: (message: SSEMessage) => void, options: SSEDecoderStreamOptions = {}) {
    this.#onMessage = onMessage;
    this.#limit = framingOptions(options).maxEventLength ?? DEFAULT_MAX_EVENT_LENGTH;
  }

  /** Feeds the next network chunk. */
  feed(chunk: Uint8Array): void {
    this.#feedText(this.#decoder.decode(chunk, { stream: true }));
  }

  /** The body ended: a final event without its blank line is delivered, marked `truncated`. */
  end(): void {
    this.#feedText(this.#decoder.decode());
    this.#atEnd = true;
    // The line and the event the body left open end here (an LF after a final CR completes its CRLF).
    this.#feedText("\n\n");
  }

  #feedText(text: string): void {
    if (this.#failure) throw this.#failure;
    if (!text) return;
    if (!this.#begun) this.#begin(text);
    const event = this.#event;
    const id = this.#id;
    let start = this.#endsWithCR && text.charCodeAt(0) === 0x0a ? 1 : 0;
    this.#endsWithCR = text.charCodeAt(text.length - 1) === 0x0d;
    // The next LF, CR and colon at or after `start` (-1: none left), each searched again only once
    // passed: one scan of the text for each, whatever its lines.
    let lf = -2;
    let cr = -2;
    let colon = -2;
    for (;;) {
      // An LF at `start` ends a line there (a CRLF's LF is passed below, or at the text's start):
      // every event's blank line in most streams, found without a search.
      const atLF = text.charCodeAt(start) === 0x0a;
      if (!atLF) {
        if (lf !== -1 && lf < start) lf = text.indexOf("\n", start);
        if (cr !== -1 && cr < start) cr = text.indexOf("\r", start);
      }
      const end = atLF ? start : cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      if (end === -1) break;
      if (!this.#line) {
        // A blank line has no colon to find (the next line's would be searched for it).
        if (start !== end && colon !== -1 && colon < start) colon = text.indexOf(":", start);
        this.#field(text, start, end, colon);
      } else {
        const line = this.#line + text.slice(start, end);
        this.#line = "";
        this.#field(line, 0, line.length, line.indexOf(":"));
      }
      start = end === cr && lf === cr + 1 ? lf + 1 : end + 1;
    }
    // Kept past this chunk as a string of its own (empty when the chunk ended a line).
    this.#line += ownText(text.slice(start));
    // So are an `event:` and an `id:` of an event still open that this text set (one equal to the
    // last text's keeps that copy): copied once per text that sets them, never again per read.
    this.#event = this.#event === event ? event : this.#event && ownText(this.#event);
    this.#id = this.#id === id ? id : this.#id && ownText(this.#id);
    // What is held across chunks (an open line, the data of an open event) stays within the limit.
    if (this.#line.length + (this.#data?.length ?? 0) > this.#limit) throw (this.#failure = tooLarge(this.#limit));
  }

  /**
   * The body's first character that is not white space: `{` or `[` is JSON (an SDK's
   * `toReadableStream()` NDJSON, a JSON array, an error or a response that is no stream), which
   * SSE would skip line by line as unknown fields, ending with nothing read: an error naming the
   * framing that reads it, and first the likelier causes in a bare chain, which never sees the
   * status: a provider's error response (a wrong key's 401, an unknown model's 404), or a request
   * sent without `stream: true` (a whole response). Kept short: every provider's bundle holds it.
   */
  #begin(text: string): void {
    const first = text.trimStart()[0];
    this.#begun = first !== undefined;
    if (first === "{" || first === "[")
      throw (this.#failure = new ToolCallStreamError({
        code: "unknown-provider",
        message: `An error response, no \`stream: true\`, or JSON that needs \`framing: ${first === "[" ? "JsonArrayDecoder" : "NdjsonDecoder"}\` (from tool-call-stream/core).`,
      }));
  }

  /**
   * The line `text[start, end)`, `colon` the first colon at or after `start`: a field, a comment
   * (`:` first), or a blank line, which dispatches the event.
   */
  #field(text: string, start: number, end: number, colon: number): void {
    if (start === end) return this.#dispatch();
    if (colon === start) return;
    if (colon === -1 || colon > end) colon = end;
    const name = text.slice(start, colon);
    const value = colon === end ? "" : text.slice(colon + (text.charCodeAt(colon + 1) === 0x20 ? 2 : 1), end);
    // llama.cpp's server sends a failure as an `error:` field, then `data: [DONE]`: skipped as the
    // spec says, the failure would read as a success.
    if (name === "data" || (name === "error" && (this.#event = name))) {
      // A data line the event's blank line does not follow in this text (LF LF, CR CR, CRLF CR) may
      // be kept past it: a string of its own then, copied once, so that a read costs what it adds
      // and never the open event's data again. (A line that came over several reads is `text`
      // itself here, a string of its own: the check sees no blank line after it and copies none.)
      const line = text[end + 1] === text[end] || text.startsWith("\r\n\r", end) ? value : ownText(value);
      this.#data = this.#data === undefined ? line : `${this.#data}\n${line}`;
    } else if (name === "event") this.#event = value || undefined;
    else if (name === "id" && !value.includes("\0")) this.#id = value;
    // `retry:` (a reconnection time, the client's) and unknown fields are ignored, as the spec says.
  }

  /** A blank line: the event goes out if it has data; its fields are reset either way. */
  #dispatch(): void {
    const data = this.#data;
    if (data !== undefined) {
      if (data.length > this.#limit) throw (this.#failure = tooLarge(this.#limit));
      const out: SSEMessage = { data };
      if (this.#event !== undefined) out.event = this.#event;
      if (this.#id !== undefined) out.id = this.#id;
      if (this.#atEnd) out.truncated = true;
      this.#onMessage(out);
    }
    this.#data = this.#event = this.#id = undefined;
  }
}

function tooLarge(limit: number): ToolCallStreamError {
  return new ToolCallStreamError({
    code: "event-too-large",
    message: `An SSE event exceeded the limit of ${limit} characters.`,
  });
}
