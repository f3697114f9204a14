import type { JsonValue } from "../shared/json.ts";
import type { StepBudget } from "./pattern/pattern-vm.ts";
import { thousands } from "./bounded-issues.ts";

/**
 * The work budget of a call's schema checks: one per call, sized from the call's arguments, and
 * counted down by real work (everything the checks call included: `propertyNames`, `enum`,
 * `uniqueItems`, the regex engine). The early check spends it as the arguments stream; the final
 * check is granted it whole again ({@link CheckBudget.renew}), so that its verdict never depends on
 * what the early check spent (shared, a valid value both checks fit alone was refused as
 * unchecked), and a call's checks take at most twice {@link MAX_CALL_CHECK_STEPS} together. A
 * response's calls draw their final checks from one pool ({@link ResponseBudgets}), so that no
 * response holds its thread for long.
 *
 * @module
 */

/** The steps every call's checks may take, whatever the length of its arguments. */
export const CHECK_STEPS_BASE = 20_000;
/** The steps each character of a call's arguments adds to its budget. */
export const CHECK_STEPS_PER_CHARACTER = 50;
/** The most steps one of a call's checks takes (the early one, or the final one), however long its arguments. */
export const MAX_CALL_CHECK_STEPS = 2_000_000;
/** The most steps the final checks of one response's calls take together (early checks aside, which run as the arguments stream, a fragment at a time). */
export const MAX_RESPONSE_CHECK_STEPS = 8_000_000;
/**
 * The most of {@link CHECK_STEPS_BASE} the calls of one response are given together: the first
 * 100 calls have it whole, the rest only their steps per character, so that a response of a
 * thousand tiny calls (`{}`, 2 characters, against a costly schema) costs steps in proportion to
 * its bytes (the early checks, which no pool bounds, took 20,000 steps a call: 20 million for the
 * 1,024 calls a response may hold).
 */
export const MAX_RESPONSE_BASE_STEPS = 2_000_000;
/**
 * The steps of the work done once per request's schema that one response's calls may take from a
 * pool of their own (building a pattern's program and sets, `LinearPattern`), so that a call past
 * the 100th, which has only its steps per character, is not refused for being the first to need a
 * pattern; past the pool, the call pays.
 */
export const MAX_RESPONSE_BUILD_STEPS = 500_000;

/**
 * The budget of one call's checks: {@link CHECK_STEPS_BASE} (or the `base` given: a response's
 * calls share {@link MAX_RESPONSE_BASE_STEPS} of it) plus {@link CHECK_STEPS_PER_CHARACTER} per
 * character of its arguments (UTF-16 code units), at most {@link MAX_CALL_CHECK_STEPS}, granted as
 * the arguments arrive ({@link CheckBudget.allow}).
 *
 * @example
 * ```ts
 * const budget = new CheckBudget();
 * budget.allow('{"city":"Paris"}'.length); // 20,000 + 50 x 16 steps
 * checkToolArguments({ city: "Paris" }, schema, { budget });
 * budget.exhausted; // false
 * ```
 */
export class CheckBudget {
  /** The steps left; below 0, exhausted. */
  declare steps: number;
  /** The steps granted so far. */
  declare granted: number;
  /** The checks stopped at {@link MAX_CHECK_NESTING} levels, not for want of steps (`steps` is then spent too). */
  declare deep: true | undefined;
  /** The code point a pattern's property escape stopped at: the runtimes' Unicode versions give it other properties. */
  declare unsettled: number | undefined;
  /** Canonical forms of the values checked (arrays and objects), each built once per call. */
  readonly canonical: WeakMap<object, string> = new WeakMap();
  /** The response's pool for work done once per request's schema ({@link MAX_RESPONSE_BUILD_STEPS}), if the budget is a response's call's. */
  declare builds: { steps: number } | undefined;
  readonly #cap: number;
  readonly #base: number;

  /**
   * A budget of `characters` characters of arguments (more may be allowed later), at most `cap`
   * steps, `base` of them whatever the characters.
   */
  constructor(characters = 0, cap: number = MAX_CALL_CHECK_STEPS, base: number = CHECK_STEPS_BASE) {
    this.#cap = cap;
    this.#base = base;
    this.renew(characters);
  }

  /**
   * The arguments are `characters` long now: the budget grows to match (it never shrinks). Once
   * exhausted it stays so: a check that ran out stopped, and what it skipped is not done later.
   */
  allow(characters: number): void {
    if (this.steps < 0) return;
    const total = Math.min(this.#cap, this.#base + CHECK_STEPS_PER_CHARACTER * characters);
    if (total <= this.granted) return;
    this.steps += total - this.granted;
    this.granted = total;
  }

  /**
   * The call's next check begins (the final one, after the early one): the budget for arguments
   * `characters` long is granted whole again, whatever the previous check spent (it may have run
   * out), so that each check has a budget of its own.
   */
  renew(characters: number): void {
    this.steps = this.granted = 0;
    this.unsettled = undefined;
    this.allow(characters);
  }

  /** Whether the checks ran out of steps (then the value could not be checked). */
  get exhausted(): boolean {
    return this.steps < 0;
  }

  /** The steps taken so far. */
  get spent(): number {
    return this.granted - this.steps;
  }
}

/**
 * The budgets of one response's calls: each call's own ({@link CheckBudget}, by its key, its base
 * drawn from {@link MAX_RESPONSE_BASE_STEPS}), and a pool of {@link MAX_RESPONSE_CHECK_STEPS} the
 * final checks draw from, so that a response whose calls all complete at once (at its finish)
 * checks them in a bounded time.
 */
class ResponseBudgets {
  readonly #calls = new Map<number, CheckBudget>();
  #left = MAX_RESPONSE_CHECK_STEPS;
  #base = MAX_RESPONSE_BASE_STEPS;
  readonly #builds: StepBudget = { steps: MAX_RESPONSE_BUILD_STEPS };

