/**
 * The compiled form of a tool's JSON Schema ({@link SchemaNode}), its limits, and its patterns.
 *
 * @module
 */
import type { JsonValue } from "../shared/json.ts";
import { type LinearPattern, linearPattern } from "./pattern/linear-pattern.ts";
import type { StepBudget } from "./pattern/pattern-vm.ts";
import type { AllowedValues } from "./allowed-values.ts";
import type { PatternBudget } from "./pattern-budget.ts";

/** One compiled schema. Fields absent (`undefined`) do not restrict. */
export interface SchemaNode {
  /** No keyword restricts: `true`, `{}`, or only keywords the checks do not read. */
  any: boolean;
  /** `false`: nothing is valid. */
  never: boolean;
  /** Whether it has checks of its own beside its in-place applicators (`$ref`, `allOf`, `anyOf`, `oneOf`, ...). */
  own: boolean;
  /**
   * Whether it (and every schema in it) holds only keywords the checks read or annotations: a
   * schema that is not exact may accept more than JSON Schema would, so where accepting more
   * would reject more (under `not`, in an `if`, for `oneOf`'s "more than one" and `maxContains`),
   * the check is skipped rather than risk rejecting a valid value.
   */
  exact: boolean;
  /**
   * Whether the early check decides all of it by the time a value closes (it is exact, and
   * neither it nor a schema in it has `not`, `if`, `dependentSchemas`, `uniqueItems`, `contains`,
   * `unevaluated*` beside schemas in place, or a `$ref` cycle that never goes into the value): then a `oneOf` branch still alive at the close certainly matches.
   */
  decided: boolean;
  /** Whether more than one schema holds it (or one `$ref` and its place): the final check then keeps its verdicts. */
  shared: boolean;
  /** Whether it has `$ref`, `allOf`, `anyOf` or `oneOf` (the early check's fast path is for schemas without). */
  inPlace: boolean;
  types: readonly string[] | undefined;
  nullable: boolean;
  /** `enum` and `const` together: the only values allowed (as listed, for messages). */
  allowed: readonly JsonValue[] | undefined;
  /** The same, as sets and a sorted list of strings (set when `allowed` is). */
  allowedValues: AllowedValues | undefined;
  minimum: number | undefined;
  maximum: number | undefined;
  exclusiveMinimum: number | undefined;
  exclusiveMaximum: number | undefined;
  multipleOf: number | undefined;
  minLength: number | undefined;
  maxLength: number | undefined;
  pattern: LinearPattern | undefined;
  format: string | undefined;
  minItems: number | undefined;
  maxItems: number | undefined;
  uniqueItems: boolean;
  prefixItems: readonly SchemaNode[] | undefined;
  items: SchemaNode | undefined;
  contains: SchemaNode | undefined;
  minContains: number;
  maxContains: number | undefined;
  properties: ReadonlyMap<string, SchemaNode> | undefined;
  patternProperties: readonly (readonly [LinearPattern, SchemaNode])[] | undefined;
  additionalProperties: SchemaNode | undefined;
  /**
   * `unevaluatedProperties` and `unevaluatedItems` beside schemas in place: without those, a schema
   * has them as `additionalProperties` and `items` (`contains` aside), which mean the same there.
   */
  unevaluatedProperties: SchemaNode | undefined;
  unevaluatedItems: SchemaNode | undefined;
  required: readonly string[];
  minProperties: number | undefined;
  maxProperties: number | undefined;
  dependentRequired: readonly (readonly [string, readonly string[]])[] | undefined;
  dependentSchemas: readonly (readonly [string, SchemaNode])[] | undefined;
  propertyNames: SchemaNode | undefined;
  ref: SchemaNode | undefined;
  /**
   * A `$dynamicRef` (`$recursiveRef`) whose target has the anchor it names: the name (`true`:
   * `$recursiveAnchor`), the target, and a node whose `allOf` is every schema of the document with
   * that anchor (the target among them), one of which the check goes to by the path it took (one
   * node per name, shared by its refs, so the graph stays linear; never checked itself).
   */
  dynamicRef: readonly [name: string | true, target: SchemaNode, anchors: SchemaNode] | undefined;
  /** The `$dynamicAnchor`s (by name) of the resource it is in, for the check's dynamic scope. */
  scope: ReadonlyMap<string | true, SchemaNode> | undefined;
  allOf: readonly SchemaNode[] | undefined;
  anyOf: readonly SchemaNode[] | undefined;
  oneOf: readonly SchemaNode[] | undefined;
  not: SchemaNode | undefined;
  /** `if`, `then`, `else` (named apart: an object with a `then` is taken for a promise). */
  ifSchema: SchemaNode | undefined;
  thenSchema: SchemaNode | undefined;
  elseSchema: SchemaNode | undefined;
}

