import type { JsonValue } from "../shared/json.ts";
import { thousands } from "./bounded-issues.ts";
import { isAllowed } from "./allowed-values.ts";
import { budgetWords, CheckBudget, MAX_CHECK_NESTING, stopDeep } from "./check-budget.ts";
import { compileSchema } from "./compiled-schema.ts";
import { blank, type SchemaNode } from "./schema-node.ts";
import {
  allowedFailure,
  codePoints,
  hasType,
  type KeywordFailure,
  numberFailure,
  stringFailure,
  typeOf,
} from "./schema-keywords.ts";
import {
  type CheckArgumentsOptions,
  flatten,
  type Marks,
  noMarks,
  bound,
  enter,
  type Path,
  report,
  reportRepeated,
  type Run,
} from "./check-run.ts";
import { checkArray, checkObject, unevaluated } from "./check-members.ts";

/**
 * The final check of a call's arguments against its tool's compiled schema: every keyword with
 * its siblings (`anyOf`, `oneOf`, `allOf`, `$ref` are conditions beside the others, never in
 * their place), issues bounded in number and length.
 *
 * @module
 */

/**
 * The most in-place schemas (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`) followed on one value
 * without going into it: past it (a `$ref` cycle), the schema there accepts the value.
 */
export const MAX_IN_PLACE = 64;

/** Why ±Infinity (JSON's `1e400`, which JSON.parse reads as one) is no `number` nor `integer`. */
const PAST = " within what a double holds (about ±1.8e308)";

/** What a `$dynamicRef` reaches where its dynamic scope is not known (see {@link meets}), or past `MAX_DYNAMIC_SCOPE`: anything. */
const ANYTHING: SchemaNode = { ...blank(false), exact: false };

/**
 * The issues of a value against a schema (raw, compiled on first use and kept), bounded; empty
 * when valid. When the budget runs out (or had run out before), the one issue says the value
 * could not be checked, and `budget.exhausted` is true.
 */
export function checkArguments(value: JsonValue, schema: unknown, options: CheckArgumentsOptions = {}): string[] {
  const budget = options.budget ?? new CheckBudget(Number.POSITIVE_INFINITY);
  const run: Run = {
    issues: [],
    more: 0,
    budget,
    root: options.path ?? "$",
    nesting: 0,
    cuts: 0,
    scope: {},
  };
  // A schema not compiled yet (not one a validator compiled for its request) is compiled in the
  // check's budget; not at all once it is spent, so that many checks on one budget stop working.
  if (options.text !== undefined) reportRepeated(run, options.text);
  if (!budget.exhausted)
    walk(value, compileSchema(schema, { assertFormats: options.assertFormats, budget }), undefined, run, 0);
  if (run.budget.exhausted) return [`${run.root} could not be checked ${budgetWords(run.budget)}`];
  if (run.more > 0) run.issues.push(`and ${thousands(run.more)} more`);
  return run.issues;
}

/**
 * Whether a value meets a compiled schema (the final check's verdict, without its issues, but for
 * a `$dynamicRef`: not knowing the path to `node`, so its dynamic scope, it accepts anything
 * there), its work charged to `budget`; `true` when the budget runs out (the early check then accepts).
 */
export function meets(value: JsonValue, node: SchemaNode, budget: CheckBudget): boolean {
  const run: Run = {
    issues: [],
    more: 0,
    budget,
    root: "$",
    nesting: 0,
    cuts: 0,
    scope: { deep: true },
  };
  return walk(value, node, undefined, run, 0, true) || budget.exhausted;
}

/**
 * Checks `value` at `path` against `s`; reports into `run` unless `quiet` (a branch of `anyOf`,
 * `oneOf`, `not`, `if`, `contains`, where only the verdict matters), then stops at the first failure.
 * With `into` (a schema in place under `unevaluated*`), what `s` evaluated of the value is added to
 * it when `s` holds.
 */
function walk(
  value: JsonValue,
  s: SchemaNode,
  path: Path,
  run: Run,
  hops: number,
  quiet = false,
  into?: Marks,
): boolean {
  const budget = run.budget;
  if (--budget.steps < 0) return false;
  if (typeof value !== "object" || value === null) into = undefined; // only keys and items are marked
  if (s.any || (hops > MAX_IN_PLACE && ++run.cuts)) {
    // What the checks do not read, or stopped at, may have evaluated anything: never a reason to reject.
    if (into && !(s.any && s.exact)) into.all = true;
    return true;
  }
  const marks = into && noMarks();
  if (!s.shared) return held(check(value, s, path, run, hops, quiet, marks), marks, into);
  // Reached by more than one way: checked once per value, reported once per place (by path: an app's value may share an object).
  // One that may reach a `$dynamicRef` (not decided) is kept per dynamic scope it is reached in.
  const memos = s.decided ? (run.memo ??= new Map()) : (run.scope.memo ??= new Map());
  let memo = memos.get(s);
  if (!memo) memos.set(s, (memo = new Map()));
  const known = memo.get(value);
  if (typeof known === "object" && !Array.isArray(known)) return held(true, known, into);
  if (known === true ? !into : known !== undefined && (quiet || (known && samePlace(known[0], path))))
    return known === true;
  const cuts = run.cuts;
  const ok = check(value, s, path, run, hops, quiet, marks);
  const kept = ok && marks ? flatten(marks, budget) : undefined;
  if (cuts === run.cuts && budget.steps >= 0) memo.set(value, kept ?? (ok || (!quiet && [path])));
  return held(ok, kept, into);
}

/** A verdict; when it holds, what the schema evaluated is added to the marks of the one it is in place in. */
function held(ok: boolean, marks: Marks | undefined, into: Marks | undefined): boolean {
  if (ok && marks) into?.parts.push(marks);
  return ok;
}

