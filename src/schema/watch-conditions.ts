import { MAX_IN_PLACE } from "./check-arguments.ts";
import type { StepBudget } from "./pattern/pattern-vm.ts";
import { compileSchema } from "./compiled-schema.ts";
import type { SchemaNode } from "./schema-node.ts";
import type { Range } from "./watch-text.ts";

/**
 * The conditions the early check keeps per value ({@link Condition}) and how a schema becomes
 * them ({@link expand}): the tree of all-of and one-of groups over leaves of own keywords.
 *
 * @module
 */

/** One condition on a value: a leaf (one schema's own keywords) or a group. */
export interface Condition {
  /** The schema whose own keywords a leaf checks; `undefined` for a group. */
  schema: SchemaNode | undefined;
  /** Groups: 1 all of, 2 one of (`anyOf`), 3 one of (`oneOf`). */
  group: number;
  /** The group above it in the same value, or -1 for a top condition. */
  parent: number;
  /** A top condition: the leaf of the parent value that asked for it (-1 at the top of the arguments). */
  owner: number;
  live: boolean;
  /** One-of groups: members still alive. */
  left: number;
  /** Alive at its value's close, it certainly holds (the schema it stands for is all decided early). */
  decided: boolean;
  /** A string: the `enum`/`const` strings it may still become, a range of the schema's sorted ones (absent when any string will do). */
  strings?: Range | undefined;
  /** An object with `additionalProperties: false` and no `patternProperties`: the property names the key being read may still become, a range of the sorted ones. */
  names?: Range | undefined;
}

/** One value being read by the early check, with its conditions. */
export interface OpenValue {
  path: string;
  first: number;
  conditions: Condition[];
  /** Arrays: items begun. */
  items: number;
  /** Objects: the keys read. */
  keys: Set<string> | undefined;
  /** Objects: the conditions and path of the member whose key was just read. */
  next: Condition[] | undefined;
  nextPath: string;
  /** Strings and keys: characters already checked, code points counted in them, and the last one's code. */
  checked: number;
  points: number;
  last: number;
  /** Its watcher's {@link CutOffs} when it began: a change by its close means part of it was not checked. */
  cuts: number;
}

/** A schema that accepts anything: what a condition cut short stands for. */
export const ANY: SchemaNode = compileSchema(true);
const NULL = compileSchema({ type: "null" });
/** Most conditions one value keeps; past it, the value is not checked early (the final check still is). */
export const MAX_CONDITIONS = 64;
/**
 * How many times a watcher's conditions were cut short (past {@link MAX_CONDITIONS}, or a `$ref`
 * cycle at {@link MAX_IN_PLACE}): a `oneOf` says "more than one" at a value's close only when none
 * was cut while it was read. One per watcher: counted for every watcher of the runtime, another
 * request's cut kept a call's violation from being found.
 */
export interface CutOffs {
  /** The cuts so far. */
  count: number;
}

/**
 * Adds the conditions of `schema` to `out` (under the group `parent`, or as a top condition of
 * `owner`): a leaf for its own keywords, all of its `$ref` and `allOf`, one of its `anyOf`, one of
 * its `oneOf`, and one of `null` and the rest when it is `nullable`. A `$ref` cycle that never goes
 * into the value stops where the final check stops following it, accepting there. Each schema it
 * looks at is charged to `budget`, each cut counted in its watcher's `cutOffs`.
 */
export function expand(
  schema: SchemaNode,
  owner: number,
  parent: number,
  hops: number,
  out: Condition[],
  budget: StepBudget,
  cutOffs: CutOffs,
): void {
  if (out.length > MAX_CONDITIONS || --budget.steps < 0) return;
  // The common case, on every value: one leaf, nothing built.
  if (!schema.inPlace) {
    const cut = hops > MAX_IN_PLACE;
    if (cut) cutOffs.count++;
    out.push({ schema: cut ? ANY : schema, group: 0, parent, owner, live: true, left: 0, decided: schema.decided });
    return;
  }
  const decided = schema.decided;
  const add = (node: SchemaNode | undefined, group: number, under: number): number => {
    out.push({ schema: node, group, parent: under, owner, live: true, left: 0, decided });
    return out.length - 1;
  };
  const allOf = schema.allOf ?? [];
  const parts =
    (schema.own ? 1 : 0) + (schema.ref ? 1 : 0) + allOf.length + (schema.anyOf ? 1 : 0) + (schema.oneOf ? 1 : 0);
  // Past the in-place limit the final check accepts, so nothing may be checked there.
  if (hops > MAX_IN_PLACE) {
    cutOffs.count++;
    return void add(ANY, 0, parent);
  }
  if (schema.any || parts <= (schema.own ? 1 : 0)) return void add(schema, 0, parent);
  let under = parent;
  if (schema.nullable) {
    under = add(undefined, 2, under);
    out[under]!.left = 2;
    add(NULL, 0, under);
  }
  if (parts > 1) under = add(undefined, 1, under);
  if (schema.own) add({ ...schema, nullable: false }, 0, under);
  if (schema.ref) expand(schema.ref, owner, under, hops + 1, out, budget, cutOffs);
  for (const node of allOf) {
    if (out.length > MAX_CONDITIONS) return;
    expand(node, owner, under, hops + 1, out, budget, cutOffs);
  }
  for (const [list, group] of [
    [schema.anyOf, 2],
    [schema.oneOf, 3],
  ] as const) {
    if (!list) continue;
    const at = add(undefined, group, under);
    out[at]!.left = list.length;
    for (const branch of list) {
      if (out.length > MAX_CONDITIONS) return;
      expand(branch, owner, at, hops + 1, out, budget, cutOffs);
    }
  }
}