/** The longest `pattern` (in UTF-16 code units) compiled; a longer one is ignored (and refused by `checkToolSchema`). */
export const MAX_PATTERN_LENGTH = 1_000;
/** The deepest nesting of a schema compiled; deeper schemas accept anything there. */
export const MAX_SCHEMA_DEPTH = 64;
/**
 * The deepest a schema is compiled, counting the schemas on the way to it through the `$ref`s
 * followed (each compiled where it is first reached): past it, the whole schema accepts anything
 * (and `checkToolSchema` refuses it), rather than overflow the stack.
 */
export const MAX_COMPILE_NESTING = 1_000;
/** The most schemas compiled for one tool; past it, the rest accept anything. */
export const MAX_SCHEMA_NODES = 20_000;
/**
 * The most work compiling one tool's schema takes (a step per keyword, per item of a keyword's
 * list or object, per character of a `pattern` or `$ref`): past it, the rest accepts anything.
 * Each schema is compiled once (a `$ref` once per schema it points to), so a schema parsed
 * from JSON takes about a step per byte at most.
 */
export const MAX_COMPILE_STEPS = 4_000_000;
/** The formats asserted when `assertFormats` is on. */
export const ASSERTED_FORMATS: readonly string[] = [
  "date-time",
  "date",
  "time",
  "email",
  "uri",
  "uuid",
  "ipv4",
  "ipv6",
];
/** A schema with no keyword (`true`), or `false` (`never`). */
export function blank(never: boolean): SchemaNode {
  return {
    any: !never,
    never,
    own: never,
    exact: true,
    decided: true,
    shared: false,
    inPlace: false,
    types: undefined,
    nullable: false,
    allowed: undefined,
    allowedValues: undefined,
    minimum: undefined,
    maximum: undefined,
    exclusiveMinimum: undefined,
    exclusiveMaximum: undefined,
    multipleOf: undefined,
    minLength: undefined,
    maxLength: undefined,
    pattern: undefined,
    format: undefined,
    minItems: undefined,
    maxItems: undefined,
    uniqueItems: false,
    prefixItems: undefined,
    items: undefined,
    contains: undefined,
    minContains: 1,
    maxContains: undefined,
    properties: undefined,
    patternProperties: undefined,
    additionalProperties: undefined,
    unevaluatedProperties: undefined,
    unevaluatedItems: undefined,
    required: [],
    minProperties: undefined,
    maxProperties: undefined,
    dependentRequired: undefined,
    dependentSchemas: undefined,
    propertyNames: undefined,
    ref: undefined,
    dynamicRef: undefined,
    scope: undefined,
    allOf: undefined,
    anyOf: undefined,
    oneOf: undefined,
    not: undefined,
    ifSchema: undefined,
    thenSchema: undefined,
    elseSchema: undefined,
  };
}

