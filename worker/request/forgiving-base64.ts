/**
 * A `data:` URL's body read as `fetch(url)` reads it (the fetch spec's data: URL processor, then
 * the infra spec's forgiving-base64 decode), written back as canonical base64 for the provider:
 * base64 wrapped every 76 columns (MIME encoders, some SDKs), with spaces, or without its `=`
 * padding is the same file a browser decodes. One pass by index, linear in the body: no regular
 * expression walks a client's text.
 *
 * @module
 */

// 0..63 for a base64 letter, 64 for ASCII white space (tab, line feed, form feed, carriage return,
// space), 255 for any other code unit below 128.
const SKIP = 64;
const BAD = 255;
const VALUES = new Uint8Array(128).fill(BAD);
for (const [i, letter] of [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].entries())
  VALUES[letter.charCodeAt(0)] = i;
for (const space of [0x09, 0x0a, 0x0c, 0x0d, 0x20]) VALUES[space] = SKIP;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const ASCII = new TextDecoder();

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** The index of the first code unit at or after `from` that the URL parser keeps (not a tab, LF or CR). */
function keptAt(body: string, from: number, end: number): number {
  let i = from;
  for (; i < end; i++) {
    const code = body.charCodeAt(i);
    if (code !== 0x09 && code !== 0x0a && code !== 0x0d) break;
  }
  return i;
}

/**
 * The canonical base64 (padded, its unused bits zero) of the bytes `fetch` decodes from a `data:`
 * URL's body, `body` being the URL after its comma; `undefined` where `fetch` fails. As the specs
 * read it: C0 controls and spaces at the URL's end dropped (the URL parser), a fragment (`#...`)
 * dropped, `%XX` escapes decoded, ASCII white space removed, `=` padding optional but only at the
 * end, a length that leaves 1 over a multiple of 4 an error, any other character an error.
 */
export function canonicalBase64(body: string): string | undefined {
  let end = body.indexOf("#");
  if (end < 0) {
    end = body.length;
    while (end > 0 && body.charCodeAt(end - 1) <= 0x20) end--;
  }
  // The letters kept, a byte each, written from the first code unit that is not one (a body already
  // clean is one slice): never a string per run, which a body of short runs would make millions of.
  let kept: Uint8Array | undefined;
  let count = 0;
  let letters = 0;
  let padding = 0;
  let last = 0;
  for (let i = 0; i < end; i++) {
    let code = body.charCodeAt(i);
    let width = 1;
    if (code === 0x25) {
      // The URL parser drops tabs and line breaks before `%` escapes are read: `%4\n1` is `A`.
      const first = keptAt(body, i + 1, end);
      const second = keptAt(body, first + 1, end);
      const high = first < end ? hexValue(body.charCodeAt(first)) : -1;
      const low = second < end ? hexValue(body.charCodeAt(second)) : -1;
      if (high >= 0 && low >= 0) {
        code = high * 16 + low;
        width = second + 1 - i;
      }
    }
    const value = code < 128 ? (VALUES[code] as number) : BAD;
    if (value < SKIP && width === 1 && padding === 0) {
      if (kept !== undefined) kept[count++] = code;
      letters++;
      last = value;
      continue;
    }
    if (kept === undefined) {
      // Every code unit before this one was a letter.
      kept = new Uint8Array(end);
      for (; count < i; count++) kept[count] = body.charCodeAt(count);
    }
    i += width - 1;
    if (value === SKIP) continue;
    if (code === 0x3d && padding < 2) {
      padding++;
      continue;
    }
    if (value > SKIP || padding > 0) return undefined;
    // A letter written as a %XX escape.
    kept[count++] = code;
    letters++;
    last = value;
  }
  // Padding only where it completes a multiple of 4 (`QQ=` fails, `QQ==` and `QQ` pass).
  if (padding > 0 && (letters + padding) % 4 !== 0) return undefined;
  const over = letters % 4;
  if (over === 1) return undefined;
  let text = kept === undefined ? body.slice(0, end) : ASCII.decode(kept.subarray(0, count));
  if (over === 0) return text;
  // The last letter's unused bits are dropped by the decoder, so zeroed here: `QR` is `QQ==`.
  const used = last & (over === 2 ? 0x30 : 0x3c);
  if (used !== last) text = `${text.slice(0, -1)}${LETTERS[used]}`;
  return `${text}${over === 2 ? "==" : "="}`;
}
