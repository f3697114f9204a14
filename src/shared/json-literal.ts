import { ownText } from "./kept-text.ts";

/**
 * The end of a JSON string literal, found without parsing it: what the decoders' fast paths read
 * a payload's one literal with; and JSON's white space, which the framings and the arguments'
 * buffer skip.
 *
 * @module
 */

/**
 * The index just past the JSON string literal opening (its `"`) at `start`: positive when it
 * holds no escape (its text is the characters between the quotes), negative when it does (to be
 * parsed with `JSON.parse`), 0 when it never closes or holds a raw control character.
 *
 * @example
 * ```ts
 * jsonLiteralEnd('{"a":"bc"}', 5); // 9
 * jsonLiteralEnd('{"a":"b\\"c"}', 5); // -11
 * ```
 */
export function jsonLiteralEnd(data: string, start: number): number {
  let escaped = false;
  for (let at = start + 1; at < data.length; at++) {
    const code = data.charCodeAt(at);
    if (code === 0x22) return escaped ? -(at + 1) : at + 1;
    if (code === 0x5c) {
      escaped = true;
      at++;
    } else if (code < 0x20) return 0;
  }
  return 0;
}

/** JSON's two-character escapes (the character after the backslash), and the characters they stand for. */
const ESCAPES = '"\\/bfnrt';
const ESCAPED = '"\\/\b\f\n\r\t';

/**
 * The text of the JSON string literal opening at `start` whose end {@link jsonLiteralEnd} gave
 * (`end`, its result), as `JSON.parse` gives it; `undefined` when it is not JSON (it never closes,
 * holds a raw control character or an escape JSON has not). The two-character escapes are read
 * here: `JSON.parse` of a short literal costs twice as much in V8 (one with a `\u` escape is still
 * parsed by it). The text is a string of its own (`ownText`), as `JSON.parse`'s are: the fast
 * readers hand it on as a fragment or a delta that stages keep, and a slice of `data` would keep
 * the whole read `data` was cut from.
 *
 * @example
 * ```ts
 * const data = '{"a":"b\\"c"}';
 * jsonLiteralText(data, 5, jsonLiteralEnd(data, 5)); // 'b"c'
 * ```
 */
export function jsonLiteralText(data: string, start: number, end: number): string | undefined {
  if (end >= 0) return end ? ownText(data.slice(start + 1, end - 1)) : undefined;
  end = -end;
  let text = "";
  let from = start + 1;
  for (let at = data.indexOf("\\", from); at !== -1 && at < end; at = data.indexOf("\\", from)) {
    const which = ESCAPES.indexOf(data[at + 1]!);
    if (which < 0)
      try {
        return JSON.parse(data.slice(start, end)) as string;
      } catch {
        return undefined;
      }
    text += data.slice(from, at) + ESCAPED[which];
    from = at + 2;
  }
  return ownText(text + data.slice(from, end - 1));
}

/**
 * Whether a character code (or a byte) is JSON's white space, which is SSE's too: one function
 * for the framings and the arguments' buffer, so a bundle holds it once.
 *
 * @example
 * ```ts
 * isSpace(0x20); // true
 * isSpace("x".charCodeAt(0)); // false
 * ```
 */
export function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}
