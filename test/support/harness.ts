// A runtime-neutral test registry: case files register cases here, and one thin runner per
// runtime (vitest for Node, workerd and Chromium; Deno.test for Deno) runs the same list.
import type { SharedData } from "./shared-data.ts";

/** One test case, runnable in every runtime. */
export interface TestCase {
  group: string;
  name: string;
  run: () => void | Promise<void>;
  /** The data sets of ../shared the case reads: when one is absent, the runners skip it by name. */
  needs?: SharedData[];
}

/** Every registered case, in registration order. */
export const cases: TestCase[] = [];

/** What a case (or every case of a group) needs to run. */
export interface CaseOptions {
  needs?: SharedData[];
}

/** What `test` returns: `.needs("recordings")` after a case says it reads the recordings. */
export interface RegisteredCase {
  needs(...sets: SharedData[]): void;
}

/**
 * Registers the cases of one group: `define((name, run) => ...)`. A case that reads the recorded
 * streams says so, `test(name, run).needs("recordings")` (or the whole group, with
 * `{ needs: ["recordings"] }` as the third argument of `group`), so a clone without ../shared
 * skips it by name instead of failing.
 */
export function group(
  name: string,
  define: (test: (caseName: string, run: TestCase["run"]) => RegisteredCase) => void,
  options: CaseOptions = {},
): void {
  define((caseName, run) => {
    const testCase: TestCase = {
      group: name,
      name: caseName,
      run,
      ...(options.needs ? { needs: [...options.needs] } : {}),
    };
    cases.push(testCase);
    return {
      needs: (...sets) => {
        testCase.needs = [...(testCase.needs ?? []), ...sets];
      },
    };
  });
}

/** Registers a case file that cannot load without data it needs as one case named after it, so the runners skip it by name. */
export function skippedFile(file: string, needs: SharedData[]): void {
  cases.push({ group: file, name: "every case of this file (it reads the data as it loads)", run: () => {}, needs });
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

/** The error a call throws, or undefined when it returns. */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** What an asynchronous call throws or rejects with, or undefined when it settles. */
export async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}