function samePlace(a: Path, b: Path): boolean {
  return a === b || (!!a && !!b && a.key === b.key && samePlace(a.up, b.up));
}

function check(value: JsonValue, s: SchemaNode, path: Path, run: Run, hops: number, quiet: boolean, into?: Marks) {
  const budget = run.budget;
  // Its resource, entered when it binds a `$dynamicAnchor` name; left with it.
  const scope = run.scope;
  if (s.scope?.size) enter(run, s.scope);
  try {
    // The checks recurse: a value thousands deep would overflow the stack. Stopped as out of steps.
    if (++run.nesting > MAX_CHECK_NESTING) return stopDeep(budget);
    if (s.never) {
      report(run, quiet, path, "is not allowed");
      return false;
    }
    if (value === null && s.nullable) return true;
    if (s.types && !s.types.some((type) => hasType(value, type))) {
      const past = typeof value === "number" && !Number.isFinite(value); // ±Infinity: `1e400`
      report(run, quiet, path, `must be ${s.types.join(" or ")}${past ? PAST : `, not ${typeOf(value)}`}`);
      return false;
    }
    let ok = true;
    const fail = (text: string | KeywordFailure, at: Path = path): boolean => {
      report(run, quiet, at, text);
      ok = false;
      return quiet; // stop at once when only the verdict matters
    };
    if (s.allowedValues) {
      const allowed = isAllowed(s.allowedValues, value, budget);
      if (allowed === undefined || (!allowed && fail(allowedFailure(s)))) return false;
    }
    let failure: KeywordFailure | undefined;
    // A schema with `unevaluated*` gathers what its keywords and those in place evaluate.
    let marks = into;
    if (typeof value === "number") failure = numberFailure(value, s, budget);
    else if (typeof value === "string") {
      if (s.maxLength !== undefined && codePoints(value, 0, 0, budget) > s.maxLength)
        failure = [`must have at most ${s.maxLength} characters`, ""];
      else failure = stringFailure(value, s, budget);
    } else if (Array.isArray(value)) {
      marks ??= s.unevaluatedItems && noMarks();
      if (!checkArray(walk, value, s, path, run, quiet, marks)) ok = false;
    } else if (value !== null && typeof value === "object") {
      marks ??= s.unevaluatedProperties && noMarks();
      if (!checkObject(walk, value, s, path, run, hops, quiet, marks)) ok = false;
    }
    if (failure && fail(failure)) return false;
    if (!ok && quiet) return false;
    ok = checkInPlace(value, s, path, run, hops, quiet, marks) && ok;
    const rest = Array.isArray(value) ? s.unevaluatedItems : s.unevaluatedProperties;
    if (!rest || !marks || (!ok && quiet)) return ok;
    return unevaluated(walk, value as Record<string | number, JsonValue>, rest, marks, path, run, quiet) && ok;
  } finally {
    run.nesting--;
    run.scope = scope;
  }
}

/** `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`: more conditions on the same value. */
function checkInPlace(
  value: JsonValue,
  s: SchemaNode,
  path: Path,
  run: Run,
  hops: number,
  quiet: boolean,
  marks?: Marks,
): boolean {
  let ok = true;
  const next = hops + 1;
  if (s.ref && !walk(value, s.ref, path, run, next, quiet, marks)) {
    if (quiet) return false;
    ok = false;
  }
  // A `$dynamicRef`'s target: the outermost in the dynamic scope with its anchor, else where it points.
  const dynamic = s.dynamicRef;
  if (
    dynamic &&
    !walk(
      value,
      run.scope.deep ? ANYTHING : (bound(run.scope, dynamic[0], run.budget) ?? dynamic[1]),
      path,
      run,
      next,
      quiet,
      marks,
    )
  ) {
    if (quiet) return false;
    ok = false;
  }
  for (const branch of s.allOf ?? []) {
    if (!walk(value, branch, path, run, next, quiet, marks)) {
      if (quiet) return false;
      ok = false;
    }
  }
  let any = 0;
  // Under `unevaluated*`, every branch: each that holds evaluates keys.
  for (const branch of s.anyOf ?? []) if (walk(value, branch, path, run, next, true, marks) && ++any && !marks) break;
  if (s.anyOf && !any) {
    report(run, quiet, path, "matches none of the allowed shapes");
    if (quiet) return false;
    ok = false;
  }
  if (s.oneOf) {
    let matched = 0;
    let certain = 0;
    for (const branch of s.oneOf) {
      if (!walk(value, branch, path, run, next, true, marks)) continue;
      matched++;
      // A branch holding ignored keywords may match only because they were ignored: counted as
      // certain only when exact, and "more than one" needs two certain matches.
      if (branch.exact && ++certain > 1) break;
    }
    if (matched === 0 || certain > 1) {
      report(run, quiet, path, `matches ${matched === 0 ? "none" : "more than one"} of the allowed shapes (oneOf)`);
      if (quiet) return false;
      ok = false;
    }
  }
  // A schema under `not` that holds ignored keywords may match more than it should: not checked.
  if (s.not?.exact && walk(value, s.not, path, run, next, true)) {
    report(run, quiet, path, "must not match the schema in not");
    if (quiet) return false;
    ok = false;
  }
  // An `if` evaluates keys too, with no `then` or `else`; one not exact leaves them unapplied (may evaluate any key).
  const condition = s.ifSchema;
  if (condition && (marks || (condition.exact && (s.thenSchema || s.elseSchema)))) {
    const branch = walk(value, condition, path, run, next, true, marks) ? s.thenSchema : s.elseSchema;
    if (!condition.exact) marks!.all = true;
    else if (branch && !walk(value, branch, path, run, next, quiet, marks)) ok = false;
  }
  return ok;
}
