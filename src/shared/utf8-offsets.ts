/**
 * Where the UTF-8 byte offsets a provider counts in (Gemini's grounding segments, the Interactions
 * API's annotations: "measured in bytes") fall in a JavaScript string, in UTF-16 code units.
 *
 * @module
 */

/**
 * The UTF-16 offset in `text` of each UTF-8 byte offset of `bytes` that starts a character (or
 * ends the text's first `at` units) within its first `at` units: one pass over them for all. An
 * offset inside a character, past them, or not a number has none.
 *
 * @example
 * ```ts
 * utf16Offsets("東京🗼", 4, [3, 6, 10]); // Map { 3 => 1, 6 => 2, 10 => 4 }
 * ```
 */
export function utf16Offsets(text: string, at: number, bytes: readonly unknown[]): Map<unknown, number> {
  const wanted = [...new Set(bytes.filter((b): b is number => typeof b === "number" && b >= 0))].sort((a, b) => a - b);
  const found = new Map<unknown, number>();
  let byte = 0;
  let unit = 0;
  for (const target of wanted) {
    while (byte < target && unit < at) {
      const code = text.charCodeAt(unit);
      const pair = code >= 0xd800 && code <= 0xdbff && unit + 1 < at && (text.charCodeAt(unit + 1) & 0xfc00) === 0xdc00;
      // UTF-8 takes 1 byte below U+0080, 2 below U+0800, 4 for a surrogate pair, else 3 (a lone surrogate as U+FFFD).
      byte += code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
      unit += pair ? 2 : 1;
    }
    if (byte === target) found.set(target, unit);
  }
  return found;
}
