import type { JsonValue } from "../shared/json.ts";
import { isRecord } from "../shared/values.ts";
import { allowedValues } from "./allowed-values.ts";
import {
  count,
  dialectOf,
  draftView,
  finite,
  own,
  pointerTarget,
  readDependencies,
  resource,
} from "./schema-reading.ts";
import { chargedResources, dynamicName, refStart } from "./schema-resources.ts";
import { settleFlags } from "./schema-flags.ts";
import { distinct } from "./text-keys.ts";
import type { CompileOptions, Context } from "./compile-context.ts";
import { KNOWN, nodesOf, past, scopeOf, TOO_DEEP, unread } from "./compile-context.ts";
import {
  blank,
  compilePattern,
  finishNode,
  MAX_COMPILE_NESTING,
  MAX_COMPILE_STEPS,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
  ASSERTED_FORMATS,
  type SchemaNode,
} from "./schema-node.ts";

export type { SchemaNode } from "./schema-node.ts";
export type { CompileOptions } from "./compile-context.ts";
/**
 * A tool's JSON Schema compiled once (per schema object, per request): every keyword the checks
 * read, read once and checked for its shape, local `$ref`s resolved, patterns built. A keyword
 * whose value is not of the shape the spec gives it is ignored here (the schema is still usable:
 * the checks are total), and reported at the request by `checkToolSchema`. Each keyword is read
 * as the draft the root's `$schema` declares has it (`draftView`).
 *
 * @module
 */

const TYPES = new Set("object array string number integer boolean null".split(" "));

/**
 * What building one compiled schema costs in a check's steps, beside its keywords: a node of some
 * fifty fields takes as long as about 16 steps of a check (measured on a 19,000-branch `anyOf`).
 */
const NODE_STEPS = 16;

const cache = new WeakMap<object, SchemaNode>();
const assertingCache = new WeakMap<object, SchemaNode>();

/**
 * The compiled form of a schema, built on first use and kept per schema object (so every call of
 * a request, and both checks, share it). Never throws: what cannot be read accepts anything.
 */
export function compileSchema(schema: unknown, options: CompileOptions = {}): SchemaNode {
  if (typeof schema !== "object" || schema === null) return compileRoot(schema, options);
  const store = options.assertFormats ? assertingCache : cache;
  let node = store.get(schema);
  if (!node) store.set(schema, (node = compileRoot(schema, options)));
  return node;
}

/** The compiled roots past a limit: whose `$ref`s nest too deep (they accept anything), or cut short. */
const limits = new WeakMap<SchemaNode, "nesting" | "size">();

/**
 * The limit a schema's compilation went past, which `checkToolSchema` refuses it for: `nesting`,
 * its `$ref`s nest deeper than {@link MAX_COMPILE_NESTING} schemas (each followed where it is
 * reached, as the compilation follows them: it accepts anything); `size`, it compiles to more than
 * {@link MAX_SCHEMA_NODES} schemas or {@link MAX_COMPILE_STEPS} steps, counting what only its
 * `$ref`s reach (the rest accepts anything).
 */
export function compileLimit(schema: unknown, options?: CompileOptions): "nesting" | "size" | undefined {
  return limits.get(compileSchema(schema, options));
}

function compileRoot(schema: unknown, options: CompileOptions): SchemaNode {
  const context: Context = {
    nodes: new Map(),
    kids: new Map(),
    base: schema,
    dialect: dialectOf(schema),
    root: schema,
    count: 0,
    budget: { steps: MAX_COMPILE_STEPS },
    assertFormats: options.assertFormats === true,
    patterns: options.patterns,
    nesting: 0,
    scopes: new Map(),
    dynamic: new Map(),
  };
  try {
    const node = compile(schema, context, 0);
    settleFlags(context.kids);
    // Past either, some of it was left unread (it accepts anything there).
    if (context.count > MAX_SCHEMA_NODES || context.budget.steps < 0) limits.set(node, "size");
    return node;
  } catch (error) {
    // A schema object whose reading throws (a getter, a proxy): the checks are total, so it accepts anything.
    // A stack that ran out first (a cold isolate's frames are larger) is a chain too deep all the
    // same: refused, never read as a schema that accepts anything.
    const node = unread();
    if (error === TOO_DEEP || error instanceof RangeError) limits.set(node, "nesting");
    return node;
  } finally {
    if (options.budget)
      options.budget.steps -= MAX_COMPILE_STEPS - Math.max(0, context.budget.steps) + NODE_STEPS * context.count;
  }
}

