import { repeatedName } from "../json/repeated-name.ts";
import type { JsonValue } from "../shared/json.ts";
import type { CheckBudget } from "./check-budget.ts";
import { boundIssue, MAX_ISSUES } from "./bounded-issues.ts";
import type { KeywordFailure } from "./schema-keywords.ts";
import type { SchemaNode } from "./schema-node.ts";
import type { StepBudget } from "./pattern/pattern-vm.ts";

/**
 * One run of the final check: the issues it found (bounded), the budget it draws from, and how
 * an issue names the place of a value.
 *
 * @module
 */

/** Options of `checkArguments`. */
export interface CheckArgumentsOptions {
  /** The name of the top value in the issues. @defaultValue "$" */
  path?: string | undefined;
  /** Check `format` (date-time, date, time, email, uri, uuid, ipv4, ipv6) rather than read it as an annotation. @defaultValue false */
  assertFormats?: boolean | undefined;
  /** The call's work budget (granted whole again after its early check); by default, the most a call may have. */
  budget?: CheckBudget | undefined;
  /** The JSON text the value was read from: a member name one of its objects repeats is an issue. */
  text?: string | undefined;
}

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
  /** The dynamic scope the check is in ({@link Scope}). */
  scope: Scope;
  /** The verdicts kept, as {@link Scope}'s, of the schemas no `$dynamicRef` is reached from (decided). */
  memo?: Scope["memo"];
  /** Each object's keys, listed (and charged) once. */
  keys?: WeakMap<object, string[]>;
}

/**
 * The most resources binding a `$dynamicAnchor` name of their own that a dynamic scope holds: past
 * it (a path through more resources, each naming anchors the others do not), every `$dynamicRef`
 * accepts anything, as the checks do past their other limits, so that a look-up takes at most so
 * many steps.
 */
export const MAX_DYNAMIC_SCOPE = 64;

/**
 * A dynamic scope: the resources entered on the way to a schema that bind a `$dynamicAnchor` name
 * (one whose names an outer resource all binds already changes nothing: only the outermost of a
 * name counts), each scope built once per run and kept with the scopes entering a resource leads
 * to, the names looked up in it, and the verdicts of the schemas reached by more than one way in it, by value: valid (with
 * what it evaluated of the value, when that was asked), or not (and where it was reported).
 * `deep`: past {@link MAX_DYNAMIC_SCOPE}, or not known (the early check's `propertyNames`).
 */
export interface Scope {
  up?: Scope;
  anchors?: ReadonlyMap<string | true, SchemaNode>;
  depth?: number;
  deep?: true;
  next?: Map<object, Scope>;
  found?: Map<string | true, SchemaNode | null>;
  memo?: Map<SchemaNode, Map<unknown, boolean | [at: Path] | Marks>>;
}

/**
 * The schema of the outermost resource in `scope` with the anchor `name`: a step per scope it asks,
 * each kept (found once per scope and name), so at most {@link MAX_DYNAMIC_SCOPE} the first time.
 */
export function bound(scope: Scope, name: string | true, budget: StepBudget): SchemaNode | undefined {
  budget.steps--;
  let found = (scope.found ??= new Map()).get(name);
  if (found === undefined)
    scope.found.set(name, (found = (scope.up && bound(scope.up, name, budget)) ?? scope.anchors?.get(name) ?? null));
  return found ?? undefined;
}

/** Enters the resource whose `$dynamicAnchor`s are `anchors` (looked up once per scope it is entered from). */
export function enter(run: Run, anchors: ReadonlyMap<string | true, SchemaNode>): void {
  const from = run.scope;
  const depth = (from.depth ?? 0) + 1;
  let to = (from.next ??= new Map()).get(anchors);
  if (!to) {
    to =
      from.deep || ![...anchors.keys()].some((name) => !bound(from, name, run.budget))
        ? from
        : { up: from, anchors, depth };
    if (depth > MAX_DYNAMIC_SCOPE && to !== from) to = { deep: true };
    from.next.set(anchors, to);
  }
  run.scope = to;
}

/**
 * What a schema and those it applies in place evaluated of one object's keys (an array's
 * indexes), for `unevaluatedProperties` (`unevaluatedItems`): all of them, or those listed and
 * those of its parts (the marks of each schema in place that holds; a shared one's kept with its
 * verdict, flat, and held by every place that reaches it).
 */
export interface Marks {
  all: boolean;
  keys: (string | number)[];
  parts: Marks[];
}

/** Marks of nothing yet. */
export function noMarks(): Marks {
  return { all: false, keys: [], parts: [] };
}

/**
 * The keys (indexes) `marks` and its parts hold, each part read once however many places hold it,
 * charged a step per key and part; `true` when all.
 */
export function evaluated(marks: Marks, budget: StepBudget): Set<string | number> | true {
  const done = new Set<string | number>();
  const seen = new Set([marks]);
  // A Set's iteration visits what is added during it.
  for (const part of seen) {
    if (part.all) return true;
    budget.steps -= part.keys.length + part.parts.length;
    for (const key of part.keys) done.add(key);
    for (const kid of part.parts) seen.add(kid);
  }
  return done;
}

/** `marks` with its parts' keys in its own (kept for a shared schema: each place that reaches it reads no more than the value's keys). */
export function flatten(marks: Marks, budget: StepBudget): Marks {
  const done = evaluated(marks, budget);
  return { all: done === true, keys: done === true ? [] : [...done], parts: [] };
}

/** The final check's walk into a value (`into`: the marks its verdict adds to when it holds). */
export type Walk = (
  value: JsonValue,
  s: SchemaNode,
  path: Path,
  run: Run,
  hops: number,
  quiet?: boolean,
  into?: Marks,
) => boolean;

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

/**
 * Reports the first member name `text` (the JSON text the value was read from) repeats in one of
 * its objects, wherever it is: `JSON.parse` kept its last value, the early check read the first,
 * and I-JSON forbids it. A step per 16 characters scanned.
 */
export function reportRepeated(run: Run, text: string): void {
  run.budget.steps -= 1 + (text.length >> 4);
  const at = repeatedName(text);
  if (at)
    report(
      run,
      false,
      at.reduce<Path>((up, key) => ({ up, key }), undefined),
      "is a property name its object already has",
    );
}
