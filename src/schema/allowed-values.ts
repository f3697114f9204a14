import type { JsonValue } from "../shared/json.ts";
import { canonicalJson, type CheckBudget } from "./check-budget.ts";
import type { StepBudget } from "./pattern/pattern-vm.ts";
import { HASHED_LENGTH, type Pieces, textKey } from "./text-keys.ts";

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
  /** Numbers, booleans, `null`, and strings by their {@link textKey} (a `Set` compares numbers by value). */
  readonly primitives: ReadonlySet<string | number | boolean | null>;
  /** Arrays and objects, by the {@link textKey} of their canonical JSON. */
  readonly composites: ReadonlySet<string>;
  /** The pieces of the long strings the keys of both sets are made of. */
  readonly pieces: Pieces;
  /** The allowed strings, each once. */
  readonly texts: readonly string[];
  /** The kinds of value allowed, as bits of {@link kindBit}. */
  readonly kinds: number;
  /** The allowed strings, sorted by UTF-16 code units, each once: built when the early check first needs them ({@link sortedStrings}). */
  strings?: readonly string[];
  /** The failure that names them (built at the first value that fails them: their JSON is as long as the schema wrote them). */
  failure?: readonly [string, string];
}

/** The allowed strings, sorted by UTF-16 code units, each once (sorted at the first call, then kept). */
export function sortedStrings(allowed: AllowedValues): readonly string[] {
  allowed.strings ??= [...allowed.texts].sort();
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
  const [pieces, texts]: [Pieces, string[]] = [new Map(), []];
  let kinds = 0;
  for (const value of values) {
    budget.steps--;
    kinds |= kindOf(value);
    if (value !== null && typeof value === "object") {
      const form = canonicalJson(value, budget);
      if (form !== undefined) composites.add(textKey(form, pieces)!);
    } else if (typeof value !== "string") primitives.add(value);
    else {
      const key = textKey(value, pieces)!;
      if (!primitives.has(key)) primitives.add(key) && texts.push(value);
    }
  }
  return { values, allowed: { primitives, composites, pieces, texts, kinds } };
}

/**
 * Whether a value is one of the allowed ones, charged to `budget` (an array's or object's
 * canonical form is built once per call and kept in the budget); `undefined` when the budget ran out.
 */
export function isAllowed(allowed: AllowedValues, value: JsonValue, budget: CheckBudget): boolean | undefined {
  budget.steps--;
  // A long text's key is made again at each ask (V8 keeps a string's hash, not its pieces'); one of
  // a piece never keyed is in neither set.
  const has = (set: ReadonlySet<unknown>, text: string): boolean => {
    if (text.length > HASHED_LENGTH) budget.steps -= text.length >> 4;
    return set.has(textKey(text, allowed.pieces, false));
  };
  if (typeof value === "string") return has(allowed.primitives, value);
  if (value === null || typeof value !== "object") return allowed.primitives.has(value);
  if (allowed.composites.size === 0) return false;
  const form = canonicalJson(value, budget);
  return form === undefined ? undefined : has(allowed.composites, form);
}
