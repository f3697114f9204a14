/** What the early check reads from a value's first character and text: its kind, which allowed strings still fit, JSON Pointer tokens. */
import type { StepBudget } from "./pattern/pattern-vm.ts";

/** The kind of a value, by its first character (numbers otherwise). */
export const KINDS: Record<number, string> = {
  123: "object",
  91: "array",
  34: "string",
  116: "boolean",
  102: "boolean",
  110: "null",
};

/** The part of a sorted list of strings still possible: its items `lo` to `hi` (excluded). */
export interface Range {
  lo: number;
  hi: number;
}

/**
 * Narrows `range` of `options` (sorted by UTF-16 code units, each once; every string in the
 * range begins with the `from` characters checked so far) to the strings that go on with `added`
 * (that end there, when `done`), by binary search: a few comparisons per fragment, whatever the
 * length of the list, each character compared charged to `budget`.
 */
export function narrow(
  options: readonly string[],
  range: Range,
  added: string,
  from: number,
  done: boolean,
  budget: StepBudget,
): void {
  let { lo, hi } = range;
  let at = 0;
  if (lo < hi) {
    // What every string of the range shares (the first's and the last's common part, as they are
    // sorted) is read once: the comparisons of the searches start after it.
    const [first, last] = [options[lo]!, options[hi - 1]!];
    while (at < added.length && first.charCodeAt(from + at) === last.charCodeAt(from + at)) {
      if (first.charCodeAt(from + at) !== added.charCodeAt(at)) {
        hi = lo;
        break;
      }
      at++;
    }
    budget.steps -= 1 + at;
  }
  if (at < added.length && lo < hi) {
    // The first string whose next characters are not below `added`, then the first above it.
    let [a, b] = [lo, hi];
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (compareAt(options[mid]!, from + at, added, at, budget) < 0) a = mid + 1;
      else b = mid;
    }
    lo = a;
    b = hi;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (compareAt(options[mid]!, from + at, added, at, budget) <= 0) a = mid + 1;
      else b = mid;
    }
    hi = a;
  }
  // A string that ends here sorts before the longer ones that go on from it.
  if (done) hi = lo < hi && options[lo]!.length === from + added.length ? lo + 1 : lo;
  range.lo = lo;
  range.hi = hi;
}

/** How `option`'s characters from `from` on compare with `added`'s from `skip` on (a string that ends first is below it). */
function compareAt(option: string, from: number, added: string, skip: number, budget: StepBudget): number {
  budget.steps--;
  for (let i = skip; i < added.length; i++) {
    const at = from + i - skip;
    if (at >= option.length) return -1;
    const difference = option.charCodeAt(at) - added.charCodeAt(i);
    if (difference !== 0) return difference;
    budget.steps--;
  }
  return 0;
}

/** A key as a JSON Pointer token (RFC 6901): `~` and `/` escaped. */
export function pointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
