/**
 * Sets of one code point: what a class (`[a-z]`, `[^\p{L}\d]`), a class escape (`\d`, `\s`,
 * `\w`, `\p{...}`) or `.` of a pattern matches. ECMAScript's exact meaning of each (its
 * whitespace, its Unicode property tables) is the runtime's own: the atom alone, anchored
 * (`^(?:[a-z])$`, `u` flag), is tested on one code point at a time, which no backtracking can make
 * slow. Answers for ASCII are kept. Where an atom's property escape meets a code point the
 * runtimes' Unicode versions disagree on (`unicode-drift.ts`), it throws {@link UnsettledCode}
 * rather than answer as this runtime's tables say.
 *
 * @module
 */

import { drifts } from "./unicode-drift.ts";

/** What one code point is tested against. */
export interface CodeSet {
  /** Whether the set holds `code` (a code point; a lone surrogate is one too). */
  has(code: number): boolean;
}

/**
 * Thrown by a set asked about a code point whose properties differ between the runtimes' Unicode
 * versions: the pattern's answer would depend on the runtime.
 */
export class UnsettledCode {
  /** The code point. */
  readonly code: number;
  constructor(code: number) {
    this.code = code;
  }
}

/** A property escape not preceded by a backslash of its own (`\\p{L}` is a backslash and `p{L}`). */
const PROPERTY = /(?<!\\)(?:\\\\)*\\[pP]\{([^}]*)/g;
/** The emoji properties (`Emoji`, `Emoji_Presentation`, `EPres`, `Extended_Pictographic`, `ExtPict`...). */
const EMOJI_PROPERTY = /^(?:E[A-Z]|Emoji|Ext(?:ended_)?Pict)/;

/** The codes below it have their answers kept. */
const KEPT = 128;

class NativeSet implements CodeSet {
  readonly #atom: string;
  /** Built at the first code point asked about: a schema's atoms cost a string each until a check reads them. */
  #regex: RegExp | undefined;
  /** 0: not asked yet, 1: not in the set, 2: in it. */
  #kept: Uint8Array | undefined;
  /** Whether it names a Unicode property (`undefined`), an emoji property among them (`true`). */
  readonly #emoji: boolean | undefined;

  constructor(atom: string) {
    this.#atom = atom;
    const names = [...atom.matchAll(PROPERTY)];
    this.#emoji = names.length > 0 ? names.some((name) => EMOJI_PROPERTY.test(name[1]!)) : undefined;
  }

  has(code: number): boolean {
    const regex = (this.#regex ??= new RegExp(`^(?:${this.#atom})$`, "u"));
    if (code >= KEPT) {
      if (this.#emoji !== undefined && drifts(code, this.#emoji)) throw new UnsettledCode(code);
      return regex.test(String.fromCodePoint(code));
    }
    const kept = (this.#kept ??= new Uint8Array(KEPT));
    let known = kept[code]!;
    if (known === 0) known = kept[code] = regex.test(String.fromCharCode(code)) ? 2 : 1;
    return known === 2;
  }
}

/** The set of one atom of a pattern already found valid (`[...]`, `\d`, `\p{L}`...), as the runtime reads it. */
export function nativeSet(atom: string): CodeSet {
  return new NativeSet(atom);
}

/** `.` without the `s` flag: any code point but the line terminators. */
export const DOT: CodeSet = {
  has: (code) => code !== 0x0a && code !== 0x0d && code !== 0x2028 && code !== 0x2029,
};

/** Whether a code point is a word character of `\b` (`u` flag without `i`: ASCII letters, digits, `_`). */
export function isWordCode(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f
  );
}
