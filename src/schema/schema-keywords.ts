import type { JsonValue } from "../shared/json.ts";
import type { StepBudget } from "./pattern/pattern-vm.ts";
import { matchesPattern, type SchemaNode } from "./schema-node.ts";
import { thousands } from "./bounded-issues.ts";
import { meetsFormat } from "./formats.ts";

/**
 * The checks of one value against one compiled schema's own keywords that need nothing but the
 * value: shared by the final check and the early one (which runs them when a string or number
 * closes), so that the early one never says what the final one would not.
 *
 * @module
 */

/** A failed keyword: what the final check says after the path, and the early check's sentence. */
export type KeywordFailure = readonly [final: string, early: string];

/** The most values of an `enum` a message lists; a longer one is counted, not listed. */
const LISTED_VALUES = 5;
/** The most characters of one listed value. */
const LISTED_LENGTH = 40;

/** The failure of a number's own keywords (its `integer` type aside), or `undefined`. */
export function numberFailure(value: number, s: SchemaNode): KeywordFailure | undefined {
  if (s.minimum !== undefined && value < s.minimum)
    return [`must be at least ${s.minimum}`, `Expected at least ${s.minimum}.`];
  if (s.maximum !== undefined && value > s.maximum)
    return [`must be at most ${s.maximum}`, `Expected at most ${s.maximum}.`];
  if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum)
    return [`must be greater than ${s.exclusiveMinimum}`, `Expected more than ${s.exclusiveMinimum}.`];
  if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum)
    return [`must be less than ${s.exclusiveMaximum}`, `Expected less than ${s.exclusiveMaximum}.`];
  if (s.multipleOf !== undefined && !isMultiple(value, s.multipleOf))
    return [`must be a multiple of ${s.multipleOf}`, `Expected a multiple of ${s.multipleOf}.`];
  return undefined;
}

function isMultiple(value: number, factor: number): boolean {
  if (Number.isInteger(value) && Number.isInteger(factor)) return value % factor === 0;
  const quotient = value / factor;
  if (!Number.isFinite(quotient)) return false;
  // Binary fractions: 0.0075 / 0.0001 is 74.99999999999999, a multiple all the same.
  return Math.abs(quotient - Math.round(quotient)) <= 1e-9 * Math.max(1, Math.abs(quotient));
}

/**
 * The failure of a string's `minLength`, `pattern` and `format` (its `maxLength` and `enum` are
 * checked apart, as they stream), or `undefined`. The pattern's work is taken from `budget`; when
 * it runs out (`budget.steps < 0`), the pattern is not counted as failed: the caller stops there.
 */
export function stringFailure(value: string, s: SchemaNode, budget: StepBudget): KeywordFailure | undefined {
  if (s.minLength !== undefined && codePoints(value) < s.minLength)
    return [`must have at least ${s.minLength} characters`, `Expected at least ${s.minLength} characters.`];
  if (s.pattern && !matchesPattern(s.pattern, value, budget) && budget.steps >= 0)
    return ["must match its pattern", "Expected to match its pattern."];
  if (s.format !== undefined && !meetsFormat(s.format, value))
    return [`must be a valid ${s.format}`, `Expected a valid ${s.format}.`];
  return undefined;
}

/** The failure of `enum`/`const`: the values listed when there are few, counted when many. */
export function allowedFailure(s: SchemaNode): KeywordFailure {
  const list = s.allowed ?? [];
  if (list.length === 0)
    return [
      "must be none of the values it could be (its enum and const disagree)",
      "Expected no value (enum and const disagree).",
    ];
  if (list.length > LISTED_VALUES)
    return [
      `must be one of the ${thousands(list.length)} allowed values`,
      `Expected one of the ${thousands(list.length)} allowed values.`,
    ];
  const shown = list.map(shortJson).join(", ");
  return list.length === 1
    ? [`must be ${shown}`, `Expected ${shown}.`]
    : [`must be one of ${shown}`, `Expected one of ${shown}.`];
}

/** A value of the schema as JSON, cut to a few characters: a message stays short whatever the schema holds. */
function shortJson(value: JsonValue): string {
  const text = JSON.stringify(value) ?? "null";
  return text.length <= LISTED_LENGTH ? text : `${text.slice(0, LISTED_LENGTH - 1)}…`;
}

/**
 * The length of a string in Unicode code points (a lone surrogate counts as one), as `maxLength`
 * counts: `before` code points came before it, the last of which had the code `previous`.
 */
export function codePoints(text: string, before = 0, previous = 0): number {
  let count = before;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A low surrogate right after a high one is the second half of one code point.
    if (!(code >= 0xdc00 && code <= 0xdfff && isHighSurrogate(i > 0 ? text.charCodeAt(i - 1) : previous))) count++;
  }
  return count;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Whether a value is of a JSON Schema type (`integer`: a number with no fraction). */
export function hasType(value: JsonValue, type: string): boolean {
  if (type === "integer") return Number.isInteger(value);
  return typeOf(value) === type;
}

/** A value's JSON Schema type name. */
export function typeOf(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}

/**
 * JSON Schema's equality of two instances, for `enum` and `const`: objects with the same members
 * whatever their key order, arrays item by item in order, numbers by value.
 *
 * @example
 * ```ts
 * sameJson({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }); // true
 * sameJson([1, 2], [2, 1]); // false
 * ```
 */
export function sameJson(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (
    typeof a !== "object" ||
    typeof b !== "object" ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  if (Array.isArray(a))
    return a.length === (b as JsonValue[]).length && a.every((item, i) => sameJson(item, (b as JsonValue[])[i]!));
  const keys = Object.keys(a);
  const other = b as Record<string, JsonValue>;
  return (
    keys.length === Object.keys(other).length &&
    keys.every((key) => Object.hasOwn(other, key) && sameJson((a as Record<string, JsonValue>)[key]!, other[key]!))
  );
}