/** A schema, compiled once per object (a `$ref` back to it while it compiles finds it). */
function compile(given: unknown, context: Context, depth: number): SchemaNode {
  const budget = context.budget;
  // A boolean is a schema too: uncounted, 200,000 `true`s (1 MB) compiled to 150 MB of nodes, free.
  if (typeof given === "boolean") {
    budget.steps--;
    return ++context.count > MAX_SCHEMA_NODES ? past(context) : blank(!given);
  }
  if (!isRecord(given)) return unread();
  const nodes = nodesOf(context, given);
  const known = nodes.get(given);
  if (known) return Object.assign(known, { shared: true });
  if (depth > MAX_SCHEMA_DEPTH || ++context.count > MAX_SCHEMA_NODES || budget.steps < 0) return past(context);
  const schema = draftView(given, context.dialect); // draft 4 to 7: a `$ref` alone; no other draft's keywords
  const ref = own(schema, "$ref");
  const keys = Object.keys(schema);
  budget.steps -= 1 + keys.length;
  // Its flags are settled once the whole graph is compiled (settleFlags): a cycle reaches it unfinished.
  const node = unread();
  nodes.set(given, node);
  // An `$id` of its own (draft 7's `#name` is an anchor) makes it the resource its `$ref`s resolve against.
  const outer = context.base;
  if (resource(given, context.dialect)) context.base = given;
  node.scope = scopeOf(context, context.base);
  const kids: SchemaNode[] = [];
  const child = (value: unknown): SchemaNode => {
    const kid = compile(value, context, depth + 1);
    kids.push(kid);
    return kid;
  };
  const sub = (value: unknown): SchemaNode | undefined => (value === undefined ? undefined : child(value));
  const list = (value: unknown): SchemaNode[] | undefined =>
    Array.isArray(value) && value.length > 0 ? value.map(child) : undefined;
  const map = (value: unknown): [string, SchemaNode][] | undefined =>
    isRecord(value) ? Object.keys(value).map((key) => [key, child(value[key])]) : undefined;
  const strings = (value: unknown[]): string[] => {
    budget.steps -= value.length;
    return distinct(value.filter((item): item is string => typeof item === "string"));
  };

  const type = own(schema, "type");
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type : undefined;
  // A type name it does not know leaves `type` unchecked rather than rejecting what the tool may accept.
  if (types?.every((name) => typeof name === "string" && TYPES.has(name))) node.types = strings(types);
  node.nullable = own(schema, "nullable") === true;
  const list_ = own(schema, "enum");
  const constant = own(schema, "const") as JsonValue | undefined;
  if (Array.isArray(list_) || constant !== undefined) {
    const read = allowedValues(Array.isArray(list_) ? (list_ as JsonValue[]) : undefined, constant, budget);
    [node.allowed, node.allowedValues] = [read.values, read.allowed];
  }
  [node.minimum, node.maximum] = [finite(own(schema, "minimum")), finite(own(schema, "maximum"))];
  // Draft 4's `exclusiveMinimum: true` makes `minimum` exclusive (draft 6 on give a boolean no meaning).
  const bound = (v: unknown, inclusive?: number) => (v === true && context.dialect < 6 ? inclusive : finite(v));
  node.exclusiveMinimum = bound(own(schema, "exclusiveMinimum"), node.minimum);
  node.exclusiveMaximum = bound(own(schema, "exclusiveMaximum"), node.maximum);
  const multipleOf = finite(own(schema, "multipleOf"));
  node.multipleOf = multipleOf !== undefined && multipleOf > 0 ? multipleOf : undefined;
  [node.minLength, node.maxLength] = [count(own(schema, "minLength")), count(own(schema, "maxLength"))];
  const pattern = (value: unknown) => {
    if (typeof value === "string") budget.steps -= value.length;
    return compilePattern(value, context.patterns);
  };
  node.pattern = pattern(own(schema, "pattern"));
  const format = own(schema, "format");
  if (context.assertFormats && typeof format === "string" && ASSERTED_FORMATS.includes(format)) node.format = format;

  [node.minItems, node.maxItems] = [count(own(schema, "minItems")), count(own(schema, "maxItems"))];
  node.uniqueItems = own(schema, "uniqueItems") === true;
  const items = own(schema, "items");
  const prefixItems = own(schema, "prefixItems");
  if (Array.isArray(prefixItems)) {
    node.prefixItems = list(prefixItems) ?? [];
    node.items = sub(items);
  } else if (Array.isArray(items) && context.dialect !== 2020) {
    // Draft 4 to 2019-09's tuple form (where no draft is declared too: 2020-12 gives a list no meaning).
    node.prefixItems = list(items) ?? [];
    node.items = sub(own(schema, "additionalItems"));
  } else node.items = sub(items);
  node.contains = sub(own(schema, "contains"));
  node.minContains = count(own(schema, "minContains")) ?? 1;
  node.maxContains = count(own(schema, "maxContains"));

  const properties = map(own(schema, "properties"));
  if (properties) node.properties = new Map(properties);
  const patterns = own(schema, "patternProperties");
  if (isRecord(patterns)) {
    node.patternProperties = Object.keys(patterns).flatMap((key) => {
      const compiled = pattern(key);
      return compiled ? [[compiled, child(patterns[key])] as const] : [];
    });
  }
  node.additionalProperties = sub(own(schema, "additionalProperties"));
  const required = own(schema, "required");
  if (Array.isArray(required)) node.required = strings(required);
  [node.minProperties, node.maxProperties] = [count(own(schema, "minProperties")), count(own(schema, "maxProperties"))];
  node.propertyNames = sub(own(schema, "propertyNames"));
  node.unevaluatedProperties = sub(own(schema, "unevaluatedProperties"));
  node.unevaluatedItems = sub(own(schema, "unevaluatedItems"));
  // From here on, the schemas it applies to its own value (dependentSchemas to its object).
  const placed = kids.length;
  readDependencies(schema, node, child, strings);
  if (typeof ref === "string") kids.push((node.ref = resolve(ref, context, depth)[0]));
  node.allOf = list(own(schema, "allOf"));
  node.anyOf = list(own(schema, "anyOf"));
  node.oneOf = list(own(schema, "oneOf"));
  node.not = sub(own(schema, "not"));
  node.ifSchema = sub(own(schema, "if"));
  [node.thenSchema, node.elseSchema] = [sub(own(schema, "then")), sub(own(schema, "else"))];
  for (const key of ["$dynamicRef", "$recursiveRef"])
    if (own(schema, key) !== undefined)
      kids.push((node.allOf = [...(node.allOf ?? []), dynamic(own(schema, key), key, context, depth)]).at(-1)!);
  context.base = outer;
  // Past the budget, what was read may be incomplete (an `enum` cut short): it accepts anything.
  if (budget.steps < 0) return Object.assign(node, unread());
  // Its own keywords' part of the flags (decided only if exact): settleFlags adds its kids' once
  // the whole graph is known (one without kids, most schemas, is final here, kept out of it).
  if (kids.length) context.kids.set(node, [kids, placed]);
  node.exact =
    keys.every((key) => KNOWN.has(key)) &&
    (own(schema, "pattern") === undefined || node.pattern !== undefined) &&
    (!isRecord(patterns) || node.patternProperties?.length === Object.keys(patterns).length);
  node.decided =
    node.exact &&
    !node.uniqueItems &&
    [node.contains, node.dependentSchemas, node.not, node.ifSchema].every((value) => value === undefined);
  return finishNode(node);
}

