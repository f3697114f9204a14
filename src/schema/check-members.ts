import type { JsonValue } from "../shared/json.ts";
import { allDifferent } from "./unique-items.ts";
import { matchesPattern, type SchemaNode } from "./schema-node.ts";
import { evaluated, KEY_LENGTH, keysOf, type Marks, type Path, report, type Run, type Walk } from "./check-run.ts";

/**
 * The final check's keywords of an array's items and an object's members (`items`, `contains`,
 * `properties`, `unevaluated*`, ...), each going into the value by the check's own `walk`, and
 * marking what it evaluated where `unevaluated*` needs it.
 *
 * @module
 */

/** An array's own keywords (`minItems`, `uniqueItems`, `prefixItems`, `items`, `contains`, ...). */
export function checkArray(
  walk: Walk,
  value: JsonValue[],
  s: SchemaNode,
  path: Path,
  run: Run,
  quiet: boolean,
  marks?: Marks,
): boolean {
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
  if (marks && s.items) marks.all = true;
  // Only the items a schema applies to: each of 20,000 schemas read 200,000 items, uncharged.
  for (let i = 0, end = s.items ? value.length : Math.min(prefix.length, value.length); i < end; i++) {
    const schema = i < prefix.length ? prefix[i] : s.items;
    if (!s.items) marks?.keys.push(i);
    if (schema && !walk(value[i]!, schema, { up: path, key: i }, run, 0, quiet)) {
      if (quiet) return false;
      ok = false;
    }
  }
  if (s.contains) {
    let matched = 0;
    for (let i = 0; i < value.length; i++)
      if (walk(value[i]!, s.contains, undefined, run, 0, true) && ++matched) marks?.keys.push(i);
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

/** An object's own keywords (`required`, `properties`, `additionalProperties`, `dependentSchemas`, ...). */
export function checkObject(
  walk: Walk,
  value: { [key: string]: JsonValue },
  s: SchemaNode,
  path: Path,
  run: Run,
  hops: number,
  quiet: boolean,
  marks: Marks | undefined,
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
  if (marks && s.additionalProperties) marks.all = true;
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
    if (matched) marks?.keys.push(key);
    if (matched || !extra) continue;
    if (extra.never) {
      if (fail("is not allowed", at)) return false;
    } else if (!walk(member, extra, at, run, 0, quiet)) {
      if (quiet) return false;
      ok = false;
    }
  }
  for (const [key, schema] of s.dependentSchemas ?? []) {
    if (Object.hasOwn(value, key) && !walk(value, schema, path, run, hops + 1, quiet, marks)) {
      if (quiet) return false;
      ok = false;
    }
  }
  return ok;
}

/**
 * `unevaluatedProperties` (`unevaluatedItems`): `rest` on each key (item) that neither the schema
 * nor any schema in place that holds evaluated; then all are.
 */
export function unevaluated(
  walk: Walk,
  value: Record<string | number, JsonValue>,
  rest: SchemaNode,
  marks: Marks,
  path: Path,
  run: Run,
  quiet: boolean,
): boolean {
  if (rest.any) return (marks.all = true);
  const done = evaluated(marks, run.budget);
  if (done === true) return true;
  const keys = Array.isArray(value) ? [...value.keys()] : keysOf(run, value);
  run.budget.steps -= keys.length;
  let ok = true;
  for (const key of keys) {
    if (run.budget.exhausted) return false;
    if (done.has(key) || walk(value[key]!, rest, { up: path, key }, run, 0, quiet)) continue;
    if (quiet) return false;
    ok = false;
  }
  marks.all = ok;
  return ok;
}
