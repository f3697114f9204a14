import { member } from "./bounded-issues.ts";

/**
 * `checkToolSchema`'s walk for numbers JSON has no form of, anywhere in a schema.
 *
 * @module
 */

/** Why a number JSON.parse read as ±Infinity (`1e400`) is refused. */
const PAST_DOUBLE = "is a number past what a double holds (about 1.8e308)";

/** A value the walk reached: its container's, and its index or key there (none at the root). */
type Place = readonly [value: unknown, up: Place | undefined, at: number | string];

/** A place's JSON path from `path`, built when a number there is reported. */
function pathOf(place: Place, path: string): string {
  const segments: string[] = [];
  for (let at: Place | undefined = place; at?.[1]; at = at[1])
    segments.push(typeof at[2] === "number" ? `[${at[2]}]` : member(at[2]));
  return path + segments.reverse().join("");
}

/**
 * Reports every number of `value` that is not finite, at its JSON path from `path`: ±Infinity
 * (JSON's `1e400`, past a double) and NaN (no JSON at all). Every keyword's value is walked,
 * annotations and unknown keywords too: the Worker sends a schema on as JSON, in which
 * JSON.stringify writes such a number as `null` (`const: 1e400` would reach the provider as
 * `const: null`). Iterative, each value once: linear in the value's size, whatever its depth. A
 * path is built only when `report` asks for it (`at()`: a path per array and object took 2/3 of
 * checkToolSchema's time on a 6.6 MB `enum`), which it does for the issues it keeps, at most 20.
 * Each object once too, at the first place that reaches it: an app's schema may hold one object in
 * many places (2^n ways down n levels of `anyOf: [s, s]`) or in a cycle, as JSON never does, and
 * the schema's other walks read it once.
 */
export function nonFiniteNumbers(
  value: unknown,
  report: (at: () => string, message: string) => void,
  path: string,
): void {
  const stack: Place[] = [[value, undefined, ""]];
  const walked = new Set<object>();
  for (let next = stack.pop(); next; next = stack.pop()) {
    const at = next[0];
    if (typeof at === "number" && !Number.isFinite(at)) {
      const place = next;
      report(() => pathOf(place, path), Number.isNaN(at) ? "is NaN, which JSON has no number for" : PAST_DOUBLE);
    }
    if (at === null || typeof at !== "object" || walked.has(at)) continue;
    walked.add(at);
    // Pushed in reverse, so that they are reported in the order they are written.
    if (Array.isArray(at)) for (let i = at.length - 1; i >= 0; i--) stack.push([at[i], next, i]);
    else {
      const keys = Object.keys(at);
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push([(at as Record<string, unknown>)[keys[i]!], next, keys[i]!]);
    }
  }
}
