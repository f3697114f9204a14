import type { CheckBudget } from "./check-budget.ts";
import { boundIssue, MAX_ISSUES } from "./bounded-issues.ts";
import type { KeywordFailure } from "./schema-keywords.ts";
import type { SchemaNode } from "./schema-node.ts";

/**
 * One run of the final check: the issues it found (bounded), the budget it draws from, and how
 * an issue names the place of a value.
 *
 * @module
 */

/** The most characters of a key in a path. */
export const KEY_LENGTH = 40;

/** A value's place, built into text only when an issue names it. */
export type Path = { readonly up: Path; readonly key: string | number } | undefined;

/** The state of one final check. */
export interface Run {
  issues: string[];
  more: number;
  budget: CheckBudget;
  root: string;
  /** How many schemas the check is inside of (at most `MAX_CHECK_NESTING`). */
  nesting: number;
  /** How many times a chain of in-place schemas was cut (`MAX_IN_PLACE`): a verdict reached past one is not kept. */
  cuts: number;
  /** The verdicts of the schemas reached by more than one way, by value: valid, or not (and where it was reported). */
  memo?: Map<SchemaNode, Map<unknown, boolean | [at: Path]>>;
  /** Each object's keys, listed (and charged) once. */
  keys?: WeakMap<object, string[]>;
}

/** An object's own keys, listed once per check and charged a step each then. */
export function keysOf(run: Run, value: object): string[] {
  let keys = (run.keys ??= new WeakMap()).get(value);
  if (!keys) {
    run.keys.set(value, (keys = Object.keys(value)));
    run.budget.steps -= keys.length;
  }
  return keys;
}

function render(run: Run, path: Path): string {
  const parts: string[] = [];
  for (let at = path; at; at = at.up) {
    const key = at.key;
    parts.push(
      typeof key === "number" ? `[${key}]` : `.${key.length > KEY_LENGTH ? `${key.slice(0, KEY_LENGTH - 1)}…` : key}`,
    );
  }
  return run.root + parts.reverse().join("");
}

/** Reports an issue at `path` (unless `quiet`: a branch where only the verdict matters), at most {@link MAX_ISSUES}, then counted. */
export function report(run: Run, quiet: boolean, path: Path, text: string | KeywordFailure): void {
  if (quiet) return;
  if (run.issues.length >= MAX_ISSUES) {
    run.more++;
    return;
  }
  run.issues.push(boundIssue(`${render(run, path)} ${typeof text === "string" ? text : text[0]}`));
}
