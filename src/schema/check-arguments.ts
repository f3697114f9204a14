import type { JsonValue } from "../shared/json.ts";
import { thousands } from "./bounded-issues.ts";
import { isAllowed } from "./allowed-values.ts";
import { CheckBudget, MAX_CHECK_NESTING } from "./check-budget.ts";
import { compileSchema } from "./compiled-schema.ts";
import { allDifferent } from "./unique-items.ts";
import { matchesPattern, type SchemaNode } from "./schema-node.ts";
import {
  allowedFailure,
  codePoints,
  hasType,
  type KeywordFailure,
  numberFailure,
  stringFailure,
  typeOf,
} from "./schema-keywords.ts";
import { KEY_LENGTH, keysOf, type Path, report, type Run } from "./check-run.ts";

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
/** Options of {@link checkArguments}. */
export interface CheckArgumentsOptions {
  /** The name of the top value in the issues. @defaultValue "$" */
  path?: string | undefined;
  /** Check `format` (date-time, date, time, email, uri, uuid, ipv4, ipv6) rather than read it as an annotation. @defaultValue false */
  assertFormats?: boolean | undefined;
  /** The call's work budget (granted whole again after its early check); by default, the most a call may have. */
  budget?: CheckBudget | undefined;
}

/**
 * The issues of a value against a schema (raw, compiled on first use and kept), bounded; empty
 * when valid. When the budget runs out (or had run out before), the one issue says the value
 * could not be checked, and `budget.exhausted` is true.
 */
export function checkArguments(value: JsonValue, schema: unknown, options: CheckArgumentsOptions = {}): string[] {
  const budget = options.budget ?? new CheckBudget(Number.POSITIVE_INFINITY);
  const run: Run = { issues: [], more: 0, budget, root: options.path ?? "$", nesting: 0, cuts: 0 };
  // A schema not compiled yet (not one a validator compiled for its request) is compiled in the
  // check's budget; not at all once it is spent, so that many checks on one budget stop working.
  if (!budget.exhausted)
    walk(value, compileSchema(schema, { assertFormats: options.assertFormats, budget }), undefined, run, 0);
  if (run.budget.exhausted)
    return [`${run.root} could not be checked within its budget of ${thousands(run.budget.granted)} steps`];
  if (run.more > 0) run.issues.push(`and ${thousands(run.more)} more`);
  return run.issues;
}

/**
 * Whether a value meets a compiled schema (the final check's verdict, without its issues), its
 * work charged to `budget`; `true` when the budget runs out (the early check then accepts).
 */
export function meets(value: JsonValue, node: SchemaNode, budget: CheckBudget): boolean {
  const run: Run = { issues: [], more: 0, budget, root: "$", nesting: 0, cuts: 0 };
  return walk(value, node, undefined, run, 0, true) || budget.exhausted;
}

/**
 * Checks `value` at `path` against `s`; reports into `run` unless `quiet` (a branch of `anyOf`,
 * `oneOf`, `not`, `if`, `contains`, where only the verdict matters), then stops at the first failure.
 */
function walk(value: JsonValue, s: SchemaNode, path: Path, run: Run, hops: number, quiet = false): boolean {
  const budget = run.budget;
  if (--budget.steps < 0) return false;
  if (s.any || (hops > MAX_IN_PLACE && ++run.cuts)) return true;
  if (!s.shared) return check(value, s, path, run, hops, quiet);
  // Reached by more than one way: checked once per value, reported once per place (by path: an app's value may share an object).
  let memo = (run.memo ??= new Map()).get(s);
  if (!memo) run.memo.set(s, (memo = new Map()));
  const known = memo.get(value);
  if (known === true || (known !== undefined && (quiet || (known && samePlace(known[0], path))))) return known === true;
  const cuts = run.cuts;
  const ok = check(value, s, path, run, hops, quiet);
  if (cuts === run.cuts && budget.steps >= 0) memo.set(value, ok || (!quiet && [path]));
  return ok;
}

function samePlace(a: Path, b: Path): boolean {
  return a === b || (!!a && !!b && a.key === b.key && samePlace(a.up, b.up));
}

