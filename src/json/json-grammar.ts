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

/** What the parser expects at the next character (plain constants: type stripping has no enums). */
export const Mode = { Value: 0, Key: 1, Colon: 2, AfterValue: 3, String: 4, Number: 5, Literal: 6, Done: 7, Failed: 8 } as const;
export type Mode = (typeof Mode)[keyof typeof Mode];

/** The literal names and their values. */
export const LITERALS: Record<string, JsonValue> = { true: true, false: false, null: null };
/** A whole JSON number. */
export const NUMBER: RegExp = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** What a JSON number may start with (a number still being read). */
export const NUMBER_PREFIX: RegExp = /^-?(?:0|[1-9]\d*)?(?:\.\d*)?(?:[eE][+-]?\d*)?$/;

/** The one-character escapes of a JSON string, by the character after the backslash. */
export const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** Characters that can continue a number or literal. */
export function isWordChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || code === 0x2e || code === 0x2b || code === 0x2d || code === 0x45;
}

