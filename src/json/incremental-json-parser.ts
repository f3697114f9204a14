import type { JsonValue } from "../shared/json.ts";
import { MAX_MEMBER_NAME_LENGTH } from "../shared/long-member-name.ts";
import { ownValue } from "../shared/values.ts";
import {
  ESCAPES,
  isWordChar,
  LITERALS,
  Mode,
  NUMBER,
  numberFailureOffset,
  partialNumber,
  placeInSlot,
  wordModeOf,
  type Frame,
  type JsonParseFailure,
  type JsonParserListener,
} from "./json-grammar.ts";
export type { JsonParseFailure, JsonParserListener } from "./json-grammar.ts";

/** Options of {@link IncrementalJsonParser}. */
export interface IncrementalJsonParserOptions {
  /** Deepest nesting of objects and arrays; deeper input is an error. @defaultValue 64 */
  maxDepth?: number | undefined;
  /** Told of each value as it is read, for checks while the text streams (early schema validation). @defaultValue none */
  listener?: JsonParserListener | undefined;
}

/**
 * A JSON parser fed in fragments, in order, that keeps its state between them: the work is
 * proportional to the characters fed, never a re-parse of what came before.
 *
 * At any moment `value` is the value parsed so far, built in place: objects hold the members
 * seen so far, arrays their items, and a string or number being read is there as far as it goes
 * (a number past 63 characters as far as it went when last read: read again once twice as long).
 * It is a live view, valid until the next `feed`: reading it does not copy. `isComplete` turns
 * true at the exact character that closes the top-level value; anything but white space after it
 * is a `trailing-data` failure. Keys named `__proto__`, `constructor` or `prototype` become ordinary
 * own properties, as with `JSON.parse`; a key past 16,383 characters is a `long-member-name` failure at its end quote.
 *
 * @example
 * ```ts
 * const parser = new IncrementalJsonParser();
 * parser.feed('{"city": "杭');
 * parser.value; // { city: "杭" }
 * parser.feed('州"}');
 * parser.isComplete; // true
 * ```
 */
export class IncrementalJsonParser {
  readonly #maxDepth: number;
  readonly #listener: JsonParserListener | undefined;
  readonly #stack: Frame[] = [];
  #mode: Mode = Mode.Value;
  #root: JsonValue | undefined;
  #offset = 0;
  #failure: JsonParseFailure | undefined;
  /** The string or number or literal being read. */
  #token = "";
  #tokenIsKey = false;
  #numberRead = 0; // the length of the number being read when `value` last read it
  /** With a listener: the string's text read since it was last told (a piece, never the whole token: no rope flattened per feed). */
  #told = "";
  /** Inside a string: an escape began (`\`), and the hex digits of a `\u` escape read so far. */
  #escape: string | undefined;

  /** Creates a parser. */
  constructor(options: IncrementalJsonParserOptions = {}) {
    this.#maxDepth = options.maxDepth ?? 64;
    this.#listener = options.listener;
  }

  /** True once the top-level value has closed (and nothing invalid followed). */
  get isComplete(): boolean {
    return this.#mode === Mode.Done;
  }

  /** Why parsing stopped, if it did. */
  get failure(): JsonParseFailure | undefined {
    return this.#failure;
  }

  /** Characters fed so far. */
  get offset(): number {
    return this.#offset;
  }