function check(value: JsonValue, s: SchemaNode, path: Path, run: Run, hops: number, quiet: boolean): boolean {
  const budget = run.budget;
  try {
    // The checks recurse: a value thousands deep would overflow the stack. Stopped as out of steps.
    if (++run.nesting > MAX_CHECK_NESTING) return !(budget.steps = -1);
    if (s.never) {
      report(run, quiet, path, "is not allowed");
      return false;
    }
    if (value === null && s.nullable) return true;
    if (s.types && !s.types.some((type) => hasType(value, type))) {
      report(run, quiet, path, `must be ${s.types.join(" or ")}, not ${typeOf(value)}`);
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
    if (typeof value === "number") failure = numberFailure(value, s, budget);
    else if (typeof value === "string") {
      if (s.maxLength !== undefined && codePoints(value, 0, 0, budget) > s.maxLength)
        failure = [`must have at most ${s.maxLength} characters`, ""];
      else failure = stringFailure(value, s, budget);
    } else if (Array.isArray(value)) {
      if (!checkArray(value, s, path, run, quiet)) ok = false;
    } else if (value !== null && typeof value === "object") {
      if (!checkObject(value, s, path, run, hops, quiet)) ok = false;
    }
    if (failure && fail(failure)) return false;
    if (!ok && quiet) return false;
    return checkInPlace(value, s, path, run, hops, quiet) && ok;
  } finally {
    run.nesting--;
  }
}

/** `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`: more conditions on the same value. */
function checkInPlace(value: JsonValue, s: SchemaNode, path: Path, run: Run, hops: number, quiet: boolean): boolean {
  let ok = true;
  const next = hops + 1;
  if (s.ref && !walk(value, s.ref, path, run, next, quiet)) {
    if (quiet) return false;
    ok = false;
  }
  for (const branch of s.allOf ?? []) {
    if (!walk(value, branch, path, run, next, quiet)) {
      if (quiet) return false;
      ok = false;
    }
  }
  if (s.anyOf && !s.anyOf.some((branch) => walk(value, branch, path, run, next, true))) {
    report(run, quiet, path, "matches none of the allowed shapes");
    if (quiet) return false;
    ok = false;
  }
  if (s.oneOf) {
    let matched = 0;
    let certain = 0;
    for (const branch of s.oneOf) {
      if (!walk(value, branch, path, run, next, true)) continue;
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
  if (s.ifSchema?.exact && (s.thenSchema || s.elseSchema)) {
    const branch = walk(value, s.ifSchema, path, run, next, true) ? s.thenSchema : s.elseSchema;
    if (branch && !walk(value, branch, path, run, next, quiet)) ok = false;
  }
  return ok;
}

function checkArray(value: JsonValue[], s: SchemaNode, path: Path, run: Run, quiet: boolean): boolean {
  let ok = true;
  const fail = (text: string): boolean => {
    report(run, quiet, path, text);
    ok = false;
    return quiet;
  };
  if (s.minItems !== undefined && value.length < s.minItems && fail(`must have at least ${s.minItems} items`))
    return false;
  if (s.maxItems !== undefined && value.length > s.maxItems && fail(`must have at most ${s.maxItems} items`))
    return false;
  if (s.uniqueItems && !allDifferent(value, run.budget) && fail("must have items that are all different")) return false;
  const prefix = s.prefixItems ?? [];
  // Only the items a schema applies to: each of 20,000 schemas read 200,000 items, uncharged.
  for (let i = 0, end = s.items ? value.length : Math.min(prefix.length, value.length); i < end; i++) {
    const schema = i < prefix.length ? prefix[i] : s.items;
    if (schema && !walk(value[i]!, schema, { up: path, key: i }, run, 0, quiet)) {
      if (quiet) return false;
      ok = false;
    }
  }
  if (s.contains) {
    let matched = 0;
    for (const item of value) if (walk(item, s.contains, undefined, run, 0, true)) matched++;
    if (matched < s.minContains && fail(`must have at least ${s.minContains} items that match its contains`))
      return false;
    if (
      s.maxContains !== undefined &&
      s.contains.exact &&
      matched > s.maxContains &&
      fail(`must have at most ${s.maxContains} items that match its contains`)
    )
      return false;
  }
  return ok;
}

function checkObject(
  value: { [key: string]: JsonValue },
  s: SchemaNode,
  path: Path,
  run: Run,
  hops: number,
  quiet: boolean,
): boolean {
  let ok = true;
  const fail = (text: string, at: Path = path): boolean => {
    report(run, quiet, at, text);
    ok = false;
    return quiet;
  };
  const budget = run.budget;
  budget.steps -= s.required.length + (s.dependentRequired?.length ?? 0) + (s.dependentSchemas?.length ?? 0);
  for (const key of s.required) if (!Object.hasOwn(value, key) && fail("is required", { up: path, key })) return false;
  for (const [key, needs] of s.dependentRequired ?? []) {
    if (!Object.hasOwn(value, key)) continue;
    budget.steps -= needs.length;
    for (const other of needs)
      if (
        !Object.hasOwn(value, other) &&
        fail(`is required when ${key.slice(0, KEY_LENGTH)} is present`, { up: path, key: other })
      )
        return false;
  }
  // The keys listed once per object; a schema without a keyword that reads every key reads its own
  // `properties`: n schemas on n keys were n² work.
  const keys = keysOf(run, value);
  const all = s.propertyNames || s.patternProperties || s.additionalProperties;
  const own = s.properties && !all && s.properties.size < keys.length ? [...s.properties.keys()] : undefined;
  const names = own?.filter((key) => Object.hasOwn(value, key)) ?? (all || s.properties ? keys : []);
  budget.steps -= own?.length ?? names.length;
  const n = keys.length;
  if (s.minProperties !== undefined && n < s.minProperties && fail(`must have at least ${s.minProperties} properties`))
    return false;
  if (s.maxProperties !== undefined && n > s.maxProperties && fail(`must have at most ${s.maxProperties} properties`))
    return false;
  for (const key of names) {
    if (budget.exhausted) return false;
    const at: Path = { up: path, key };
    if (s.propertyNames && !walk(key, s.propertyNames, at, run, 0, true) && fail("is not an allowed property name", at))
      return false;
    const member = value[key]!;
    let matched = false;
    const property = s.properties?.get(key);
    if (property) {
      matched = true;
      if (!walk(member, property, at, run, 0, quiet)) {
        if (quiet) return false;
        ok = false;
      }
    }
    for (const [pattern, schema] of s.patternProperties ?? []) {
      if (!matchesPattern(pattern, key, budget)) continue;
      matched = true;
      if (!walk(member, schema, at, run, 0, quiet)) {
        if (quiet) return false;
        ok = false;
      }
    }
    const extra = s.additionalProperties;
    if (matched || !extra) continue;
    if (extra.never) {
      if (fail("is not allowed", at)) return false;
    } else if (!walk(member, extra, at, run, 0, quiet)) {
      if (quiet) return false;
      ok = false;
    }
  }
  for (const [key, schema] of s.dependentSchemas ?? []) {
    if (Object.hasOwn(value, key) && !walk(value, schema, path, run, hops + 1, quiet)) {
      if (quiet) return false;
      ok = false;
    }
  }
  return ok;
}
