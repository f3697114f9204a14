/**
 * Member names too long for V8 to parse JSON in linear time. V8 (the engine of Node, Deno,
 * workerd and Chromium) hashes a string past 16,383 characters by its length alone, and
 * `JSON.parse` interns every member name: a text of many such names of one length makes each
 * compared with all the others. An 8 MB body of 510 names of 16,400 characters, alike but for their
 * ends, took 174 ms to parse in Node 20 against 3 ms at 1 MB; the same bytes as string values parse
 * in linear time. The interned names stay in the isolate's one string table until a full
 * collection, so texts of a few such names each add up across requests (40 parses of 60 names,
 * 1 MB each, in Node 24: the 40th took 157 ms, the first 2 ms). The Worker scans every body, and
 * each JSON text a body carries that it parses; the request kits send a tool result's text with
 * such a name as text, unparsed. Setting such a name on an object interns it too (a parser of
 * one's own gains nothing), so what a model or provider writes is never parsed with one: a call's
 * arguments are a `long-member-name` call, a payload is skipped ({@link parseJsonText}). No request
 * or response of any protocol has a member name near that long.
 *
 * @module
 */

/**
 * The longest member name {@link longMemberName} lets by: the longest string V8 hashes by its content.
 *
 * @example
 * ```ts
 * longMemberName(`{"${"k".repeat(MAX_MEMBER_NAME_LENGTH)}":1}`); // undefined
 * ```
 */
export const MAX_MEMBER_NAME_LENGTH = 16_383;

const BACKSLASH = 0x5c;
const COLON = 0x3a;

/**
 * The offset (in UTF-16 units) of the first member name of JSON `text` longer than
 * {@link MAX_MEMBER_NAME_LENGTH} characters once its escapes are read, if any (a text too short to
 * hold one is not scanned). Linear: it jumps from quote to quote, and
 * reads a string's escapes only when the string is long enough to matter. Run before `JSON.parse`;
 * on text that is not JSON its answer means nothing, and the parse's error follows.
 *
 * @example
 * ```ts
 * longMemberName(`{"${"k".repeat(2_000_000)}":1}`); // 1
 * longMemberName(`{"k":"${"v".repeat(2_000_000)}"}`); // undefined
 * ```
 */
export function longMemberName(text: string): number | undefined {
  if (text.length <= MAX_MEMBER_NAME_LENGTH + 2) return undefined;
  for (let open = text.indexOf('"'); open !== -1; ) {
    const close = closingQuote(text, open);
    if (close === -1) return undefined;
    if (
      close - open - 1 > MAX_MEMBER_NAME_LENGTH &&
      isName(text, close) &&
      readLength(text, open, close) > MAX_MEMBER_NAME_LENGTH
    )
      return open;
    open = text.indexOf('"', close + 1);
  }
  return undefined;
}

/** The index of the quote that closes the string opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    // Escaped by an odd run of backslashes before it (each run is read once: it ends at the last quote).
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return -1;
}

/** Whether the string that closes at `close` is a member name: a colon follows it, after whitespace. */
function isName(text: string, close: number): boolean {
  let at = close + 1;
  for (let code = text.charCodeAt(at); code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d; )
    code = text.charCodeAt(++at);
  return text.charCodeAt(at) === COLON;
}

/** The length of the string between `open` and `close` once its escapes are read (`\uXXXX` is one unit). */
function readLength(text: string, open: number, close: number): number {
  let length = close - open - 1;
  for (let at = text.indexOf("\\", open + 1); at !== -1 && at < close; at = text.indexOf("\\", at)) {
    const skipped = text.charCodeAt(at + 1) === 0x75 ? 5 : 1;
    length -= skipped;
    at += skipped + 1;
  }
  return length;
}

/**
 * `JSON.parse(text)`, save that a text with a member name longer than {@link MAX_MEMBER_NAME_LENGTH}
 * throws a `SyntaxError` unparsed, as a text that is not JSON does: for the text a model or a
 * provider writes (a payload, a call's arguments), whose names would stay interned (see the module).
 *
 * @example
 * ```ts
 * parseJsonText('{"a":1}'); // { a: 1 }
 * parseJsonText(`{"${"k".repeat(16_384)}":1}`); // throws a SyntaxError
 * ```
 */
export function parseJsonText(text: string): unknown {
  if (longMemberName(text) !== undefined) throw new SyntaxError("A member name is too long to parse.");
  return JSON.parse(text);
}
