/**
 * Member names repeated in one JSON object (`{"a":"x","a":1}`): RFC 8259 says names SHOULD be
 * unique, I-JSON (RFC 7493) that they MUST, and `JSON.parse` keeps the last value, so what a
 * checker reads as the text streams and what the parsed value holds differ. Found in one pass over
 * the text.
 *
 * @module
 */

/** What JSON holds outside its strings and brackets: past anything else, the text is not JSON. */
const JSON_CHARACTERS = " \t\n\r:0123456789-+.eEtrufalsn";

/**
 * The place of the first member of `text` whose name its object already has (object keys and
 * array indexes from the top, the repeated name last), or `undefined` when no object repeats a
 * name. Scanned, not checked: JSON is read as the parser reads it, and the scan stops at a
 * character JSON never holds outside a string (a single quote, a code fence: text a repair may
 * still read), so that what is not JSON is not taken for names. One pass, each name kept once per
 * object (a name with an escape read as JSON reads it).
 *
 * @example
 * ```ts
 * repeatedName('{"list":[{"a":1},{"a":2,"\\u0061":3}]}'); // ["list", 1, "a"]
 * repeatedName('{"a":{"a":1}}'); // undefined
 * ```
 */
export function repeatedName(text: string): (string | number)[] | undefined {
  // Each open container: an object's names (and the member being read), an array's index.
  const open: { names: Set<string> | undefined; at: string | number }[] = [];
  let key = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const top = open[open.length - 1];
    if (code === 0x22) {
      let end = i + 1;
      let escaped = false;
      for (let c = text.charCodeAt(end); c !== 0x22 && end < text.length; c = text.charCodeAt(++end)) {
        if (c !== 0x5c) continue;
        escaped = true;
        end++;
      }
      if (end >= text.length) return undefined; // a name cut short is no name yet
      if (key && top?.names) {
        const name = escaped ? unescaped(text.slice(i, end + 1)) : text.slice(i + 1, end);
        if (top.names.has(name)) return [...open.slice(0, -1).map((frame) => frame.at), name];
        top.names.add(name);
        top.at = name;
        key = false;
      }
      i = end;
    } else if (code === 0x7b || code === 0x5b) {
      open.push({ names: code === 0x7b ? new Set() : undefined, at: 0 });
      key = code === 0x7b;
    } else if (code === 0x7d || code === 0x5d) open.pop();
    else if (code === 0x2c && top) {
      if (top.names) key = true;
      else top.at = (top.at as number) + 1;
    } else if (!JSON_CHARACTERS.includes(text[i]!)) return undefined;
  }
  return undefined;
}

/** A quoted name with an escape, as JSON reads it (as it is when it is not JSON: a bad escape in text a repair rewrites). */
function unescaped(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted;
  }
}
