import { isWordChar, LITERALS, Mode, NUMBER, numberFailureOffset, wordModeOf } from "./json-grammar.ts";

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
  /** The containers open: `}` for an object, `]` for an array. */
  const open: string[] = [];
  let mode = VALUE;
  /** The innermost container was just opened: it may close at once. */
  let empty = false;
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === " " || char === "\n" || char === "\r" || char === "\t") {
      i++;
      continue;
    }
    const close = open[open.length - 1];
    if (mode === DONE) return i;
    if (mode === COLON) {
      if (char !== ":") return i;
      mode = VALUE;
      i++;
      continue;
    }
    if (mode === AFTER || (empty && char === close)) {
      if (char === close) {
        open.pop();
        mode = open.length === 0 ? DONE : AFTER;
        empty = false;
      } else if (char === ",") mode = close === "}" ? KEY : VALUE;
      else return i;
      empty = false;
      i++;
      continue;
    }
    if (char === '"') {
      i = stringEnd(text, i + 1);
      if (i < 0) return ~i;
      mode = mode === KEY ? COLON : open.length === 0 ? DONE : AFTER;
      empty = false;
      continue;
    }
    if (mode === KEY) return i;
    if (char === "{" || char === "[") {
      open.push(char === "{" ? "}" : "]");
      mode = char === "{" ? KEY : VALUE;
      empty = true;
      i++;
      continue;
    }
    // A number or a literal: it runs to the first character that cannot continue one.
    const wordMode = wordModeOf(text.charCodeAt(i));
    if (wordMode === undefined) return i;
    const end = wordEnd(text, i);
    const word = text.slice(i, end);
    if (wordMode === Mode.Literal) {
      if (!LITERAL_NAMES.some((literal) => literal.startsWith(word))) return i;
      if (end < text.length && !LITERAL_NAMES.includes(word)) return end;
    } else if (end < text.length && !NUMBER.test(word)) return numberFailureOffset(word, end);
    if (end === text.length) return end;
    mode = open.length === 0 ? DONE : AFTER;
    empty = false;
    i = end;
  }
  return text.length;
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
