// A runtime-neutral test registry: case files register cases here, and one thin runner per
// runtime (vitest for Node, workerd and Chromium; Deno.test for Deno) runs the same list.

/** One test case, runnable in every runtime. */
export interface TestCase {
  group: string;
  name: string;
  run: () => void | Promise<void>;
}

/** Every registered case, in registration order. */
export const cases: TestCase[] = [];

/** Registers the cases of one group: `define((name, run) => ...)`. */
export function group(name: string, define: (test: (caseName: string, run: TestCase["run"]) => void) => void): void {
  define((caseName, run) => cases.push({ group: name, name: caseName, run }));
}

/** Throws when `condition` is false. */
export function assert(condition: unknown, message = "assertion failed"): asserts condition {
  if (!condition) throw new Error(message);
}

/** Deep structural equality for JSON-like values (own enumerable keys, order-insensitive). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every(
    (key) =>
      Object.hasOwn(b, key) && deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/** Throws with both values when they are not deeply equal. */
export function assertEquals(actual: unknown, expected: unknown, message = "values differ"): void {
  if (!deepEqual(actual, expected)) {
    throw new Error(`${message}\n  actual:   ${JSON.stringify(actual)}\n  expected: ${JSON.stringify(expected)}`);
  }
}
