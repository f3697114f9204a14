import { isRecord } from "../shared/values.ts";
import { member, thousands } from "./bounded-issues.ts";
import { MAX_CHECK_NESTING } from "./check-budget.ts";
import { linearPattern } from "./pattern/linear-pattern.ts";
import type { PatternBudget } from "./pattern-budget.ts";
import { distinct } from "./text-keys.ts";
import { dialectOf, idKey } from "./schema-reading.ts";
import { MAX_PATTERN_LENGTH } from "./schema-node.ts";

/**
 * `checkToolSchema`'s checks of the keywords whose value is not a schema (`type`, `enum`,
 * `required`, bounds and counts, `pattern`, ...), by field.
 *
 * @module
 */

/** Why a `$schema` below the root is refused. */
const OTHER_DRAFT =
  "must name the draft the root's $schema declares: a resource of another draft is not read as its own";

/** The annotations whose type the metaschemas give. */
const ANNOTATIONS = Object.entries({
  title: "string",
  description: "string",
  $comment: "string",
  contentMediaType: "string",
  contentEncoding: "string",
  readOnly: "boolean",
  writeOnly: "boolean",
  deprecated: "boolean",
  examples: "array",
});

/** Whether a list of names holds none twice. */
const once = (list: readonly string[]): boolean => distinct(list).length === list.length;

/** Whether a value is a metaschema's `stringArray`: strings, each once. */
const strings = (list: unknown): boolean =>
  Array.isArray(list) && list.every((name) => typeof name === "string") && once(list);

/** Why a boolean `required` (draft 3's, on the property itself) is refused in every dialect. */
const DRAFT3 =
  ": a boolean required is draft 3's form, which the checks do not read (list the property in its object's required, as draft 4 and later do)";
/** What a `multipleOf` read as 0 may have been written as. */
const UNDERFLOW = "(one nearer 0 than a double holds, such as 1e-400, reads as 0)";
/** A URI's scheme (RFC 3986 §3.1), which `$vocabulary`'s keys begin with (2020-12 core §8.1.2). */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** The names `type` may give. */
const TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"];
const NUMBERS = ["minimum", "maximum"];
/** Keywords whose value is a count (a non-negative integer). */
const COUNTS = "minLength maxLength minItems maxItems minProperties maxProperties minContains maxContains".split(" ");

