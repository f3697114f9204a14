import { isRecord } from "../shared/values.ts";
import { boundIssue, MAX_ISSUES, member, segment, thousands } from "./bounded-issues.ts";
import { MAX_IN_PLACE } from "./check-arguments.ts";
import { compileLimit, compileSchema } from "./compiled-schema.ts";
import { appliesTooDeepInPlace } from "./in-place-depth.ts";
import { dialectOf, draftView, inDraft, legacy, pointerTarget, pointerTokens, resource } from "./schema-reading.ts";
import { identifierIssues, identifiers } from "./identifier-issues.ts";
import { dynamicName, refStart, resourcesOf } from "./schema-resources.ts";
import { PatternBudget } from "./pattern-budget.ts";
import { checkScalars, patternProblem, tooManyEscapes } from "./check-scalars.ts";
import { nonFiniteNumbers } from "./non-finite-numbers.ts";
import { MAX_COMPILE_NESTING, MAX_COMPILE_STEPS, MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from "./schema-node.ts";

/** One problem of a tool's schema, at the field that has it. */
export interface ToolSchemaIssue {
  /** The field, from the `path` given: `tools[0].parameters.properties.city.enum`. */
  path: string;
  /** What is wrong with it. */
  message: string;
}

/** Options of {@link checkToolSchema}. */
export interface CheckToolSchemaOptions {
  /**
   * The Unicode property escapes (`\p{...}`) the schema's patterns may hold, and the instructions
   * they compile to: pass one budget to every call of a request, so that its schemas together hold
   * at most so many. By default, a budget of 64 escapes and 250,000 instructions for this schema alone.
   */
  patterns?: PatternBudget | undefined;
}

/** A resource `$ref`s resolve against (the root, or a schema with an `$id` of its own), and its path. */
type Base = readonly [unknown, string];

/**
 * A `$ref`, its path, the resource it is in, whether the checks read it, and its keyword (not read
 * off the path: a path is a rope of its schemas' names, which asking its end flattened: 4,000
 * `$ref`s under 60 levels of long property names took 66 ms of checkToolSchema, 41 ms without).
 */
type Ref = [string, string, Base, boolean, string];
const REMOTE = "must be a local reference (#/$defs/..., #name, or an $id's URI): remote ones are not followed";
const ESCAPE = "has a fragment that is no valid percent-encoding (RFC 3986: % and two hex digits)";
const TILDE = "has a JSON Pointer with a ~ not followed by 0 or 1 (RFC 6901)";
const NO_BASE = "cannot be resolved: the $id of the resource it is in is refused";

/** Why a pointer (`#/...`) a `$ref` leads to cannot be read: a `~` that is no escape, or no valid percent-encoding. */
function pointerProblem(pointer: string): string {
  try {
    return /~(?![01])/.test(decodeURIComponent(pointer)) ? TILDE : ESCAPE;
  } catch {
    return ESCAPE;
  }
}

/** The references, followed alike (`$dynamicRef` from its target, where the check may go on to another with its anchor). */
const REFS = ["$ref", "$dynamicRef", "$recursiveRef"];
/** Keywords whose value is one schema. */
const ONE = [
  "not",
  "if",
  "then",
  "else",
  "contains",
  "additionalProperties",
  "additionalItems",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contentSchema",
];
/** Keywords whose schemas the checks never read (a `$ref` in them is followed only from one they read). */
const SKIPPED = ["$defs", "definitions", "contentSchema"];
/** Keywords whose value is a non-empty list of schemas. */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords whose value is an object of schemas. */
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/**
 * Checks a tool's JSON Schema before it is used, as a server checks a request: every keyword the
 * checks read has the shape JSON Schema gives it (`type` JSON's type names, `enum` an array, `anyOf`/`allOf`/`oneOf` lists
 * of schemas, `properties` an object of schemas, `required` a list of strings, each once, numbers and counts
 * where they go, no number past a double anywhere (`1e400`, which JSON.parse reads as
 * Infinity and JSON.stringify writes as `null`: in `const`, `enum`, an annotation alike), the array form of `items` non-empty, the
 * annotations of the types the metaschemas give, `$vocabulary` an object of booleans, `pattern` and `patternProperties` valid ECMAScript regular expressions of at most
 * 1,000 characters that run in linear time (no backreference, lookahead or lookbehind, at most
 * 20,000 instructions once counted repetitions are written out, their Unicode property escapes
 * and, with the request's other patterns, their instructions within `options.patterns`), `$ref` a JSON Pointer (RFC 6901: `~0`, `~1`) into its
 * resource (the schema, or the nearest schema around it with an `$id` of its own), an anchor (`#name`) in it, or the
 * URI of an `$id` the schema holds, not a remote one (one only in an unused `$defs` entry, which
 * the checks never follow, is not refused), `$dynamicRef` and `$recursiveRef` likewise (with every
 * schema that has the anchor one names: the check may go there; each only in its own draft, or where none is declared), no two schemas named by one URI
 * or one anchor name in one resource (copies equal as JSON are one), no `$id` with a fragment
 * (`#name`) where `$schema` says 2019-09 or 2020-12 (draft 7's anchor form: kept where no `$schema`
 * says so; `#` alone is the resource's own URI), `$schema` a URI naming, below the root, the
 * draft the root declares (if it declares one; one unknown reads as none), an `$id` a URI reference, no `$anchor` or `$dynamicAnchor` that is no plain name as its draft spells one (a
 * keyword of another draft than the declared one is unknown: not read), and the schema holds at
 * most 20,000 schemas nested at most 64 deep (at most 1,000 through its `$ref`s), compiling in at
 * most 4,000,000 steps, applying at most 64 in place one inside another and none in a cycle (which
 * the checks would stop at, and accept). A schema only a `$ref` reaches (under a keyword JSON
 * Schema does not have, in an `enum` value) is checked as one, at the path the pointer names.
 * Returns the problems, each at its field's path from
 * `path` (at most 20, then one that counts the rest); empty when the schema can be used.
 *
 * The checks of arguments (`checkToolArguments`, `earlySchemaValidator`) never throw on a schema
 * that fails this: they ignore what they cannot read. This is for answering the sender, by field.
 *
 * @example
 * ```ts
 * import { checkToolSchema } from "tool-call-stream";
 *
 * checkToolSchema({ type: "object", properties: { city: { enum: "Paris" } } }, "tools[0].parameters");
 * // [{ path: "tools[0].parameters.properties.city.enum", message: "must be an array" }]
 * ```
 */
export function checkToolSchema(
  schema: unknown,
  path = "parameters",
  options: CheckToolSchemaOptions = {},
): ToolSchemaIssue[] {
  const patterns = options.patterns ?? new PatternBudget();
  const state = { issues: [] as ToolSchemaIssue[], more: 0, nodes: 0 };
  const dialect = dialectOf(schema);
  // The schemas walked (per resource their `$ref`s resolve against, as the compilation keeps
  // them: keyed by resource first, a map per resource rather than one per schema), and those `$ref`s point to with their paths and resources: one reached only through a
  // `$ref` (under a keyword JSON Schema does not have, in an `enum` value) is checked too, once.
  const seen = new Map<unknown, Map<unknown, boolean>>();
  const refs: Ref[] = [];
  const targets: [unknown, string, number, Base, boolean][] = [];
  // Where each schema with an `$id` or an anchor is, for the `$ref`s that name it.
  const paths = new Map<unknown, string>([[schema, path]]);
  // Each `$dynamicAnchor` name whose schemas are to be checked, and whether from a place read.
  const anchored = new Map<string | true, boolean>();
  const budget = { steps: MAX_COMPILE_STEPS };
  const report = (at: string, message: string): void => {
    if (state.issues.length < MAX_ISSUES) state.issues.push({ path: boundIssue(at), message });
    else state.more++;
  };
  // `read`: whether the checks read it, not only a `$defs` entry or under a keyword they skip (a
  // `$ref` there that cannot be followed is no matter until one that is read points to it).
  // `again`: walked before as not read, its shape already checked: only its `$ref`s are now.
  const count = (): void => {
    if (++state.nodes === MAX_SCHEMA_NODES + 1) report(path, `holds more than ${thousands(MAX_SCHEMA_NODES)} schemas`);
  };
  const visit = (value: unknown, at: string, depth: number, outer: Base, read: boolean, again = false): void => {
    // A boolean is a schema too (the compilation counts it): 200,000 `true`s were accepted.
    if (typeof value === "boolean") return again ? undefined : count();
    if (!isRecord(value)) return again ? undefined : report(at, "must be a schema (an object or a boolean)");
    // Depth first: an object also shared at a shallow place is still skipped by the checks here.
    if (depth > MAX_SCHEMA_DEPTH) return report(at, `nests deeper than ${MAX_SCHEMA_DEPTH} schemas`);
    // An `$id` of its own makes it the resource its `$ref`s (and its schemas') resolve against.
    const base: Base = resource(value, dialect) ? [value, at] : outer;
    let walked = seen.get(base[0]);
    if (!walked) seen.set(base[0], (walked = new Map()));
    const was = walked.get(value);
    if (was || (was === false && !read)) return;
    walked.set(value, read);
    again = was === false;
    if (!again) count();
    if (state.nodes > MAX_SCHEMA_NODES) return;
    const say = again ? () => {} : report;
    const field = (key: string): string => `${at}${member(key)}`;
    // Draft 4 to 7 ignore every sibling of a `$ref`: not schemas to check (a pointer may still reach
    // them); a keyword of another draft is unknown.
    const only = legacy(dialect) && typeof value["$ref"] === "string";
    const has = (key: string): boolean =>
      Object.hasOwn(value, key) && (!only || key === "$ref") && inDraft(key, dialect);
    // 2020-12 has no `items` list (it is no schema there); beside `prefixItems`, `items` is one schema.
    const tuple =
      Array.isArray(value["items"]) &&
      has("items") &&
      dialect !== 2020 &&
      !(has("prefixItems") && Array.isArray(value["prefixItems"]));
    const kid = (kid: unknown, to: string, key: string): void =>
      visit(kid, to, depth + 1, base, read && !SKIPPED.includes(key) && (key !== "additionalItems" || tuple), again);
    for (const key of ONE) if (has(key)) kid(value[key], field(key), key);
    for (const key of LIST) {
      if (!has(key)) continue;
      const list = value[key];
      if (!Array.isArray(list) || list.length === 0) say(field(key), "must be a non-empty array of schemas");
      else list.forEach((item, i) => kid(item, `${field(key)}[${i}]`, key));
    }
    for (const key of MAP) {
      if (!has(key)) continue;
      const map = value[key];
      if (!isRecord(map)) say(field(key), "must be an object of schemas");
      else for (const name of Object.keys(map)) kid(map[name], `${field(key)}${member(name)}`, key);
    }
    // The array form is a non-empty list (every draft's `schemaArray` has `minItems: 1`).
    if (tuple && (value["items"] as unknown[]).length === 0)
      say(field("items"), "must be a schema, or a non-empty array of schemas");
    else if (tuple) (value["items"] as unknown[]).forEach((item, i) => kid(item, `${field("items")}[${i}]`, "items"));
    else if (has("items")) kid(value["items"], field("items"), "items");
    const dependencies = has("dependencies") && value["dependencies"];
    if (isRecord(dependencies))
      for (const name of Object.keys(dependencies))
        if (!Array.isArray(dependencies[name]))
          kid(dependencies[name], `${field("dependencies")}${member(name)}`, "dependencies");
    if (!again && !only) {
      checkScalars(draftView(value, dialect), field, report, patterns, dialect, value === schema);
      if (isRecord(value["patternProperties"]))
        for (const key of Object.keys(value["patternProperties"])) {
          const problem = patternProblem(key, patterns);
          if (problem) report(`${field("patternProperties")}${member(key)}`, problem);
        }
    }
    // A pointer now, a name or URI once the walk has seen where each anchor and `$id` is.
    // `$recursiveRef` is 2019-09's, `$dynamicRef` 2020-12's: in another draft, an unknown keyword, not read.
    for (const key of REFS) {
      if (!has(key)) continue;
      const ref: Ref = [value[key] as string, field(key), base, read, key];
      if (typeof ref[0] !== "string") say(ref[1], "must be a string");
      else if (pointerTokens(ref[0]) && key === "$ref") follow(ref);
      else refs.push(ref);
    }
    if (identifiers(value, dialect, (key, message) => say(field(key), message)) && !paths.has(value))
      paths.set(value, at);
  };
  // A `$ref` that is no pointer and leads nowhere: remote, or a fragment (`#name`) in a resource
  // whose `$id` is no URI reference (refused at that `$id`), where nothing resolves.
  const unresolved = (ref: string, base: Base): string => {
    const uris = resourcesOf(schema as object, dialect).uris;
    return ref.startsWith("#") && uris.has(base[0]) && uris.get(base[0]) === undefined ? NO_BASE : REMOTE;
  };
  const follow = ([ref, at, base, read, key]: Ref): void => {
    const refuse = (message: string): void => void (read && report(at, message));
    const [home, start, pointer] = refStart(ref, schema, dialect, base[0], budget);
    const tokens = pointerTokens(pointer);
    // A pointer found but not read: its percent-encoding is no valid one (`%zz`), or a `~` is no escape.
    if (!tokens)
      return budget.steps < 0 ? undefined : refuse(pointer ? pointerProblem(pointer) : unresolved(ref, base));
    // The pointer's path from its resource, and the last resource it goes through.
    const from = (at: unknown): Base => [at, at === base[0] ? base[1] : (paths.get(at) ?? path)];
    let [to, i, reached] = [from(start)[1], 0, from(home)];
    const target = pointerTarget(start, pointer, (at) => {
      to += segment(tokens[i++]!);
      if (resource(at, dialect)) reached = [at, to];
    });
    if (target === undefined)
      return refuse(`points to nothing in ${home === schema ? "the schema" : `the schema of its $id (${reached[1]})`}`);
    targets.push([target, to, 1, reached, read]);
    // A `$dynamicRef` to a `$dynamicAnchor` may reach every schema with that anchor: each is read
    // too, once per name (once more if first only from a place not read): once per ref, 2,000 refs
    // to 2,000 anchors were 4 million schemas to look at.
    const name = key === "$ref" ? undefined : dynamicName(ref, key === "$recursiveRef", target);
    if (name !== undefined && anchored.get(name) !== true && (read || !anchored.has(name))) {
      anchored.set(name, read);
      for (const [home, anchor] of resourcesOf(schema as object, dialect).dynamic.get(name) ?? [])
        targets.push([anchor, paths.get(anchor) ?? path, 1, from(home), read]);
    }
  };
  try {
    nonFiniteNumbers(schema, (at, message) => report(state.issues.length < MAX_ISSUES ? at() : path, message), path);
    visit(schema, path, 0, [schema, path], true);
    // Compiled where it is reached, each at depth 1 (as the compilation reads them).
    for (let i = 0, j = 0; i < targets.length || j < refs.length; )
      if (j < refs.length) follow(refs[j++]!);
      else visit(...targets[i++]!);
    identifierIssues(schema, dialect, paths, report);
    // A `$ref` may point where the walk above does not go (under a keyword it does not know): the
    // compilation counts those patterns' escapes too.
    const refused = patterns.refused;
    const instructions = patterns.instructionsLeft;
    const limit = state.issues.length === 0 ? compileLimit(schema, { patterns }) : undefined;
    if (limit === "nesting")
      report(path, `nests deeper than ${thousands(MAX_COMPILE_NESTING)} schemas through its $refs`);
    else if (limit === "size")
      report(
        path,
        `compiles to more than ${thousands(MAX_SCHEMA_NODES)} schemas or ${thousands(MAX_COMPILE_STEPS)} steps of work, counting those its $refs reach (the rest would accept anything)`,
      );
    else if (state.issues.length === 0 && appliesTooDeepInPlace(compileSchema(schema), patterns))
      report(
        path,
        `applies more than ${MAX_IN_PLACE} schemas one inside another to one value ($ref, allOf, anyOf, oneOf, not, if), or applies them in a cycle`,
      );
    if (patterns.refused > refused) report(path, tooManyEscapes(patterns));
    if (patterns.instructionsLeft < Math.min(0, instructions))
      report(
        path,
        `has patterns that compile to more than ${thousands(patterns.instructionLimit)} instructions with the request's other schemas' (each written pattern is a program of its own, kept once run)`,
      );
  } catch {
    // A schema object whose reading throws (a getter, a proxy) is not JSON: one issue says so.
    return [{ path, message: "could not be read as JSON" }];
  }
  if (state.more > 0) state.issues.push({ path, message: `and ${thousands(state.more)} more problems` });
  return state.issues;
}
