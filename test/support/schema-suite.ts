// The official JSON Schema Test Suite (draft 2020-12 and draft 7 keyword files, bundled by
// scripts/bundle-fixtures.mjs) run through both schema checks, with each schema as a tool's
// parameters: the final check (toolSchemaValidator) and the early one (SchemaWatcher on an
// IncrementalJsonParser, fed the instance one character at a time).
import suite from "../generated/json-schema-suite.json" with { type: "json" };
import { IncrementalJsonParser, type JsonValue, type ToolSchema, toolSchemaValidator } from "../../src/index.ts";
import { SchemaWatcher } from "../../src/schema/schema-watcher.ts";

interface SuiteTest {
  description: string;
  data: unknown;
  valid: boolean;
}
interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: SuiteTest[];
}
export interface SuiteFile {
  draft: string;
  file: string;
  groups: SuiteGroup[];
}

/** Whether the suite was found when the tests were bundled, where, and its files. */
export const schemaSuite: { files: SuiteFile[] } = {
  // Parsed here, not by the bundler: JSON.parse keeps a "__proto__" key as an own property.
  files: (suite as { files: { draft: string; file: string; text: string }[] }).files.map(({ draft, file, text }) => ({
    draft,
    file,
    groups: JSON.parse(text) as SuiteGroup[],
  })),
};

/** What the checks make of one file. */
export interface SuiteTally {
  run: number;
  agreed: number;
  /** Cases whose final verdict is not compared, by why. */
  skipped: Record<string, number>;
  /** Invalid instances the early check flagged before they ended. */
  earlyCaught: number;
  invalid: number;
  /** Cases of supported keywords where the final check disagreed with the suite. */
  disagreements: string[];
  /** Valid instances rejected by the final check or flagged by the early one (in any case not exempted). */
  falseAlarms: string[];
}