  /** The value parsed so far (a live view; `undefined` before any value began). */
  get value(): JsonValue | undefined {
    const [token, mode] = [this.#token, this.#mode];
    // A number is read again once it has doubled: read on every delta, a long one was quadratic work.
    const read = mode === Mode.Number && (token.length < 64 || token.length >= 2 * this.#numberRead);
    if (read) this.#numberRead = token.length;
    const partial = read ? partialNumber(token) : undefined;
    if (mode === Mode.String && !this.#tokenIsKey) this.#place(token);
    else if (partial !== undefined) this.#place(partial);
    return this.#root;
  }

  /** Feeds the next fragment. */
  feed(text: string): void {
    let i = 0;
    while (i < text.length && this.#mode !== Mode.Failed) {
      if (this.#mode === Mode.String) i = this.#readString(text, i);
      else if (this.#mode === Mode.Number || this.#mode === Mode.Literal) i = this.#readWord(text, i);
      else i = this.#readStructure(text, i);
    }
    this.#offset += text.length;
    if (this.#listener && this.#mode === Mode.String) {
      this.#listener.partial(this.#told, this.#tokenIsKey);
      this.#told = "";
    }
  }

  /** The input ended: a number or literal at the top level ends here. Returns whether the value is complete. */
  end(): boolean {
    if ((this.#mode === Mode.Number || this.#mode === Mode.Literal) && this.#stack.length === 0)
      this.#endWord(this.#offset);
    return this.isComplete;
  }

  #fail(reason: JsonParseFailure["reason"], at: number): void {
    this.#failure = { reason, offset: at };
    this.#mode = Mode.Failed;
  }

  /** Structural characters: white space, brackets, commas, colons, the start of a value. */
  #readStructure(text: string, i: number): number {
    const code = text.charCodeAt(i);
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) return i + 1;
    const at = this.#offset + i;
    const frame = this.#stack[this.#stack.length - 1];
    switch (this.#mode) {
      case Mode.Done:
        this.#fail("trailing-data", at);
        return i;
      case Mode.Key:
        if (code === 0x22) return this.#startString(true, i);
        if (code === 0x7d && frame?.empty) return this.#close(i);
        this.#fail("invalid-json", at);
        return i;
      case Mode.Colon:
        if (code !== 0x3a) this.#fail("invalid-json", at);
        else this.#mode = Mode.Value;
        return i + 1;
      case Mode.AfterValue:
        if (code === 0x2c) {
          frame!.empty = false;
          this.#mode = Array.isArray(frame!.value) ? Mode.Value : Mode.Key;
          return i + 1;
        }
        if ((code === 0x7d && !Array.isArray(frame!.value)) || (code === 0x5d && Array.isArray(frame!.value)))
          return this.#close(i);
        this.#fail("invalid-json", at);
        return i;
      default:
        return this.#startValue(code, i, at, frame);
    }
  }

  #startValue(code: number, i: number, at: number, frame: Frame | undefined): number {
    if (code === 0x5d && frame?.empty && Array.isArray(frame.value)) return this.#close(i);
    const container = code === 0x7b || code === 0x5b;
    const word = wordModeOf(code);
    if (!container && word === undefined && code !== 0x22) this.#fail("invalid-json", at);
    else if (container && this.#stack.length >= this.#maxDepth) this.#fail("too-deep", at);
    else this.#listener?.begin(code);
    if (this.#mode === Mode.Failed) return i;
    if (code === 0x22) return this.#startString(false, i);
    if (container) {
      const value: Record<string, JsonValue> | JsonValue[] = code === 0x7b ? {} : [];
      this.#place(value);
      this.#stack.push({ value, slot: 0, expectKey: code === 0x7b, empty: true });
      this.#mode = code === 0x7b ? Mode.Key : Mode.Value;
      return i + 1;
    }
    this.#mode = word!;
    this.#token = "";
    this.#numberRead = 0;
    return i;
  }

  #startString(isKey: boolean, i: number): number {
    this.#mode = Mode.String;
    this.#tokenIsKey = isKey;
    this.#token = this.#told = "";
    return i + 1;
  }

  /** Reads string content in runs up to the next quote or backslash; escapes one at a time. */
  #readString(text: string, i: number): number {
    if (this.#escape !== undefined) return this.#readEscape(text, i);
    let end = i;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if (code === 0x22 || code === 0x5c) break;
      if (code < 0x20) {
        this.#append(text.slice(i, end));
        this.#fail("invalid-json", this.#offset + end);
        return end;
      }
      end++;
    }
    if (end > i) this.#append(text.slice(i, end));
    if (end === text.length) return end;
    if (text.charCodeAt(end) === 0x5c) this.#escape = "";
    else this.#endString(this.#offset + end);
    return end + 1;
  }

  #readEscape(text: string, i: number): number {
    const char = text[i]!;
    if (this.#escape === "") {
      const simple = ESCAPES[char];
      if (simple !== undefined) {
        this.#append(simple);
        this.#escape = undefined;
      } else if (char === "u") this.#escape = "u";
      else this.#fail("invalid-json", this.#offset + i);
      return i + 1;
    }
    if (!/[0-9a-fA-F]/.test(char)) {
      this.#fail("invalid-json", this.#offset + i);
      return i;
    }
    const escapeText = `${this.#escape}${char}`;
    this.#escape = escapeText;
    if (escapeText.length === 5) {
      this.#append(String.fromCharCode(Number.parseInt(escapeText.slice(1), 16)));
      this.#escape = undefined;
    }
    return i + 1;
  }

  #append(piece: string): void {
    this.#token += piece;
    if (this.#listener) this.#told += piece;
  }

  #endString(at: number): void {
    if (this.#tokenIsKey) {
      if (this.#token.length > MAX_MEMBER_NAME_LENGTH) return this.#fail("long-member-name", at);
      this.#stack[this.#stack.length - 1]!.slot = this.#token;
      this.#listener?.key(this.#token);
      this.#mode = Mode.Colon;
    } else this.#completeScalar(this.#token);
    this.#token = "";
  }

  /** Numbers and `true`/`false`/`null` end at the first character that cannot continue them. */
  #readWord(text: string, i: number): number {
    let end = i;
    while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
    this.#token += text.slice(i, end);
    if (this.#mode === Mode.Literal && !Object.keys(LITERALS).some((literal) => literal.startsWith(this.#token)))
      this.#fail("invalid-json", this.#offset + i);
    else if (end < text.length) this.#endWord(this.#offset + end);
    return end;
  }

  #endWord(at: number): void {
    const token = this.#token;
    this.#token = "";
    if (this.#mode === Mode.Literal) {
      const literal = ownValue(LITERALS, token);
      if (literal !== undefined) this.#completeScalar(literal);
      else this.#fail("invalid-json", at);
    } else if (NUMBER.test(token)) this.#completeScalar(Number(token));
    else this.#fail("invalid-json", numberFailureOffset(token, at));
  }

  #completeScalar(value: JsonValue): void {
    this.#place(value);
    this.#listener?.end(value);
    this.#advance();
  }

  /** Puts a value in its slot: the root, or the innermost container's pending slot. */
  #place(value: JsonValue): void {
    const frame = this.#stack[this.#stack.length - 1];
    if (frame) placeInSlot(frame, value);
    else this.#root = value;
  }

  /** A member or item ended: move to the next slot. */
  #advance(): void {
    const frame = this.#stack[this.#stack.length - 1];
    if (frame) {
      if (Array.isArray(frame.value)) frame.slot = (frame.slot as number) + 1;
      frame.empty = false;
    }
    this.#mode = frame ? Mode.AfterValue : Mode.Done;
  }

  #close(i: number): number {
    const { value } = this.#stack.pop()!; // popped whether or not anyone listens
    this.#listener?.end(value);
    this.#advance();
    return i + 1;
  }
}
