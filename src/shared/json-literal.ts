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
