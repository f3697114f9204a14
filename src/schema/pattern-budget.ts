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
 * How many instructions the patterns of a request's schemas may compile to by default, in all
 * (each `pattern` and `patternProperties` key a program of its own, 12 bytes an instruction, kept
 * for the request once it first runs): at most 3 MB. Without it, a 234 KB schema of 5,000
 * `a{19999}` patterns (20,000 instructions each) and 59 KB of a model's arguments kept 44 MB.
 */
export const MAX_PATTERN_INSTRUCTIONS = 250_000;

/**
 * The Unicode property escapes (`\p{...}`, `\P{...}`) a request's schemas may hold together,
 * shared by every `checkToolSchema` call of the request (one per tool). Each distinct pattern is
 * counted once (a runtime reads one source once, however often it is written), in its `pattern`
 * or as a `patternProperties` key; a pattern that would go past the budget is refused. And the
 * instructions their patterns compile to ({@link MAX_PATTERN_INSTRUCTIONS}), each place a pattern
 * is written counted (each is a program of its own): a schema that goes past them is refused.
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
  /** The instructions the patterns may compile to, in all, at first. */
  readonly instructionLimit: number;
  /** The instructions still allowed; below 0, past them. */
  instructionsLeft: number;
  /** The sources already counted (only those that hold an escape). */
  readonly #counted = new Set<string>();

  /** A budget of `escapes` Unicode property escapes, and of `instructions` compiled instructions. */
  constructor(escapes: number = MAX_PROPERTY_ESCAPES, instructions: number = MAX_PATTERN_INSTRUCTIONS) {
    this.limit = this.left = escapes;
    this.instructionLimit = this.instructionsLeft = instructions;
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
