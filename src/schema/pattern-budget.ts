/**
 * The patterns one request may have compiled: a Unicode property escape (`\p{L}`, `\P{Script=Han}`)
 * costs the runtime's `RegExp` constructor some 30 to 250 µs to read (and as much again when a
 * check first runs its set), against well under 1 µs for any other piece of a pattern, so a
 * request's schemas together may hold only so many.
 *
 * @module
 */

/** How many Unicode property escapes a {@link PatternBudget} allows by default: those of a request's schemas, in all. */
export const MAX_PROPERTY_ESCAPES = 64;

/**
 * The Unicode property escapes (`\p{...}`, `\P{...}`) a request's schemas may hold together,
 * shared by every `checkToolSchema` call of the request (one per tool). Each distinct pattern is
 * counted once (a runtime reads one source once, however often it is written), in its `pattern`
 * or as a `patternProperties` key; a pattern that would go past the budget is refused.
 *
 * @example
 * ```ts
 * import { checkToolSchema, PatternBudget } from "tool-call-stream";
 *
 * const patterns = new PatternBudget(); // 64 escapes for the whole request
 * const letters = { type: "string", pattern: "^\\p{L}+$" };
 * checkToolSchema(letters, "tools[0].parameters", { patterns }); // []: 1 escape counted
 * checkToolSchema(letters, "tools[1].parameters", { patterns }); // []: the same pattern, not counted again
 * ```
 */
export class PatternBudget {
  /** The escapes it allowed at first. */
  readonly limit: number;
  /** The escapes still allowed. */
  left: number;
  /** How many patterns were refused for want of escapes. */
  refused = 0;
  /** The sources already counted (only those that hold an escape). */
  readonly #counted = new Set<string>();

  /** A budget of `escapes` Unicode property escapes. */
  constructor(escapes: number = MAX_PROPERTY_ESCAPES) {
    this.limit = this.left = escapes;
  }

  /** Counts the escapes of `source` (once per distinct source): `false`, and counted as refused, when they do not fit. */
  take(source: string): boolean {
    if (this.#counted.has(source)) return true;
    const cost = propertyEscapes(source);
    if (cost === 0) return true;
    if (cost > this.left) {
      this.refused++;
      return false;
    }
    this.left -= cost;
    this.#counted.add(source);
    return true;
  }
}

/** How many `\p` and `\P` escapes a pattern holds (a backslash escapes the character after it, so `\\p` is none). */
export function propertyEscapes(source: string): number {
  let count = 0;
  for (let at = source.indexOf("\\"); at >= 0; at = source.indexOf("\\", at + 2)) {
    const next = source.charCodeAt(at + 1);
    if (next === 0x70 || next === 0x50) count++;
  }
  return count;
}
