/**
 * The JSON grammar as the incremental parser reads it: what it expects next, the containers it
 * fills, the literals, number shapes and escapes of RFC 8259.
 *
 * @module
 */
import type { JsonValue } from "../shared/json.ts";

/** A container being filled: the value, where the next member goes, and what comes next in it. */
export interface Frame {
  value: Record<string, JsonValue> | JsonValue[];
  /** The key of the member being parsed (objects), or the next index (arrays). */
  slot: string | number;
  /** In an object: a key is expected next (after `{` or `,`). */
  expectKey: boolean;
  /** `{` or `[` was just read: the container may close at once. */
  empty: boolean;
}

/** Why the parser stopped; `offset` is the character offset of the first byte it rejected. */
export interface JsonParseFailure {
  /** What was wrong: not JSON, nested past `maxDepth`, or more after the complete value. */
  reason: "invalid-json" | "too-deep" | "trailing-data" | "long-member-name";
  /** Character offset of the first character rejected. */
  offset: number;
}

/**
 * What an `IncrementalJsonParser` tells its `listener`, in the order of the text: each value's
 * first character, each key, each value's end, and the text of a string cut by the end of a
 * `feed`. Nothing after the parser failed.
 */
export interface JsonParserListener {
  /** A value begins; `first` is the code of its first character: `{`, `[`, `"`, `-` or a digit, `t`, `f` or `n`. */
  begin(first: number): void;
  /** An object's key is complete; its value begins next. */
  key(name: string): void;
  /** A value is complete: a scalar, or the object or array that just closed (a live view). */
  end(value: JsonValue): void;
  /**
   * A `feed` ended inside a string (`isKey`: a key): the text added to it since the string began
   * or since the last `partial`, whichever is later (only the new piece, so that no listener has
   * to read the whole string again on every fragment).
   */
  partial(added: string, isKey: boolean): void;
}

/** What the parser expects at the next character (plain constants: type stripping has no enums). */
export const Mode = {
  Value: 0,
  Key: 1,
  Colon: 2,
  AfterValue: 3,
  String: 4,
  Number: 5,
  Literal: 6,
  Done: 7,
  Failed: 8,
} as const;
export type Mode = (typeof Mode)[keyof typeof Mode];

/** The literal names and their values. */
export const LITERALS: Record<string, JsonValue> = { true: true, false: false, null: null };
/** A whole JSON number. */
export const NUMBER: RegExp = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** What a JSON number may start with (a number still being read). */
export const NUMBER_PREFIX: RegExp = /^-?(?:0|[1-9]\d*)?(?:\.\d*)?(?:[eE][+-]?\d*)?$/;

/** The one-character escapes of a JSON string, by the character after the backslash. */
export const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * The mode a value that starts with `code` is read in when it is a number (`-` or a digit) or a
 * literal (`t`, `f`, `n`), else `undefined`.
 *
 * @example
 * ```ts
 * wordModeOf("-".charCodeAt(0)) === Mode.Number; // true
 * ```
 */
export function wordModeOf(code: number): typeof Mode.Number | typeof Mode.Literal | undefined {
  if (code === 0x2d || (code >= 0x30 && code <= 0x39)) return Mode.Number;
  return code === 0x74 || code === 0x66 || code === 0x6e ? Mode.Literal : undefined;
}

/** Characters that can continue a number or literal. */
export function isWordChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x2e ||
    code === 0x2b ||
    code === 0x2d ||
    code === 0x45
  );
}

/**
 * Puts `value` in `frame`'s pending slot: the next array item, or the member of the key just read.
 * A `__proto__` key becomes an own property, never the prototype setter, as with `JSON.parse`.
 *
 * @example
 * ```ts
 * const frame: Frame = { value: {}, slot: "__proto__", expectKey: false, empty: false };
 * placeInSlot(frame, 1); // frame.value has an own "__proto__" member
 * ```
 */
export function placeInSlot(frame: Frame, value: JsonValue): void {
  if (Array.isArray(frame.value)) frame.value[frame.slot as number] = value;
  else if (frame.slot === "__proto__")
    Object.defineProperty(frame.value, "__proto__", { value, writable: true, enumerable: true, configurable: true });
  else frame.value[frame.slot as string] = value;
}

/**
 * Where a number token that is not a JSON number fails, given `at`, the offset just past it: the
 * first character that cannot continue a number (`01` fails at the `1`), else its end.
 *
 * @example
 * ```ts
 * numberFailureOffset("01", 12); // 11
 * ```
 */
export function numberFailureOffset(token: string, at: number): number {
  // The longest prefix a number may start with, in one match: every part is optional and begins
  // with its own character, so the greedy match is the longest and never backtracks. (Testing
  // each prefix in turn was quadratic: a 100 KB run of digits before an `e}` took seconds.)
  const valid = NUMBER_START.exec(token)![0].length;
  return valid < token.length ? at - token.length + valid : at;
}

/** The longest start of a JSON number (NUMBER_PREFIX without its end anchor). */
const NUMBER_START = /^-?(?:0|[1-9]\d*)?(?:\.\d*)?(?:[eE][+-]?\d*)?/;

/**
 * The value of a number still being read, as far as it goes (`-1.` is -1), or `undefined` while
 * it has no digit yet (`-`) or cannot be a number.
 *
 * @example
 * ```ts
 * partialNumber("-1.") === -1; // true
 * ```
 */
export function partialNumber(token: string): number | undefined {
  if (!NUMBER_PREFIX.test(token)) return undefined;
  const value = Number.parseFloat(token);
  return Number.isNaN(value) ? undefined : value;
}