/**
 * A `$dynamicRef` (`$recursiveRef`), applied in place: resolved as a `$ref`, and when its target has
 * the `$dynamicAnchor` its fragment names (`$recursiveAnchor: true`), a node the check resolves by
 * its dynamic scope (see `dynamicRef`), every schema of the document with that anchor compiled
 * too, once. Not a string: it accepts anything (a draft without the keyword never reads it).
 */
function dynamic(ref: unknown, key: string, context: Context, depth: number): SchemaNode {
  if (typeof ref !== "string") return unread();
  const [target, schema] = resolve(ref, context, depth);
  const name = dynamicName(ref, key === "$recursiveRef", schema);
  if (name === undefined) return target;
  let anchors = context.dynamic.get(name);
  if (!anchors) {
    const all: SchemaNode[] = [];
    // One node holds them for every `$dynamicRef` of the name: each holding them all took refs x anchors
    // links (2,000 of each, in a 215 KB schema, took 3.7 s of checkToolSchema).
    context.dynamic.set(name, (anchors = { ...blank(false), allOf: all }));
    for (const [home, at] of chargedResources(context.root as object, context.dialect, context.budget).dynamic.get(
      name,
    ) ?? []) {
      const node = reach(at, home, context, depth);
      all.push(node);
      const scope = scopeOf(context, home);
      if (!scope.has(name)) scope.set(name, node);
    }
    context.kids.set(anchors, [all, 0]);
  }
  const node: SchemaNode = { ...blank(false), any: false, decided: false, dynamicRef: [name, target, anchors] };
  // Its kids, once all is compiled: every schema with the anchor (its target among them).
  context.kids.set(node, [[anchors], 0]);
  return node;
}

/**
 * A `$ref` (a pointer, an anchor, or an `$id`'s URI: see refStart), compiled once per schema it points
 * to, however spelled (`#/$defs/a`, `#/%24defs/a`, `#/$defs/%61` are one); a remote or dangling one accepts anything.
 */
function resolve(ref: string, context: Context, depth: number): [SchemaNode, unknown] {
  context.budget.steps -= 1 + ref.length;
  let [home, start, pointer] = refStart(ref, context.root, context.dialect, context.base, context.budget);
  const target = pointerTarget(start, pointer, (at) => {
    if (resource(at, context.dialect)) home = at;
  }); // dangling: unread
  return [reach(target, home, context, depth), target];
}

/** A schema a reference reaches, compiled in the resource `base` (once: one compiled already is found, and marked shared). */
function reach(target: unknown, base: unknown, context: Context, depth: number): SchemaNode {
  const [nesting, outer] = [context.nesting, context.base];
  context.base = base;
  // Compiled where reached, on the stack: a chain of thousands of `$ref`s is bounded (and refused).
  if (!nodesOf(context, target).has(target) && (context.nesting += depth) > MAX_COMPILE_NESTING) throw TOO_DEEP;
  const node = compile(target, context, 1);
  [context.nesting, context.base] = [nesting, outer];
  return node;
}
