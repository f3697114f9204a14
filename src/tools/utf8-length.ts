/**
 * UTF-8 byte length of a string without encoding it: one pass, no allocation. A code unit from
 * U+0080 adds a byte, one from U+0800 two; a surrogate pair counts 4 bytes, a lone surrogate 3
 * (it is encoded as U+FFFD).
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    bytes += code < 0x800 ? 1 : 2;
    // A pair's high half counted 2: with the units' own 2 that is the pair's 4, so skip the low half.
    if ((code & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return bytes;
}