/** The keywords the checks read, and the annotations that never restrict. */
const SUPPORTED = new Set([
  "type",
  "enum",
  "const",
  "nullable",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "items",
  "prefixItems",
  "additionalItems",
  "minItems",
  "maxItems",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "properties",
  "patternProperties",
  "additionalProperties",
  "required",
  "minProperties",
  "maxProperties",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "propertyNames",
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
  "$anchor",
  "$dynamicAnchor",
  "$recursiveAnchor",
  "$defs",
  "definitions",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "title",
  "description",
  "default",
  "examples",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
const DRAFT7 = "http://json-schema.org/draft-07/schema#";
const DRAFT2020 = "https://json-schema.org/draft/2020-12/schema";
const METASCHEMAS = new Set([DRAFT2020, DRAFT7, "http://json-schema.org/draft-07/schema"]);
/** Keywords whose value is a schema, a list of schemas, or a map of schemas. */
const ONE = [
  "items",
  "additionalItems",
  "contains",
  "additionalProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
];
const LIST = ["items", "prefixItems", "allOf", "anyOf", "oneOf"];
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"];

type Schema = Record<string, unknown>;
const isSchemaObject = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Calls `visit` on every schema object inside `schema` (itself included), through the keywords that hold schemas. */
function eachSchema(schema: unknown, visit: (s: Schema) => void): void {
  if (!isSchemaObject(schema)) return;
  visit(schema);
  for (const key of ONE) if (Object.hasOwn(schema, key) && !Array.isArray(schema[key])) eachSchema(schema[key], visit);
  for (const key of LIST)
    if (Array.isArray(schema[key])) for (const item of schema[key] as unknown[]) eachSchema(item, visit);
  for (const key of MAP) {
    const map = schema[key];
    if (isSchemaObject(map)) for (const name of Object.keys(map)) eachSchema(map[name], visit);
  }
}

/**
 * Whether a `$ref` (`$dynamicRef`) names a URI no `$id` of the schema has (resolved with the URL API against the
 * `$id`s around it; in draft 7 an `$id` beside a `$ref` does not count).
 */
function remoteRef(schema: unknown, draft7: boolean): boolean {
  const ids = new Set<string>();
  const refs: string[] = [];
  const walk = (s: unknown, base: string): void => {
    if (!isSchemaObject(s)) return;
    const id = s["$id"];
    if (typeof id === "string" && !id.startsWith("#") && !(draft7 && "$ref" in s))
      ids.add((base = new URL(id, base).href));
    for (const key of ["$ref", "$dynamicRef"])
      if (typeof s[key] === "string") refs.push(new URL(s[key], base).href.replace(/#.*/, ""));
    for (const key of ONE) if (!Array.isArray(s[key])) walk(s[key], base);
    for (const key of LIST) if (Array.isArray(s[key])) for (const item of s[key] as unknown[]) walk(item, base);
    for (const key of MAP) if (isSchemaObject(s[key])) for (const item of Object.values(s[key])) walk(item, base);
  };
  const root = "https://root.invalid/schema";
  walk(schema, root);
  return refs.some((ref) => ref !== root && !ids.has(ref.replace(/#.*/, "")));
}

/** Why a case's final verdict is not compared (`undefined`: every keyword supported), and whether it is exempt from the no-false-alarm rule. */
function skipReason(file: SuiteFile, schema: unknown): { why: string; exempt: boolean } | undefined {
  let found: { why: string; exempt: boolean } | undefined;
  const note = (why: string, exempt = false): void => {
    if (!found || (exempt && !found.exempt)) found = { why, exempt };
  };
  if (file.file === "refRemote.json" || remoteRef(schema, file.draft === "draft7")) note("remote refs");
  eachSchema(schema, (s) => {
    if (typeof s["$schema"] === "string" && !METASCHEMAS.has(s["$schema"])) note("custom metaschema", true);
    for (const key of Object.keys(s))
      if (!SUPPORTED.has(key) && key !== "$schema" && key !== "$id") note(`unsupported ${key}`);
  });
  return found;
}

/**
 * A `$ref` into the suite's schema, moved under `properties.v` where the schema now sits; not in
 * a schema with an `$id` of its own (a resource: its `$ref`s resolve against it, wherever it is).
 */
function moveRefs(schema: unknown): unknown {
  if (!isSchemaObject(schema)) return schema;
  if (typeof schema["$id"] === "string" && !schema["$id"].startsWith("#")) return schema;
  const copy: Schema = { ...schema };
  for (const key of ["$ref", "$dynamicRef"]) {
    const ref = copy[key];
    if (typeof ref === "string" && /^#(\/|$)/.test(ref)) copy[key] = `#/properties/v${ref.slice(1)}`;
  }
  for (const key of ONE) if (Object.hasOwn(copy, key) && !Array.isArray(copy[key])) copy[key] = moveRefs(copy[key]);
  for (const key of LIST) if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).map(moveRefs);
  for (const key of MAP) {
    const map = copy[key];
    if (isSchemaObject(map))
      copy[key] = Object.fromEntries(Object.keys(map).map((name) => [name, moveRefs(map[name])]));
  }
  return copy;
}

/**
 * A case as a tool call: an object instance as is, any other wrapped as `{v: ...}` with the schema
 * moved to `properties.v`. The root declares its file's draft (`$schema`), as a tool's schema must
 * for the checks to read it so (draft 7: a `$ref`'s siblings ignored, no 2019-09 keywords), unless
 * `declared` is false (the default dialect, which a 2020-12 file's cases must pass as well).
 */
function asToolCall(
  file: SuiteFile,
  schema: unknown,
  data: unknown,
  declared: boolean,
): { parameters: unknown; args: JsonValue } {
  const draft = declared ? { $schema: file.draft === "draft7" ? DRAFT7 : DRAFT2020 } : {};
  if (isSchemaObject(data))
    return { parameters: isSchemaObject(schema) ? { ...draft, ...schema } : schema, args: data as JsonValue };
  return {
    parameters: { ...draft, type: "object", properties: { v: moveRefs(schema) }, required: ["v"] },
    args: { v: data as JsonValue },
  };
}

/** Runs one file's cases through both checks, the root declaring the file's draft unless `declared` is false. */
export function runSuiteFile(file: SuiteFile, declared = true): SuiteTally {
  const tally: SuiteTally = {
    run: 0,
    agreed: 0,
    skipped: {},
    earlyCaught: 0,
    invalid: 0,
    disagreements: [],
    falseAlarms: [],
  };
  for (const group of file.groups) {
    const skip = skipReason(file, group.schema);
    for (const test of group.tests) {
      const name = `${file.draft}/${file.file}: ${group.description} / ${test.description}`;
      const { parameters, args } = asToolCall(file, group.schema, test.data, declared);
      const validate = toolSchemaValidator([{ name: "t", parameters: parameters as ToolSchema }]);
      const issues = validate("t", args);
      const watcher = new SchemaWatcher(parameters);
      const parser = new IncrementalJsonParser({ listener: watcher });
      for (const character of JSON.stringify(args)) {
        parser.feed(character);
        if (watcher.violation) break;
      }
      if (skip) tally.skipped[skip.why] = (tally.skipped[skip.why] ?? 0) + 1;
      else {
        tally.run++;
        if ((issues === undefined) === test.valid) tally.agreed++;
        else
          tally.disagreements.push(`${name}: expected ${test.valid ? "valid" : "invalid"}, ${JSON.stringify(issues)}`);
      }
      if (!test.valid) {
        tally.invalid++;
        if (watcher.violation) tally.earlyCaught++;
      }
      if (test.valid && !skip?.exempt) {
        if (issues) tally.falseAlarms.push(`${name}: rejected ${JSON.stringify(issues)}`);
        if (watcher.violation) tally.falseAlarms.push(`${name}: early ${JSON.stringify(watcher.violation)}`);
      }
      // An early violation is one the final check reports too, whatever the suite says.
      if (watcher.violation && !issues && !skip?.exempt)
        tally.falseAlarms.push(
          `${name}: early ${JSON.stringify(watcher.violation)} on arguments the final check accepts`,
        );
    }
  }
  return tally;
}