  /** The budget of the call of key `key` (created at first use). */
  of(key: number): CheckBudget {
    let budget = this.#calls.get(key);
    if (!budget) {
      const base = Math.min(CHECK_STEPS_BASE, this.#base);
      this.#base -= base;
      this.#calls.set(key, (budget = new CheckBudget(0, MAX_CALL_CHECK_STEPS, base)));
      budget.builds = this.#builds;
    }
    return budget;
  }

  /**
   * Runs a call's final check (`check`), its arguments `characters` long, with the call's budget
   * granted whole again (whatever its early check spent), at most what the response has left;
   * then the final check's steps are taken from the response's pool, and the call's budget dropped.
   */
  judge<T>(key: number, characters: number, check: (budget: CheckBudget) => T): T {
    const budget = this.of(key);
    budget.renew(characters);
    // Capped by the pool: what it grants is what its message names.
    if (budget.steps > this.#left) budget.steps = budget.granted = Math.max(0, this.#left);
    const before = budget.steps;
    try {
      return check(budget);
    } finally {
      this.#left -= before - budget.steps;
      this.#calls.delete(key);
    }
  }
}

const responses = new WeakMap<object, ResponseBudgets>();

/**
 * The budgets of the calls of one response, by the object that stands for it (the accumulator:
 * the early-validation plug-in is given it, and the validator is told it with each call).
 */
export function responseBudgets(response: object): ResponseBudgets {
  let budgets = responses.get(response);
  if (!budgets) responses.set(response, (budgets = new ResponseBudgets()));
  return budgets;
}

/** A call's key in a response: a number, so that no string is built per fragment (indexes stay far below 2^32). */
export function budgetKey(index: number, choice = 0): number {
  return choice * 2 ** 32 + index;
}

/**
 * The deepest the checks follow a value: schemas applied one inside another (into an item or a
 * property, through a `$ref` or an `allOf`), or levels of a value whose canonical form `enum`,
 * `const` or `uniqueItems` compare. The checks recurse (some 2,300 nested schemas overflowed
 * Node's default stack): past it a check stops as when its budget runs out, never overflowing the
 * stack, on a value an accumulator with a raised `maxDepth` let through or one given to
 * `checkToolArguments` directly.
 */
export const MAX_CHECK_NESTING = 500;

/**
 * Why a check that ran out stopped, for its message: a pattern's property escape met a code point
 * the runtimes' Unicode versions disagree on, the value and its schemas nested past
 * {@link MAX_CHECK_NESTING} levels, or the steps it was granted (the call's, or what its response
 * had left) spent.
 *
 * @example
 * ```ts
 * `$ could not be checked ${budgetWords(budget)}`; // "$ could not be checked within its budget of 2,000,000 steps"
 * ```
 */
export const budgetWords = (budget: CheckBudget): string =>
  budget.unsettled !== undefined
    ? `alike on every runtime: U+${budget.unsettled.toString(16).toUpperCase().padStart(4, "0")} has other Unicode properties in Unicode 16 than in 17, which runtimes differ in`
    : budget.deep
      ? `past ${MAX_CHECK_NESTING} levels of nesting`
      : `within its budget of ${thousands(budget.granted)} steps`;

/** Stops the checks at {@link MAX_CHECK_NESTING}: the budget is spent, and says why. */
export function stopDeep(budget: CheckBudget | StepBudget): false {
  (budget as CheckBudget).deep = true; // on a bare StepBudget, read by no one
  budget.steps = -1;
  return false;
}

/**
 * A value's canonical JSON (object keys sorted, numbers as JavaScript writes them, so `1` and
 * `1.0` are one), for `enum`, `const` and `uniqueItems`: equal values as JSON Schema says have
 * equal forms. Arrays' and objects' forms are kept in `budget` (built once per value), each
 * charged per element and character; `undefined` when the budget runs out, which a value nested
 * deeper than {@link MAX_CHECK_NESTING} levels runs out of.
 */
export function canonicalJson(value: JsonValue, budget: CheckBudget | StepBudget, depth = 0): string | undefined {
  if (value === null || typeof value !== "object") {
    budget.steps -= 1 + (typeof value === "string" ? value.length >> 4 : 0);
    // JSON has no infinity, but JSON.parse reads 1e400 as one: never the same as null.
    return typeof value === "number" && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
  }
  const memo = budget instanceof CheckBudget ? budget.canonical : undefined;
  const known = memo?.get(value);
  if (known !== undefined) {
    budget.steps--;
    return known;
  }
  if (depth >= MAX_CHECK_NESTING) {
    stopDeep(budget);
    return undefined;
  }
  let text: string;
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const item of value) {
      const part = canonicalJson(item, budget, depth + 1);
      if (part === undefined || budget.steps < 0) return undefined;
      parts.push(part);
    }
    text = `[${parts.join(",")}]`;
  } else {
    const keys = Object.keys(value).sort();
    budget.steps -= keys.length;
    const parts: string[] = [];
    for (const key of keys) {
      const part = canonicalJson(value[key]!, budget, depth + 1);
      if (part === undefined || budget.steps < 0) return undefined;
      parts.push(`${JSON.stringify(key)}:${part}`);
    }
    text = `{${parts.join(",")}}`;
  }
  // 8 steps a composite beside its keys and characters (its parts, their join, sorting its keys,
  // keeping its form): without them, 20,000 small objects cost some 3 times the steps of a check of
  // the same objects against a schema that goes as far into them.
  budget.steps -= 8 + (text.length >> 4);
  if (budget.steps < 0) return undefined;
  memo?.set(value, text);
  return text;
}
