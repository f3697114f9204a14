import { type CodeSet, DOT, nativeSet } from "./code-sets.ts";

/**
 * A JSON Schema `pattern` (ECMAScript, `u` flag) read into a tree of what a linear-time matcher
 * can run: code points, sets of one code point (classes, `\d`, `\p{...}`, `.`), the anchors and
 * word boundaries, sequences, alternatives and counted repetitions. The pattern is first given
 * to the runtime's own `RegExp` parser (constructing does not match, so it cannot backtrack), so
 * what is valid ECMAScript is decided by ECMAScript itself; this reader then refuses what cannot
 * run without backtracking (backreferences, lookaround) and what it does not know.
 *
 * @module
 */

/** `^`: the string's start (no `m` flag). */
export const START = 0;
/** `$`: the string's end (no `m` flag). */
export const END = 1;
/** `\b`: a word character on one side only (ASCII letters, digits, `_`). */
export const BOUNDARY = 2;
/** `\B`: word characters on both sides or on neither. */
export const NOT_BOUNDARY = 3;

/** One piece of a pattern, with the instructions it compiles to (`size`). */
export type PatternNode =
  | { readonly type: "code"; readonly code: number; readonly size: number }
  | { readonly type: "set"; readonly set: CodeSet; readonly size: number }
  | { readonly type: "assert"; readonly kind: number; readonly size: number }
  | { readonly type: "sequence"; readonly items: readonly PatternNode[]; readonly size: number }
  | { readonly type: "choice"; readonly options: readonly PatternNode[]; readonly size: number }
  | {
      readonly type: "repeat";
      readonly body: PatternNode;
      readonly min: number;
      readonly max: number;
      readonly size: number;
    };

/** Why a pattern cannot be run by the linear matcher (the sentence follows the pattern's path). */
export class PatternRefusal {
  /** What is wrong, as the end of a sentence: "uses a backreference, which...". */
  readonly reason: string;
  constructor(reason: string) {
    this.reason = reason;
  }
}

/**
 * The most instructions a pattern may compile to, counted repetitions written out: `a{10}` is
 * ten. A larger one (`(a{1000}){1000}`) is refused, never expanded: the matcher's work per
 * character and its memory are at most this.
 */
export const MAX_INSTRUCTIONS = 20_000;

const REFUSE_BACKREFERENCE = "uses a backreference, which a linear-time matcher cannot run";
const REFUSE_LOOKAROUND = "uses a lookahead or lookbehind, which a linear-time matcher cannot run";
const REFUSE_UNKNOWN = "uses syntax the linear-time matcher does not support";

/**
 * A property escape of a script Unicode 17 added (Beria Erfe, Sidetic, Tai Yo, Tolong Siki), which
 * Deno 2.9's V8 (Unicode 16) refuses as no valid regular expression.
 */
const NEWER_SCRIPTS =
  /(?<!\\)(?:\\\\)*\\[pP]\{(?:sc|scx|Script|Script_Extensions)=(?:Beria_Erfe|Berf|Sidetic|Sidt|Tai_Yo|Tayo|Tolong_Siki|Tols)\}/;

/** A pattern read: its tree, and how many distinct sets it holds (each a `RegExp` of the runtime's once asked). */
export interface ParsedPattern {
  readonly tree: PatternNode;
  readonly sets: number;
}

/** The tree of `source`, or why it is refused (not valid ECMAScript with the `u` flag included). */
export function parsePattern(source: string): ParsedPattern | PatternRefusal {
  // Before the runtime reads it: a runtime of Unicode 16 refuses these, one of 17 reads them.
  if (NEWER_SCRIPTS.test(source))
    return new PatternRefusal("is not a valid regular expression (ECMAScript, u flag) on every runtime");
  try {
    new RegExp(source, "u");
  } catch {
    return new PatternRefusal("is not a valid regular expression (ECMAScript, u flag)");
  }
  try {
    const reader = new Reader(source);
    const tree = reader.choice();
    if (reader.at < source.length) return new PatternRefusal(REFUSE_UNKNOWN);
    if (tree.size > MAX_INSTRUCTIONS)
      return new PatternRefusal(`expands to more than ${MAX_INSTRUCTIONS.toLocaleString("en-US")} instructions`);
    return { tree, sets: reader.sets };
  } catch (error) {
    if (error instanceof PatternRefusal) return error;
    throw error;
  }
}

const code = (value: number): PatternNode => ({ type: "code", code: value, size: 1 });
const set = (value: CodeSet): PatternNode => ({ type: "set", set: value, size: 1 });
const assertion = (kind: number): PatternNode => ({ type: "assert", kind, size: 1 });
/** Sizes past the cap are kept as the cap plus one, so products never grow without end. */
const capped = (size: number): number => Math.min(size, MAX_INSTRUCTIONS + 1);

function repeat(body: PatternNode, min: number, max: number): PatternNode {
  // The optional copies are nested: a split before each, so that it adds one instruction.
  const rest = max === Number.POSITIVE_INFINITY ? body.size + 2 : (max - min) * (body.size + 1);
  const size = body.size === 0 ? 0 : capped(min * body.size + rest);
  return { type: "repeat", body, min, max, size };
}

