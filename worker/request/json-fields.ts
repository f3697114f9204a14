/**
 * Readers of a parsed request body that never see `Object.prototype`: a client's keys such as
 * `__proto__`, `constructor`, `toString` or `hasOwnProperty` are the client's data, and a field
 * the client left out is absent even when `Object.prototype` has a member of that name. Every
 * request parser reads the body's fields through `own`.
 *
 * @module
 */
import { checkToolSchema, type PatternBudget } from "../../src/index.ts";
import { invalidField, type HttpError } from "../response/json-error.ts";
import { schemaKey, ValidSchemas } from "./valid-schemas.ts";

/** Deepest nesting of arrays and objects a request may have: more is refused before anything recurses over it. */
export const MAX_DEPTH = 64;

/** `record[key]` when `key` is one of `record`'s own keys, else `undefined` (never a member of `Object.prototype`). */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `value` when it is an integer from `min` to `max` (a safe integer), else a 400 naming `field`. */
export function boundedInteger(value: unknown, field: string, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max)
    throw invalidField(field, `\`${field}\` must be an integer from ${min} to ${max}.`);
  return value as number;
}

/** `value` when it is a finite number from `min` to `max`, else a 400 naming `field`. */
export function boundedNumber(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max)
    throw invalidField(field, `\`${field}\` must be a number from ${min} to ${max}.`);
  return value;
}

/** True for a JSON object (not `null`, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The path of the first array or object nested deeper than {@link MAX_DEPTH} levels in `value`
 * (as `messages[0].content[0][0]...`), or `undefined`. The walk goes no deeper than that limit (a
 * body of 100,000 nested arrays costs 64 calls), allocates nothing per value (it runs over every
 * request's whole body, tools' schemas included), and builds a path only for the value at fault.
 */
export function tooDeep(value: unknown): string | undefined {
  const path = deepPath(value, 0);
  return path === undefined ? undefined : jsonPath(path.reverse());
}

/** The keys from the first array or object at {@link MAX_DEPTH} up to `value` (deepest first), if any. */
function deepPath(value: unknown, depth: number): (string | number)[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if (depth >= MAX_DEPTH) return [];
  // The last key first, as the walk always went: the same value at fault when several are.
  if (Array.isArray(value)) {
    for (let i = value.length - 1; i >= 0; i--) {
      const path = deepPath(value[i], depth + 1);
      if (path) {
        path.push(i);
        return path;
      }
    }
    return undefined;
  }
  const keys = Object.keys(value);
  for (let i = keys.length - 1; i >= 0; i--) {
    const path = deepPath((value as Record<string, unknown>)[keys[i]!], depth + 1);
    if (path) {
      path.push(keys[i]!);
      return path;
    }
  }
  return undefined;
}

/** The 400 for a body nested deeper than {@link MAX_DEPTH}, naming where. */
export function tooDeepError(field: string): HttpError {
  return invalidField(field, `\`${field}\` is nested more than ${MAX_DEPTH} levels deep.`);
}

/** A path as `messages[2].content`; keys that are not plain names are written as `["key"]`. */
export function jsonPath(path: readonly (string | number)[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === "number") return `${text}[${key}]`;
    if (/^[A-Za-z_$][\w$-]{0,63}$/.test(key)) return text === "" ? key : `${text}.${key}`;
    return `${text}[${/^[\w .-]{0,64}$/.test(key) ? JSON.stringify(key) : '"…"'}]`;
  }, "");
}

/**
 * A tool's JSON Schema checked before anything uses it (`checkToolSchema`: `enum` an array,
 * `anyOf` a list of schemas, `properties` an object of schemas, numbers where numbers go, bounded
 * size and depth): a 400 naming the first field at fault by its path from `path`, as the client
 * wrote it (`tools[0].parameters.properties.city.enum`), so a schema the validators cannot read
 * never reaches them. The message names the field and says what it must be, never its value.
 * `patterns` is the request's one budget of Unicode property escapes, shared by all its tools.
 *
 * @example
 * ```ts
 * const patterns = new PatternBudget();
 * checkParameters(parameters, "tools[0].parameters", patterns); // throws a 400 for { enum: "abc" }
 * ```
 */
export function checkParameters(schema: unknown, path: string, patterns: PatternBudget): void {
  // An agent resends its tools every turn: a schema this isolate found valid is not checked again.
  const key = schemaKey(schema);
  if (key !== undefined && validSchemas.has(key)) return;
  const issues = checkToolSchema(schema, path, { patterns });
  const first = issues[0];
  if (!first) {
    if (key !== undefined) validSchemas.add(key);
    return;
  }
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problems in this schema)` : "";
  throw invalidField(first.path, `\`${first.path}\` ${first.message}${more}.`);
}

/** The schemas this isolate found valid (pattern-free ones: `schemaKey`). */
const validSchemas = new ValidSchemas();

/** Where each API a client may have copied a tool from puts its JSON Schema. */
const SCHEMA_KEYS = ["parameters", "input_schema", "inputSchema", "schema"] as const;

/**
 * A 400 for a tool `fields` (at `path`) that has no schema under `key`, its protocol's name for
 * it, but one under another API's (Chat's `parameters` sent to Messages, Anthropic's `input_schema`
 * to Responses, the AI SDK's `inputSchema`, MCP's `schema`): read as a tool without parameters,
 * it would reach the model with none, and its calls would be checked against nothing.
 *
 * @example
 * ```ts
 * misnamedSchema({ name: "get_weather", parameters: {} }, "tools[0]", "input_schema"); // throws a 400 naming tools[0].parameters
 * ```
 */
export function misnamedSchema(fields: Record<string, unknown>, path: string, key: (typeof SCHEMA_KEYS)[number]): void {
  if (own(fields, key) !== undefined) return;
  const misnamed = SCHEMA_KEYS.find((other) => other !== key && own(fields, other) !== undefined);
  if (misnamed !== undefined)
    throw invalidField(`${path}.${misnamed}`, `The tool's JSON Schema goes in \`${key}\`, not \`${misnamed}\`.`);
}
