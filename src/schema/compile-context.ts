import type { StepBudget } from "./pattern/pattern-vm.ts";
import type { PatternBudget } from "./pattern-budget.ts";
import type { Kids } from "./schema-flags.ts";
import { blank, type SchemaNode } from "./schema-node.ts";
import { resource } from "./schema-reading.ts";

/**
 * The state of one schema's compilation (compiled-schema.ts), and the parts of it read apart.
 *
 * @module
 */

/** How a schema is compiled. */
export interface CompileOptions {
  /** Check `format` for the formats of `ASSERTED_FORMATS`; otherwise `format` is an annotation. */
  assertFormats?: boolean | undefined;
  /** The work of a compilation this call makes is taken from it too (a schema already compiled costs nothing). */
  budget?: StepBudget | undefined;
  /** The Unicode property escapes its patterns may hold, with the request's other schemas' (a pattern past it is ignored). */
  patterns?: PatternBudget | undefined;
}

/** The state of one compilation. */
export interface Context {
  /**
   * Every schema object compiled, whether reached as a keyword's value or through a `$ref` (however
   * spelled): each is compiled once. Keyed by the target alone, a `$ref` into another's target
   * compiled that part again: refs to 60 nested levels over one enum compiled it 61 times. Kept
   * per resource its `$ref`s resolve against (one object may be in two), each node with its kids.
   */
  nodes: Map<unknown, Map<unknown, SchemaNode>>;
  /** Each node compiled, with the schemas it holds and where those it applies in place begin among them. */
  kids: Kids;
  /** The resource the `$ref`s of the schema being compiled resolve against: the root, or the nearest schema with an `$id`. */
  base: unknown;
  /** The draft the root declares (`dialectOf`). */
  dialect: number;
  root: unknown;
  count: number;
  /** The work of the compilation: a step per keyword, per item of a keyword's list, per character of a pointer or a pattern. */
  budget: StepBudget;
  assertFormats: boolean;
  patterns: PatternBudget | undefined;
  /** How deep the schema being compiled is nested, through the `$ref`s followed to reach it, less its depth in its own document. */
  nesting: number;
  /** Each resource's `$dynamicAnchor`s (those a `$dynamicRef` names). */
  scopes: Map<unknown, Map<string | true, SchemaNode>>;
  /** Per name, the node that applies every schema with that `$dynamicAnchor` (in its `allOf`), shared by its `$dynamicRef`s. */
  dynamic: Map<string | true, SchemaNode>;
  /** The one node every schema past the limits compiles to (see `MAX_SCHEMA_NODES`), once one is. */
  past?: SchemaNode;
}

/** Thrown when the `$ref`s followed nest deeper than `MAX_COMPILE_NESTING`. */
export const TOO_DEEP: Error = new Error("nested too deep");

/** The keywords the checks read, and those that never restrict (annotations, declarations). */
export const KNOWN: ReadonlySet<string> = new Set(
  `type enum const nullable minimum maximum exclusiveMinimum exclusiveMaximum multipleOf minLength maxLength
pattern format items prefixItems additionalItems minItems maxItems uniqueItems contains minContains maxContains
properties patternProperties additionalProperties required minProperties maxProperties dependentRequired
dependentSchemas dependencies propertyNames $ref $defs definitions allOf anyOf oneOf not if then else title
description default examples $comment deprecated readOnly writeOnly contentMediaType contentEncoding
contentSchema $schema $id $anchor $dynamicAnchor $dynamicRef $recursiveRef $recursiveAnchor unevaluatedProperties
unevaluatedItems`.split(/\s/),
);

/** What cannot be read, or is past the limits, accepts anything (and is not exact). */
export function unread(): SchemaNode {
  return { ...blank(false), exact: false, decided: false };
}

/**
 * What a schema past the limits compiles to: one node per compilation, a leaf that accepts (never
 * changed, never in `nodes`), so that the schemas past them (millions in a large body) take no
 * memory each.
 */
export function past(context: Context): SchemaNode {
  return (context.past ??= unread());
}

/** The schemas compiled in the resource `schema`'s `$ref`s resolve against (a resource is its own). */
export function nodesOf(context: Context, schema: unknown): Map<unknown, SchemaNode> {
  const base = resource(schema, context.dialect) ? schema : context.base;
  return context.nodes.get(base) ?? context.nodes.set(base, new Map()).get(base)!;
}

/** The `$dynamicAnchor`s of a resource, by name. */
export function scopeOf(context: Context, base: unknown): Map<string | true, SchemaNode> {
  return context.scopes.get(base) ?? context.scopes.set(base, new Map()).get(base)!;
}
