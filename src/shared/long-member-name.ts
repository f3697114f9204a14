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
 * arguments are a `long-member-name` call, and a payload is read with a name of one's own in place
 * of each such name ({@link parseJsonText}). No request or response of any protocol has a member name
 * near that long.
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
  return text.length <= MAX_MEMBER_NAME_LENGTH + 2 ? undefined : longName(text, 0)?.[0];
}

/**
 * The quotes around the first member name past the limit at or after `from` (outside a string),
 * if any. Most texts are skimmed: a long name's content is a stretch of more than the limit
 * without an unescaped quote, so the scan goes from the last unescaped quote of each such span to
 * the next (a `lastIndexOf` a span, not a look at every string: a few percent of a parse); only a
 * stretch that long, followed by a colon, is looked at. Whether it is a name's content or JSON's
 * own text between two strings (a long array of numbers, then a string beginning with a colon),
 * its characters say, else the scan of every string ({@link everyString}) from `from`.
 */
function longName(text: string, from: number): [open: number, close: number] | undefined {
  const span = MAX_MEMBER_NAME_LENGTH + 1;
  for (let quote = from - 1; ; ) {
    let at = text.lastIndexOf('"', quote + span);
    while (at > quote && isEscaped(text, at)) at = text.lastIndexOf('"', at - 1);
    if (at > quote) {
      quote = at;
      continue;
    }
    // No unescaped quote in (quote, quote + span]: the next one ends a stretch longer than the limit.
    let close = text.indexOf('"', quote + span + 1);
    while (close !== -1 && isEscaped(text, close)) close = text.indexOf('"', close + 1);
    if (close === -1) return undefined;
    if (isName(text, close)) {
      if (!NOT_STRUCTURAL.test(text.slice(quote + 1, close))) return everyString(text, from);
      if (readLength(text, quote, close) > MAX_MEMBER_NAME_LENGTH) return [quote, close];
    }
    quote = close;
  }
}

/** A character JSON's own text (outside strings) never holds: white space, numbers, literals and punctuation aside. */
const NOT_STRUCTURAL = /[^\s\d.eE+\-,:[\]{}truefalsn]/;

/** Whether the quote at `at` is escaped: an odd run of backslashes before it. */
function isEscaped(text: string, at: number): boolean {
  let slashes = 0;
  while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
  return slashes % 2 === 1;
}

/** {@link longName} by every string from `from`, each from its opening quote to its closing one. */
function everyString(text: string, from: number): [open: number, close: number] | undefined {
  for (let open = text.indexOf('"', from); open !== -1; ) {
    const close = closingQuote(text, open);
    if (close === -1) return undefined;
    if (
      close - open - 1 > MAX_MEMBER_NAME_LENGTH &&
      isName(text, close) &&
      readLength(text, open, close) > MAX_MEMBER_NAME_LENGTH
    )
      return [open, close];
    open = text.indexOf('"', close + 1);
  }
  return undefined;
}

/** The index of the quote that closes the string opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  // Each run of backslashes is read once: it ends at the last quote.
  for (let at = text.indexOf('"', open + 1); at !== -1; at = text.indexOf('"', at + 1))
    if (!isEscaped(text, at)) return at;
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
  // Searched in the string alone: a search of the text would run on to its next backslash, maybe
  // its end, for every long name (quadratic over a payload of many: parseJsonText reads them all).
  const string = text.slice(open + 1, close);
  let length = string.length;
  for (let at = string.indexOf("\\"); at !== -1; at = string.indexOf("\\", at)) {
    const skipped = string.charCodeAt(at + 1) === 0x75 ? 5 : 1;
    length -= skipped;
    at += skipped + 1;
  }
  return length;
}

/**
 * The member name {@link parseJsonText} reads in place of the `count`th (from 1) name of a text
 * longer than {@link MAX_MEMBER_NAME_LENGTH} characters: `long-member-name <count>` padded with
 * dots to {@link MAX_MEMBER_NAME_LENGTH} + `count` characters. Too long itself, so that no name a
 * model or a provider writes is ever taken for it (any name that long is replaced by one, a short
 * one is kept as sent) and arguments holding it are the `long-member-name` call as any such text
 * is; of one length per count, so that V8 hashes each apart (by its length) and keeps one of each
 * in its string table, whatever the texts: interning them costs a compare of each, never a search
 * among many alike.
 *
 * @example
 * ```ts
 * longMemberNameKey(2).length; // 16,385
 * longMemberNameKey(2).startsWith("long-member-name 2."); // true
 * ```
 */
export const longMemberNameKey = (count: number): string =>
  `long-member-name ${count}`.padEnd(MAX_MEMBER_NAME_LENGTH + count, ".");

/**
 * `JSON.parse(text)` for the text a provider or a client writes (a payload, an error body), save
 * that each member name longer than {@link MAX_MEMBER_NAME_LENGTH} characters is read as
 * {@link longMemberNameKey} of its count in the text, never interned itself (see the module): the rest of
 * the payload is read as sent, and the arguments holding such a key are a `long-member-name` call.
 * Linear: the scan goes on from each name it replaces.
 *
 * @example
 * ```ts
 * parseJsonText('{"a":1}'); // { a: 1 }
 * Object.keys(parseJsonText(`{"${"k".repeat(20_000)}":1}`) as object)[0]?.length; // 16,384: longMemberNameKey(1)
 * ```
 */
export function parseJsonText(text: string): unknown {
  const first = longMemberName(text);
  // Every payload comes here: one without such a name (all but a hostile one) is parsed as it is.
  if (first === undefined) return JSON.parse(text);
  let copy = "";
  let done = 0;
  let count = 0;
  // From the first long name on, each replaced in one pass.
  for (let found = longName(text, first); found; found = longName(text, done)) {
    // Read as a string value (long values are never interned), so a name that is no JSON string
    // (a raw line feed, a bad escape) is refused as JSON.parse would refuse the text.
    JSON.parse(text.slice(found[0], found[1] + 1));
    copy += `${text.slice(done, found[0])}"${longMemberNameKey(++count)}"`;
    done = found[1] + 1;
  }
  return JSON.parse(copy + text.slice(done));
}

/**
 * `JSON.parse(text)` for a call's arguments (or a text repaired from them), save that a text with a
 * member name longer than {@link MAX_MEMBER_NAME_LENGTH} throws a `SyntaxError` unparsed, as a
 * text that is not JSON does: such arguments are the `long-member-name` call, never a value. So is
 * a frame of the library's own events, whose writer never sends one: it is not turned into a call.
 *
 * @example
 * ```ts
 * parseStrictJsonText('{"a":1}'); // { a: 1 }
 * parseStrictJsonText(`{"${"k".repeat(16_384)}":1}`); // throws a SyntaxError
 * ```
 */
export function parseStrictJsonText(text: string): unknown {
  if (longMemberName(text) !== undefined) throw new SyntaxError("A member name is too long to parse.");
  return JSON.parse(text);
}