/** Sets the fields of a node read from its others (`own`, `inPlace`, `any`), once its keywords are read. */
export function finishNode(node: SchemaNode): SchemaNode {
  const n = node;
  // Where no schema applies in place, `unevaluated*` means what `additionalProperties` (`items`, but
  // for `contains`) does, which the early check reads.
  if (!(n.ref || n.allOf || n.anyOf || n.oneOf || n.ifSchema || n.dependentSchemas)) {
    n.additionalProperties ??= n.unevaluatedProperties;
    n.unevaluatedProperties = undefined;
    if (!n.contains) [n.items, n.unevaluatedItems] = [n.items ?? n.unevaluatedItems, undefined];
  }
  // Left to the final check, which gathers what the schemas in place evaluated.
  if (n.unevaluatedProperties || n.unevaluatedItems) n.decided = false;
  n.own =
    n.types !== undefined ||
    n.nullable ||
    n.allowed !== undefined ||
    [
      n.minimum,
      n.maximum,
      n.exclusiveMinimum,
      n.exclusiveMaximum,
      n.multipleOf,
      n.minLength,
      n.maxLength,
      n.pattern,
      n.format,
      n.minItems,
      n.maxItems,
      n.prefixItems,
      n.items,
      n.contains,
      n.properties,
      n.patternProperties,
      n.additionalProperties,
      n.unevaluatedProperties,
      n.unevaluatedItems,
      n.minProperties,
      n.maxProperties,
      n.dependentRequired,
      n.dependentSchemas,
      n.propertyNames,
    ].some((value) => value !== undefined) ||
    n.uniqueItems ||
    n.required.length > 0;
  n.inPlace = n.ref !== undefined || n.allOf !== undefined || n.anyOf !== undefined || n.oneOf !== undefined;
  n.any = !n.own && !n.inPlace && n.not === undefined && n.ifSchema === undefined;
  return n;
}

/** The schemas a node applies to its own value (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`). */
export function inPlace(s: SchemaNode, into: SchemaNode[] = []): SchemaNode[] {
  // Pushed one by one: read for every node twice a check, the spread lists were most of its garbage.
  for (const node of [s.ref, s.dynamicRef?.[1], s.dynamicRef?.[2], s.not, s.ifSchema, s.thenSchema, s.elseSchema])
    if (node !== undefined) into.push(node);
  for (const list of [s.allOf, s.anyOf, s.oneOf]) if (list) for (const node of list) into.push(node);
  if (s.dependentSchemas) for (const [, node] of s.dependentSchemas) into.push(node);
  return into;
}

/**
 * A pattern as ECMAScript with the `u` flag (as JSON Schema says), for the linear-time matcher,
 * or `undefined` when it is not a string, too long, not a valid regular expression, or not one
 * the matcher runs (backreferences, lookaround, more than `MAX_INSTRUCTIONS` once counted
 * repetitions are written out), or past `patterns` (its Unicode property escapes): `checkToolSchema`
 * refuses those, the checks ignore them.
 */
export function compilePattern(pattern: unknown, patterns?: PatternBudget): LinearPattern | undefined {
  if (typeof pattern !== "string" || pattern.length > MAX_PATTERN_LENGTH) return undefined;
  if (patterns && !patterns.take(pattern)) return undefined;
  const read = linearPattern(pattern);
  return read.type === "pattern" ? read.pattern : undefined;
}

/**
 * Whether a string of any length matches a pattern (a length cut made a long valid string fail
 * `pattern`, pass `not`). The matcher's work is taken from `budget`: when it runs out, `false`,
 * and `budget.steps` is below zero (the caller's check could not be finished, which is not a
 * failure to match).
 */
export function matchesPattern(pattern: LinearPattern, text: string, budget: StepBudget): boolean {
  return pattern.test(text, budget);
}

const sortedKeys = new WeakMap<ReadonlyMap<string, SchemaNode>, readonly string[]>();

/**
 * The names of a schema's `properties`, sorted by UTF-16 code units, for the early check's
 * narrowing of a key: sorted at the first call, then kept (by the map, which the copies of a
 * node share).
 */
export function propertyKeys(node: SchemaNode): readonly string[] {
  if (!node.properties) return [];
  let keys = sortedKeys.get(node.properties);
  if (!keys) sortedKeys.set(node.properties, (keys = [...node.properties.keys()].sort()));
  return keys;
}
