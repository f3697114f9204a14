/**
 * UTF-8 byte length of a string without encoding it: one pass, no allocation.
 * A surrogate pair counts 4 bytes; a lone surrogate counts 3 (it is encoded as U+FFFD).
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // the pair's two units count 2, its UTF-8 form is 4
      i++;
    } else bytes += 2;
  }
  return bytes;
}