const COUNT = /\{(\d+)(,(\d*))?\}/y;
/** A class: in `u` mode (without `v`) a `[` inside is a plain character, and only `\` escapes. */
const CLASS = /\[(?:\\.|[^\\\]])*\]/y;
/**
 * One escape: `\u{...}`, a surrogate pair of `\uXXXX` (one code point in `u` mode), `\uXXXX`,
 * `\xXX`, `\cX`, `\p{...}`, or a backslash and one character (the rest of a backreference's
 * digits or name do not matter: it is refused).
 */
const ESCAPE =
  /\\(?:u\{[0-9a-fA-F]+\}|u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[A-Za-z]|[pP]\{[^}]*\}|.)/y;

/** A recursive-descent reader over a pattern that ECMAScript has already found valid. */
class Reader {
  at = 0;
  readonly #source: string;
  /** One set per distinct atom (`[a-z]` written ten times is one). */
  readonly #sets = new Map<string, CodeSet>();

  constructor(source: string) {
    this.#source = source;
  }

  /** How many distinct sets were read. */
  get sets(): number {
    return this.#sets.size;
  }

  choice(): PatternNode {
    const options = [this.#sequence()];
    while (this.#source[this.at] === "|") {
      this.at++;
      options.push(this.#sequence());
    }
    if (options.length === 1) return options[0]!;
    const size = options.reduce((sum, option) => sum + option.size, 2 * (options.length - 1));
    return { type: "choice", options, size: capped(size) };
  }

  #sequence(): PatternNode {
    const items: PatternNode[] = [];
    let size = 0;
    for (;;) {
      const next = this.#source[this.at];
      if (next === undefined || next === "|" || next === ")") break;
      const item = this.#quantified(this.#atom());
      items.push(item);
      size = capped(size + item.size);
    }
    return items.length === 1 ? items[0]! : { type: "sequence", items, size };
  }

  #quantified(atom: PatternNode): PatternNode {
    const s = this.#source;
    let min: number;
    let max: number;
    const sign = s[this.at];
    if (sign === "*" || sign === "+" || sign === "?") {
      this.at++;
      [min, max] = [sign === "+" ? 1 : 0, sign === "?" ? 1 : Number.POSITIVE_INFINITY];
    } else if (sign === "{") {
      COUNT.lastIndex = this.at;
      const match = COUNT.exec(s);
      if (!match) throw new PatternRefusal(REFUSE_UNKNOWN);
      this.at += match[0].length;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === "" ? Number.POSITIVE_INFINITY : Number(match[3]);
    } else return atom;
    if (s[this.at] === "?") this.at++; // lazy: the same strings match
    return repeat(atom, min, max);
  }

  #atom(): PatternNode {
    const s = this.#source;
    const char = s[this.at]!;
    switch (char) {
      case "^":
        this.at++;
        return assertion(START);
      case "$":
        this.at++;
        return assertion(END);
      case ".":
        this.at++;
        return set(DOT);
      case "[": {
        CLASS.lastIndex = this.at;
        const span = CLASS.exec(s)?.[0];
        if (!span) throw new PatternRefusal(REFUSE_UNKNOWN);
        this.at += span.length;
        return this.#set(span);
      }
      case "(":
        return this.#group();
      case "\\":
        return this.#escape();
      default: {
        const value = s.codePointAt(this.at)!;
        this.at += value > 0xffff ? 2 : 1;
        return code(value);
      }
    }
  }

  #group(): PatternNode {
    const s = this.#source;
    this.at++;
    if (s[this.at] === "?") {
      const kind = s.slice(this.at, this.at + 3);
      if (kind.startsWith("?=") || kind.startsWith("?!") || kind === "?<=" || kind === "?<!")
        throw new PatternRefusal(REFUSE_LOOKAROUND);
      if (kind.startsWith("?:")) this.at += 2;
      else if (kind.startsWith("?<")) {
        const close = s.indexOf(">", this.at);
        if (close < 0) throw new PatternRefusal(REFUSE_UNKNOWN);
        this.at = close + 1;
      } else throw new PatternRefusal(REFUSE_UNKNOWN); // modifiers such as (?i:...)
    }
    const inner = this.choice();
    if (s[this.at] !== ")") throw new PatternRefusal(REFUSE_UNKNOWN);
    this.at++;
    return inner;
  }

  /** `\b`, `\B`; a backreference, refused; any other escape is one code point or a set of them, which the runtime reads. */
  #escape(): PatternNode {
    ESCAPE.lastIndex = this.at;
    const span = ESCAPE.exec(this.#source)?.[0] ?? "";
    this.at += span.length;
    const char = span[1] ?? "";
    if (char === "b") return assertion(BOUNDARY);
    if (char === "B") return assertion(NOT_BOUNDARY);
    if ((char >= "1" && char <= "9") || char === "k") throw new PatternRefusal(REFUSE_BACKREFERENCE);
    return this.#set(span);
  }

  #set(atom: string): PatternNode {
    let found = this.#sets.get(atom);
    if (!found) this.#sets.set(atom, (found = nativeSet(atom)));
    return set(found);
  }
}