/** Reports the keywords of `value` with a number, string, list or boolean value not of the shape JSON Schema gives it. */
export function checkScalars(
  value: Record<string, unknown>,
  field: (key: string) => string,
  report: (at: string, message: string) => void,
  patterns: PatternBudget,
  dialect: number,
  root: boolean,
): void {
  const has = (key: string): boolean => Object.hasOwn(value, key);
  // A string (a URI, as every draft's metaschema says), and below the root the root's draft: an
  // embedded resource may declare its own (2020-12 core §8.1.1), which the checks, reading every
  // schema as the root's draft says, would read otherwise (2019-09's keywords unknown in draft 7).
  const schema = value["$schema"]; // `undefined` (no JSON): as absent
  if (schema !== undefined && typeof schema !== "string") report(field("$schema"), "must be a string");
  else if (schema !== undefined && !SCHEME.test(schema))
    report(field("$schema"), "must be a URI with a scheme (RFC 3986), naming the metaschema");
  else if (schema !== undefined && !root && dialect && dialectOf(value) !== dialect)
    report(field("$schema"), OTHER_DRAFT);
  const type = value["type"];
  // A name the checks do not know would leave `type` unchecked: not a JSON type, so not a valid schema.
  const names = typeof type === "string" ? [type] : type;
  // Every metaschema's `type` list and `stringArray` (`required`, `dependentRequired`) have `uniqueItems: true`.
  if (
    has("type") &&
    !(Array.isArray(names) && names.length > 0 && names.every((name) => TYPES.includes(name)) && once(names))
  )
    report(field("type"), `must be one of ${TYPES.join(", ")}, or a non-empty array of them`);
  if (has("enum") && !Array.isArray(value["enum"])) report(field("enum"), "must be an array");
  for (const key of ["enum", "const"])
    if (has(key) && nestsPast(value[key], MAX_CHECK_NESTING + (key === "enum" ? 1 : 0)))
      report(field(key), `nests deeper than ${MAX_CHECK_NESTING} levels (the checks compare values no deeper)`);
  const required = value["required"];
  if (has("required") && !strings(required))
    report(field("required"), `must be an array of strings, each once${typeof required === "boolean" ? DRAFT3 : ""}`);
  const id = idKey(dialect);
  if (has(id) && typeof value[id] !== "string") report(field(id), "must be a string");
  // The meta-data and content vocabularies' annotations (of the drafts that have each: see `inDraft`).
  for (const [key, type] of ANNOTATIONS)
    if (has(key) && (type === "array" ? !Array.isArray(value[key]) : typeof value[key] !== type))
      report(field(key), `must be a${type === "array" ? "n" : ""} ${type}`);
  // A number past what a double holds (`1e400`, Infinity once parsed) is said as such where it
  // sits, by `nonFiniteNumbers`, not as no number here; one nearer 0 (`1e-400`) is read as 0.
  const say = (key: string, words: string): void => {
    if (typeof value[key] === "number" && !Number.isFinite(value[key])) return;
    report(field(key), value[key] === 0 && key === "multipleOf" ? `${words} ${UNDERFLOW}` : words);
  };
  for (const key of NUMBERS) if (has(key) && !Number.isFinite(value[key])) say(key, "must be a number");
  // Draft 4's booleans beside minimum/maximum: a bound where no later draft (numbers only) is declared.
  for (const key of ["exclusiveMinimum", "exclusiveMaximum"])
    if (has(key) && !Number.isFinite(value[key]) && (typeof value[key] !== "boolean" || dialect > 5))
      say(key, `must be a number${dialect > 5 ? " ($schema says a draft after 4)" : ""}`);
  if (has("multipleOf") && !((value["multipleOf"] as number) > 0 && Number.isFinite(value["multipleOf"])))
    say("multipleOf", "must be a number greater than 0");
  for (const key of COUNTS)
    if (has(key) && !(Number.isInteger(value[key]) && (value[key] as number) >= 0))
      say(key, "must be a non-negative integer");
  const vocabulary = value["$vocabulary"];
  if (
    has("$vocabulary") &&
    !(
      isRecord(vocabulary) &&
      Object.keys(vocabulary).every((uri) => SCHEME.test(uri) && typeof vocabulary[uri] === "boolean")
    )
  )
    report(field("$vocabulary"), "must be an object of booleans keyed by URIs");
  for (const key of ["uniqueItems", "nullable", "$recursiveAnchor"])
    if (has(key) && typeof value[key] !== "boolean") report(field(key), "must be a boolean");
  if (has("format") && typeof value["format"] !== "string") report(field("format"), "must be a string");
  const problem = has("pattern") ? patternProblem(value["pattern"], patterns) : undefined;
  if (problem) report(field("pattern"), problem);
  const dependentRequired = value["dependentRequired"];
  if (has("dependentRequired") && !(isRecord(dependentRequired) && Object.values(dependentRequired).every(strings)))
    report(field("dependentRequired"), "must be an object of arrays of strings, each once");
  const dependencies = value["dependencies"];
  if (isRecord(dependencies))
    for (const name of Object.keys(dependencies))
      if (Array.isArray(dependencies[name]) && !strings(dependencies[name]))
        report(`${field("dependencies")}${member(name)}`, "must be an array of strings, each once");
}

/**
 * Whether a JSON value holds arrays and objects more than `limit` one inside another: the
 * canonical forms `enum` and `const` are compared by stop at {@link MAX_CHECK_NESTING}, and the
 * compilation with them (refused as too large, at the root). Iterative: it may be 100,000 deep.
 */
function nestsPast(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [at, depth] = next;
    if (at === null || typeof at !== "object") continue;
    if (depth > limit) return true;
    for (const item of Array.isArray(at) ? at : Object.values(at)) stack.push([item, depth + 1]);
  }
  return false;
}

/** What keeps a pattern from the linear-time matcher (not valid, a backreference, lookaround, too large), if anything. */
export function patternProblem(pattern: unknown, patterns: PatternBudget): string | undefined {
  if (typeof pattern !== "string") return "must be a string";
  if (pattern.length > MAX_PATTERN_LENGTH) return `is longer than ${thousands(MAX_PATTERN_LENGTH)} characters`;
  // Counted before the runtime reads it: the escapes are what would cost.
  if (!patterns.take(pattern)) return tooManyEscapes(patterns);
  const read = linearPattern(pattern);
  return read.type === "refused" ? read.reason : undefined;
}

/** Why a pattern past the budget is refused. */
export function tooManyEscapes(patterns: PatternBudget): string {
  return `takes the Unicode property escapes (\\p{...}) of the request's patterns past ${patterns.limit} (each costs the runtime far more than any other part of a pattern)`;
}
