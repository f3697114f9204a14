/**
 * The whole part of a JSON text cut short: what a streaming client reads of a tool call's
 * arguments that never ended.
 *
 * @module
 */
import type { JsonValue } from "../shared/json.ts";
import { parseStrictJsonText } from "../shared/long-member-name.ts";
import { isWordChar, LITERALS } from "./json-grammar.ts";

/**
 * The value of `text`, JSON cut short (`jsonErrorPosition(text) === text.length`), as far as its
 * values are whole: the string, number or literal the cut ends in is left out, with its member,
 * and the containers still open are closed. A number the text ends in is left out (it may go on),
 * a literal kept once whole. What `@anthropic-ai/sdk`'s MessageStream reads as a tool_use's
 * `input` from the `partial_json` it got: `{"a":"x","b":[1,` reads as `{"a":"x","b":[1]}`.
 * `undefined` when no value was whole (a text cut inside its first token), or the part does not
 * parse (a member name past the length `parseStrictJsonText` takes). One scan and one parse.
 *
 * @example
 * ```ts
 * wholeOfCutJson('{"city":"Paris","days":[1,2'); // { city: "Paris", days: [1] }
 * wholeOfCutJson('{"que'); // {}
 * ```
 */
export function wholeOfCutJson(text: string): JsonValue | undefined {
  /** The closers of the containers open, innermost last. */
  const open: string[] = [];
  /** A string here is a member's name. */
  let name = false;
  /** Where the whole part ends, and how many containers are open there. */
  let whole = -1;
  let depth = 0;
  let i = 0;
  const mark = (at: number) => {
    whole = at;
    depth = open.length;
  };
  while (i < text.length) {
    const char = text[i]!;
    if (char === "{" || char === "[") {
      open.push(char === "{" ? "}" : "]");
      name = char === "{";
      mark(++i);
    } else if (char === "}" || char === "]") {
      open.pop();
      name = false;
      mark(++i);
    } else if (char === ",") {
      name = open[open.length - 1] === "}";
      i++;
    } else if (char === ":") {
      name = false;
      i++;
    } else if (char === '"') {
      const end = stringEnd(text, i + 1);
      if (end < 0) break;
      if (!name) mark(end);
      i = end;
    } else if (isWordChar(text.charCodeAt(i))) {
      const end = wordEnd(text, i);
      // A number at the end may go on; a literal there is whole once it is one.
      if (end === text.length && !Object.hasOwn(LITERALS, text.slice(i))) break;
      mark((i = end));
    } else i++; // White space: the text is JSON (cut short), so nothing else.
  }
  if (whole < 0) return undefined;
  const closers = open.slice(0, depth).reverse().join("");
  try {
    return parseStrictJsonText(text.slice(0, whole) + closers) as JsonValue;
  } catch {
    return undefined;
  }
}

/** The offset after the quote that closes the string whose content starts at `i`, or -1 when the text ends first. */
function stringEnd(text: string, i: number): number {
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"') return i + 1;
    i += char === "\\" ? 2 : 1;
  }
  return -1;
}

/** The end of the number or literal that starts at `i`. */
function wordEnd(text: string, i: number): number {
  while (i < text.length && isWordChar(text.charCodeAt(i))) i++;
  return i;
}
