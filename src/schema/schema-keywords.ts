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

/** The failure of a number's own keywords (its `integer` type aside), or `undefined`; `multipleOf`'s work is taken from `budget`. */
export function numberFailure(value: number, s: SchemaNode, budget: StepBudget): KeywordFailure | undefined {
  if (s.minimum !== undefined && value < s.minimum)
    return [`must be at least ${s.minimum}`, `Expected at least ${s.minimum}.`];
  if (s.maximum !== undefined && value > s.maximum)
    return [`must be at most ${s.maximum}`, `Expected at most ${s.maximum}.`];
  if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum)
    return [`must be greater than ${s.exclusiveMinimum}`, `Expected more than ${s.exclusiveMinimum}.`];
  if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum)
    return [`must be less than ${s.exclusiveMaximum}`, `Expected less than ${s.exclusiveMaximum}.`];
  if (s.multipleOf !== undefined && !isMultiple(value, s.multipleOf, budget))
    return [`must be a multiple of ${s.multipleOf}`, `Expected a multiple of ${s.multipleOf}.`];
  return undefined;
}

/**
 * Whether `value` is a whole multiple of `factor`, exactly, in decimal: each number is read as
 * the shortest decimal that JavaScript writes for it (the literal of the JSON text, `0.0075`, not
 * the binary fraction near it), so that `0.0075` is a multiple of `0.0001` and `1e10` one of
 * `1e-300`, where a division in floating point is inexact or overflows. A few big-integer steps
 * (the exponents of finite numbers are within ±324), charged to `budget` as what they cost: 0.7
 * to 6.4 µs in V8, some 16 to 100 of a check's steps. JSON's `1e400`, which reads as `Infinity`,
 * is no multiple (its digits are lost), never a throw.
 */
function isMultiple(value: number, factor: number, budget: StepBudget): boolean {
  if (Number.isSafeInteger(value) && Number.isSafeInteger(factor)) return value % factor === 0;
  if (!Number.isFinite(value)) return false;
  const [a, ea] = decimal(value);
  const [b, eb] = decimal(factor);
  const e = Math.min(ea, eb);
  budget.steps -= 16 + (Math.abs(ea - eb) >> 3);
  return (a * 10n ** BigInt(ea - e)) % (b * 10n ** BigInt(eb - e)) === 0n;
}

/** A finite number as `digits × 10^exponent`, from the shortest decimal JavaScript writes for it. */
function decimal(n: number): [digits: bigint, exponent: number] {
  const text = String(Math.abs(n)); // "4.5", "1e-300", "1.5e+21", "12391239123"
  const e = text.indexOf("e");
  const mantissa = e < 0 ? text : text.slice(0, e);
  const dot = mantissa.indexOf(".");
  const exponent = (e < 0 ? 0 : Number(text.slice(e + 1))) - (dot < 0 ? 0 : mantissa.length - dot - 1);
  return [BigInt(dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1)), exponent];
}

/**
 * The failure of a string's `minLength`, `pattern` and `format` (its `maxLength` and `enum` are
 * checked apart, as they stream), or `undefined`. The pattern's work is taken from `budget`; when
 * it runs out (`budget.steps < 0`), the pattern is not counted as failed: the caller stops there.
 */
export function stringFailure(value: string, s: SchemaNode, budget: StepBudget): KeywordFailure | undefined {
  if (s.minLength !== undefined && codePoints(value, 0, 0, budget) < s.minLength)
    return [`must have at least ${s.minLength} characters`, `Expected at least ${s.minLength} characters.`];
  if (s.pattern && !matchesPattern(s.pattern, value, budget) && budget.steps >= 0)
    return ["must match its pattern", "Expected to match its pattern."];
  if (s.format !== undefined && (budget.steps -= 1 + value.length) >= 0 && !meetsFormat(s.format, value))
    return [`must be a valid ${s.format}`, `Expected a valid ${s.format}.`];
  return undefined;
}

/**
 * The failure of `enum`/`const`: the values listed when there are few, counted when many. Built
 * once per schema: a value listed is written out as long as the schema wrote it before it is cut,
 * and thousands of items may fail it (each once wrote the whole value again, uncharged).
 */
export function allowedFailure(s: SchemaNode): KeywordFailure {
  return (s.allowedValues!.failure ??= listedFailure(s.allowed ?? []));
}

function listedFailure(list: readonly JsonValue[]): KeywordFailure {
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
  // JSON.parse reads 1e400 as Infinity, which JSON.stringify writes as `null`: named as read.
  const text = typeof value === "number" && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
  return text.length <= LISTED_LENGTH ? text : `${text.slice(0, LISTED_LENGTH - 1)}…`;
}

/**
 * The length of a string in Unicode code points (a lone surrogate counts as one), as `maxLength`
 * counts: `before` code points came before it, the last of which had the code `previous`; the
 * reading charged to `budget` (a step per 8 characters).
 */
export function codePoints(text: string, before: number, previous: number, budget: StepBudget): number {
  budget.steps -= 1 + (text.length >> 3);
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

/**
 * Whether a value is of a JSON Schema type (`integer`: a number with no fraction). ±Infinity
 * (JSON's `1e400`, past a double) is no `number` nor `integer`, as Ajv says by default
 * (`strictNumbers`): the app would read it as Infinity, which JSON.stringify writes as `null`.
 */
export function hasType(value: JsonValue, type: string): boolean {
  if (type === "integer") return Number.isInteger(value);
  if (type === "number") return Number.isFinite(value);
  return typeOf(value) === type;
}

/**
 * The early check's sentence when a number is not of its schema's `type` (an `integer` with a
 * fraction, or ±Infinity, which {@link hasType} says no type holds), or `undefined`.
 */
export function numberTypeFailure(value: number, s: SchemaNode): string | undefined {
  if (!s.types || s.types.some((type) => hasType(value, type))) return undefined;
  return Number.isFinite(value) ? "Expected an integer." : "Expected a number within what a double holds.";
}

/** A value's JSON Schema type name. */
export function typeOf(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}
