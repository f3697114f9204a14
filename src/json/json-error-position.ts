import {
  isWordChar,
  type JsonParseFailure,
  LITERALS,
  Mode,
  NUMBER,
  numberFailureOffset,
  wordModeOf,
} from "./json-grammar.ts";

const LITERAL_NAMES = Object.keys(LITERALS);

/** What the scan of {@link jsonErrorPosition} expects next. */
const VALUE = 0;
const KEY = 1;
const COLON = 2;
const AFTER = 3;
const DONE = 4;

/**
 * The offset where `text` stops being JSON: the first character the parser rejects, or the
 * text's length when it is valid or merely cut short. Nesting depth is not limited here.
 *
 * One scan that builds nothing (so a bundle that repairs arguments needs no parser): the offsets
 * are those `IncrementalJsonParser` reports when fed the whole text at once. A literal that no
 * literal starts with fails at its first character, a number at the first character that cannot
 * continue it (or after it, when it could), a string at a control character or a bad escape.
 *
 * @example
 * ```ts
 * jsonErrorPosition('{"a": 1,]'); // 8
 * jsonErrorPosition('{"a": [1'); // 8
 * ```
 */
export function jsonErrorPosition(text: string): number {
  return jsonFailure(text, Number.POSITIVE_INFINITY, false)?.offset ?? text.length;
}

/**
 * Why and where `text` is not one JSON value nested at most `maxDepth` deep, as
 * `IncrementalJsonParser` says once fed the whole text (and, when `ended`, told of its end: a
 * value cut short is then `invalid-json` at the text's length); `undefined` when it is one (or,
 * not `ended`, merely cut short). The verdict of the repair on what it cannot repair.
 *
 * @example
 * ```ts
 * jsonFailure('{"a": 1} x', 64, true); // { reason: "trailing-data", offset: 9 }
 * jsonFailure("[[1]]", 1, true); // { reason: "too-deep", offset: 1 }
 * ```
 */
export function jsonFailure(text: string, maxDepth: number, ended: boolean): JsonParseFailure | undefined {
  /** The containers open: `}` for an object, `]` for an array. */
  const open: string[] = [];
  let mode = VALUE;
  /** The innermost container was just opened: it may close at once. */
  let empty = false;
  let i = 0;
  const invalid = (offset: number): JsonParseFailure => ({ reason: "invalid-json", offset });
  while (i < text.length) {
    const char = text[i]!;
    if (char === " " || char === "\n" || char === "\r" || char === "\t") {
      i++;
      continue;
    }
    const close = open[open.length - 1];
    if (mode === DONE) return { reason: "trailing-data", offset: i };
    if (mode === COLON) {
      if (char !== ":") return invalid(i);
      mode = VALUE;
      i++;
      continue;
    }
    if (mode === AFTER || (empty && char === close)) {
      if (char === close) {
        open.pop();
        mode = open.length === 0 ? DONE : AFTER;
      } else if (char === ",") mode = close === "}" ? KEY : VALUE;
      else return invalid(i);
      empty = false;
      i++;
      continue;
    }
    if (char === '"') {
      i = stringEnd(text, i + 1);
      if (i < 0) return invalid(~i);
      mode = mode === KEY ? COLON : open.length === 0 ? DONE : AFTER;
      empty = false;
      continue;
    }
    if (mode === KEY) return invalid(i);
    if (char === "{" || char === "[") {
      if (open.length >= maxDepth) return { reason: "too-deep", offset: i };
      open.push(char === "{" ? "}" : "]");
      mode = char === "{" ? KEY : VALUE;
      empty = true;
      i++;
      continue;
    }
    // A number or a literal: it runs to the first character that cannot continue one.
    const wordMode = wordModeOf(text.charCodeAt(i));
    if (wordMode === undefined) return invalid(i);
    const end = wordEnd(text, i);
    const word = text.slice(i, end);
    const whole = wordMode === Mode.Literal ? LITERAL_NAMES.includes(word) : NUMBER.test(word);
    if (wordMode === Mode.Literal && !LITERAL_NAMES.some((literal) => literal.startsWith(word))) return invalid(i);
    // At the end a word may go on, unless the text has ended at the top level, where it ends too.
    if (end === text.length && !(ended && open.length === 0)) break;
    if (!whole) return invalid(wordMode === Mode.Literal ? end : numberFailureOffset(word, end));
    mode = open.length === 0 ? DONE : AFTER;
    empty = false;
    i = end;
  }
  return mode === DONE || !ended ? undefined : invalid(text.length);
}

/**
 * The offset after the quote closing the string whose content starts at `i`, the text's length
 * when it is cut short, or `~offset` of a character the string cannot hold (a control character,
 * a bad escape).
 */
function stringEnd(text: string, i: number): number {
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) return ~i;
    if (code !== 0x5c) {
      i++;
      continue;
    }
    const after = text[++i];
    if (after === undefined) break;
    if (after === "u") {
      for (let digit = 0; digit < 4; digit++) if (++i < text.length && !/[0-9a-fA-F]/.test(text[i]!)) return ~i;
      i++;
    } else if ('"\\/bfnrt'.includes(after)) i++;
    else return ~i;
  }
  return text.length;
}

/** The end of the number or literal that starts at `i`: its first character that cannot continue it. */
function wordEnd(text: string, i: number): number {
  while (i < text.length && isWordChar(text.charCodeAt(i))) i++;
  return i;
}
