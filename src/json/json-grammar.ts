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
  reason: "invalid-json" | "too-deep" | "trailing-data";
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
