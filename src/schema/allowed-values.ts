import type { JsonValue } from "../shared/json.ts";
import { canonicalJson, type CheckBudget } from "./check-budget.ts";
import type { StepBudget } from "./pattern/pattern-vm.ts";

/**
 * `enum` and `const` as the checks read them, built once when the schema compiles: a set of the
 * allowed values' canonical forms (membership in a step or a few, whatever the length of the
 * list), the kinds of value among them (for the early check's first character), and their
 * strings sorted (for the early check's narrowing by binary search as a string streams).
 *
 * @module
 */

/** The allowed values of one schema (`enum` and `const` together). */
export interface AllowedValues {
  /** Strings, numbers, booleans and `null`, as they are (a `Set` compares numbers by value). */
  readonly primitives: ReadonlySet<string | number | boolean | null>;
  /** Arrays and objects, by their canonical JSON. */
  readonly composites: ReadonlySet<string>;
  /** The kinds of value allowed, as bits of {@link kindBit}. */
  readonly kinds: number;
  /** The allowed strings, sorted by UTF-16 code units, each once: built when the early check first needs them ({@link sortedStrings}). */
  strings?: readonly string[];
  /** The failure that names them (built at the first value that fails them: their JSON is as long as the schema wrote them). */
  failure?: readonly [string, string];
}

/** The allowed strings, sorted by UTF-16 code units, each once (sorted at the first call, then kept). */
export function sortedStrings(allowed: AllowedValues): readonly string[] {
  allowed.strings ??= [...allowed.primitives].filter((value): value is string => typeof value === "string").sort();
  return allowed.strings;
}

/** The kinds of value as bits, by the first character of their JSON text (a number otherwise). */
const KIND_BITS: Record<number, number> = { 123: 1, 91: 2, 34: 4, 116: 8, 102: 16, 110: 32 };

/** A value's kind by the first character of its JSON text, as a bit: `{`, `[`, `"`, `t`, `f`, `n`, or a number. */
export function kindBit(first: number): number {
  return KIND_BITS[first] ?? 64;
}

function kindOf(value: JsonValue): number {
  if (value === null) return 32;
  if (Array.isArray(value)) return 2;
  if (typeof value === "boolean") return value ? 8 : 16;
  return typeof value === "object" ? 1 : typeof value === "string" ? 4 : 64;
}

/**
 * The allowed values of `enum` (`list`) and `const` (`constant`, when given: only the values of
 * the list equal to it, or it alone without a list), each looked at once, charged to `budget`.
 */
export function allowedValues(
  list: readonly JsonValue[] | undefined,
  constant: JsonValue | undefined,
  budget: StepBudget,
): { values: JsonValue[]; allowed: AllowedValues } {
  let values = list ? [...list] : [];
  if (constant !== undefined) {
    const wanted = canonicalJson(constant, budget);
    values = list ? values.filter((option) => canonicalJson(option, budget) === wanted) : [constant];
  }
  const primitives = new Set<string | number | boolean | null>();
  const composites = new Set<string>();
  let kinds = 0;
  for (const value of values) {
    budget.steps--;
    kinds |= kindOf(value);
    if (value !== null && typeof value === "object") {
      const form = canonicalJson(value, budget);
      if (form !== undefined) composites.add(form);
    } else primitives.add(value);
  }
  return { values, allowed: { primitives, composites, kinds } };
}

/**
 * Whether a value is one of the allowed ones, charged to `budget` (an array's or object's
 * canonical form is built once per call and kept in the budget); `undefined` when the budget ran out.
 */
export function isAllowed(allowed: AllowedValues, value: JsonValue, budget: CheckBudget): boolean | undefined {
  budget.steps--;
  if (value === null || typeof value !== "object") return allowed.primitives.has(value);
  if (allowed.composites.size === 0) return false;
  const form = canonicalJson(value, budget);
  return form === undefined ? undefined : allowed.composites.has(form);
}
