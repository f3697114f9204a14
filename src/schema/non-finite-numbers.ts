import { member } from "./bounded-issues.ts";

/**
 * `checkToolSchema`'s walk for numbers JSON has no form of, anywhere in a schema.
 *
 * @module
 */

/** Why a number JSON.parse read as ±Infinity (`1e400`) is refused. */
const PAST_DOUBLE = "is a number past what a double holds (about 1.8e308)";

/**
 * Reports every number of `value` that is not finite, at its JSON path from `path`: ±Infinity
 * (JSON's `1e400`, past a double) and NaN (no JSON at all). Every keyword's value is walked,
 * annotations and unknown keywords too: the Worker sends a schema on as JSON, in which
 * JSON.stringify writes such a number as `null` (`const: 1e400` would reach the provider as
 * `const: null`). Iterative, each value once (a path is built per container, one concatenation
 * each): linear in the value's size, whatever its depth.
 */
export function nonFiniteNumbers(value: unknown, path: string, report: (at: string, message: string) => void): void {
  const stack: [unknown, string][] = [[value, path]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [at, where] = next;
    if (typeof at === "number" && !Number.isFinite(at))
      report(where, Number.isNaN(at) ? "is NaN, which JSON has no number for" : PAST_DOUBLE);
    if (at === null || typeof at !== "object") continue;
    // Pushed in reverse, so that they are reported in the order they are written.
    if (Array.isArray(at)) for (let i = at.length - 1; i >= 0; i--) stack.push([at[i], `${where}[${i}]`]);
    else {
      const keys = Object.keys(at);
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push([(at as Record<string, unknown>)[keys[i]!], `${where}${member(keys[i]!)}`]);
    }
  }
}
