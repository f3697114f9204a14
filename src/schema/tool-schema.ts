import type { JsonValue } from "../shared/json.ts";
import type { StandardSchemaV1 } from "../shared/standard-schema.ts";
import { isStandardSchema, standardJsonSchema } from "./standard-schema.ts";

/** The subset of JSON Schema that strict tool definitions use (arrays `readonly`, so that a schema written `as const` fits). */
export interface ToolSchema {
  /** The JSON type, or a list of types (`["string", "null"]` for a nullable value); `integer` is a whole number. */
  type?: string | readonly string[];
  /** The schemas of an object's properties, by name. */
  properties?: Record<string, ToolSchema>;
  /** The properties an object must have. */
  required?: readonly string[];
  /** `false` rejects properties not in `properties`; a schema checks each of them. */
  additionalProperties?: boolean | ToolSchema;
  /** The schema of every item of an array. */
  items?: ToolSchema;
  /** The only values allowed. */
  enum?: readonly JsonValue[];
  /** The one value allowed. */
  const?: JsonValue;
  /** The value must match at least one of these schemas. */
  anyOf?: readonly ToolSchema[];
  /** The fewest items an array may have. */
  minItems?: number;
  /** The most items an array may have. */
  maxItems?: number;
  /** The smallest number allowed. */
  minimum?: number;
  /** The largest number allowed. */
  maximum?: number;
  /** The most characters a string may have, counted in Unicode code points as JSON Schema counts them. */
  maxLength?: number;
  /** OpenAPI's (and Gemini's) way to allow `null` besides the other types: `null` then passes every check. */
  nullable?: boolean;
}

/**
 * A tool definition as the providers spell it: OpenAI Chat `{type: "function", function: {name,
 * parameters}}`, Responses `{type: "function", name, parameters}`, Anthropic `{name, input_schema}`;
 * or described by the application's own validator, `{name, schema}` ({@link ValidatorToolDefinition}).
 */
export type ToolDefinition =
  | { type?: string; function: { name: string; parameters?: ToolSchema } }
  | { type?: string; name: string; parameters?: ToolSchema }
  | { name: string; input_schema?: ToolSchema }
  | ValidatorToolDefinition;

/**
 * A tool described by the application's own validator: any Standard Schema v1 (zod 4, valibot,
 * arktype, ...). Final arguments are validated with it and a call's `arguments` is its output
 * (defaults, coercions and transforms applied); when it also gives its JSON Schema (Standard
 * JSON Schema v1, as zod 4 does), that schema is the tool's parameters for the provider and for
 * schema checks ({@link schemasByName}).
 */
export interface ValidatorToolDefinition<
  Name extends string = string,
  Schema extends StandardSchemaV1 = StandardSchemaV1,
> {
  /** The function name. */
  name: Name;
  /** What the tool does, for the model. */
  description?: string;
  /** The validator of the arguments. */
  schema: Schema;
}

/**
 * Reads the tools' JSON Schemas by name; tools without one are not checked. A tool given by a
 * validator ({@link ValidatorToolDefinition}) has the JSON Schema the validator gives of its
 * input (Standard JSON Schema v1), if any.
 *
 * @example
 * ```ts
 * const schemas = schemasByName([{ type: "function", function: { name: "get_weather", parameters: { type: "object", required: ["city"] } } }]);
 * checkToolArguments({}, schemas.get("get_weather")!); // ["$.city is required"]
 * ```
 */
export function schemasByName(tools: readonly ToolDefinition[]): Map<string, ToolSchema> {
  const schemas = new Map<string, ToolSchema>();
  for (const tool of tools) {
    if ("function" in tool) {
      if (tool.function.parameters) schemas.set(tool.function.name, tool.function.parameters);
    } else if ("schema" in tool && isStandardSchema(tool.schema)) {
      const schema = standardJsonSchema(tool.schema);
      if (schema) schemas.set(tool.name, schema as ToolSchema);
    } else if ("input_schema" in tool) {
      if (tool.input_schema) schemas.set(tool.name, tool.input_schema);
    } else if ("parameters" in tool && tool.parameters) schemas.set(tool.name, tool.parameters);
  }
  return schemas;
}

/**
 * The function name of a tool definition, in any of its shapes.
 *
 * @example
 * ```ts
 * toolName({ type: "function", function: { name: "get_weather" } }); // "get_weather"
 * ```
 */
export function toolName(tool: ToolDefinition): string {
  return "function" in tool ? tool.function.name : tool.name;
}

/**
 * Checks the final arguments of a completed call: readable reasons when they are rejected,
 * `undefined` when they are accepted. The `validate` plug-in of `ToolCallAccumulator`.
 */
export type ToolArgumentsValidator = (name: string, value: JsonValue) => string[] | undefined;

/**
 * The `validate` plug-in for the request's tools (OpenAI, Responses or Anthropic shape): a call
 * whose arguments violate its tool's schema, or whose name is not one of the tools, is rejected
 * (the accumulator makes it an `invalid-tool-call` of code `schema-mismatch`). Tools without a
 * schema accept any arguments, and so do tools given by a validator (`{ name, schema }`): their
 * validator is the judge of their arguments, in the `validateToolCalls` step (its JSON Schema
 * may be stricter than it, as for a value it coerces). `streamToolCalls` does both for its
 * `tools` option.
 *
 * @example
 * ```ts
 * import { SSEDecoderStream, ToolCallAccumulatorStream } from "tool-call-stream/core";
 * import { toolSchemaValidator } from "tool-call-stream";
 *
 * const events = body
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new OpenAIChatDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream({ validate: toolSchemaValidator(tools) }));
 * ```
 */
export function toolSchemaValidator(tools: readonly ToolDefinition[]): ToolArgumentsValidator {
  const schemas = schemasByName(tools.filter((tool) => !("schema" in tool && isStandardSchema(tool.schema))));
  const names = new Set(tools.map(toolName));
  return (name, value) => {
    const schema = schemas.get(name);
    if (!schema) return names.has(name) ? undefined : [`${name} is not one of the request's tools`];
    const issues = checkToolArguments(value, schema);
    return issues.length > 0 ? issues : undefined;
  };
}

/**
 * Checks a value against a tool schema: types (with `integer`, nullable type arrays and
 * `nullable: true`), `required`, `properties`, `additionalProperties: false`, `enum`, `const`,
 * `items`, `anyOf`, `minItems`/`maxItems`, `minimum`/`maximum`, `maxLength`. Other keywords are
 * not checked. Returns readable reasons, one per violation (empty when valid).
 *
 * @example
 * ```ts
 * checkToolArguments({ city: 1 }, { type: "object", properties: { city: { type: "string" } }, required: ["city", "unit"] });
 * // ["$.unit is required", "$.city must be string, not number"]
 * ```
 */
export function checkToolArguments(value: JsonValue, schema: ToolSchema, path = "$"): string[] {
  if (value === null && schema.nullable === true) return [];
  if (schema.anyOf) {
    const branches = schema.anyOf.map((branch) => checkToolArguments(value, branch, path));
    return branches.some((issues) => issues.length === 0) ? [] : [`${path} matches none of the allowed shapes`];
  }
  const types = schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types && !types.some((type) => hasType(value, type)))
    return [`${path} must be ${types.join(" or ")}, not ${typeOf(value)}`];
  const issues: string[] = [];
  if (schema.enum && !schema.enum.some((option) => sameJson(option, value)))
    issues.push(`${path} must be one of ${schema.enum.map((o) => JSON.stringify(o)).join(", ")}`);
  if (schema.const !== undefined && !sameJson(schema.const, value))
    issues.push(`${path} must be ${JSON.stringify(schema.const)}`);
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum)
      issues.push(`${path} must be at least ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum)
      issues.push(`${path} must be at most ${schema.maximum}`);
  } else if (typeof value === "string") {
    if (typeof schema.maxLength === "number" && codePoints(value) > schema.maxLength)
      issues.push(`${path} must have at most ${schema.maxLength} characters`);
  } else if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      issues.push(`${path} must have at least ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      issues.push(`${path} must have at most ${schema.maxItems} items`);
    if (schema.items)
      value.forEach((item, i) => issues.push(...checkToolArguments(item, schema.items!, `${path}[${i}]`)));
  } else if (value !== null && typeof value === "object") issues.push(...checkObject(value, schema, path));
  return issues;
}

function checkObject(value: { [key: string]: JsonValue }, schema: ToolSchema, path: string): string[] {
  const issues: string[] = [];
  const properties = schema.properties ?? {};
  for (const key of schema.required ?? []) if (!Object.hasOwn(value, key)) issues.push(`${path}.${key} is required`);
  for (const [key, member] of Object.entries(value)) {
    const propertySchema = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (propertySchema) issues.push(...checkToolArguments(member, propertySchema, `${path}.${key}`));
    else if (schema.additionalProperties === false) issues.push(`${path}.${key} is not allowed`);
    else if (typeof schema.additionalProperties === "object")
      issues.push(...checkToolArguments(member, schema.additionalProperties, `${path}.${key}`));
  }
  return issues;
}

/**
 * The length of a string in Unicode code points (a lone surrogate counts as one), as `maxLength`
 * counts: `before` code points came before it, the last of which had the code `previous`.
 */
export function codePoints(text: string, before = 0, previous = 0): number {
  let count = before;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A low surrogate right after a high one is the second half of one code point.
    if (!(code >= 0xdc00 && code <= 0xdfff && isHighSurrogate(i > 0 ? text.charCodeAt(i - 1) : previous))) count++;
  }
  return count;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function hasType(value: JsonValue, type: string): boolean {
  if (type === "integer") return Number.isInteger(value);
  return typeOf(value) === type;
}

function typeOf(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}

/**
 * JSON Schema's equality of two instances, for `enum` and `const`: objects with the same members
 * whatever their key order, arrays item by item in order, numbers by value.
 *
 * @example
 * ```ts
 * sameJson({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }); // true
 * sameJson([1, 2], [2, 1]); // false
 * ```
 */
export function sameJson(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (
    typeof a !== "object" ||
    typeof b !== "object" ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  if (Array.isArray(a))
    return a.length === (b as JsonValue[]).length && a.every((item, i) => sameJson(item, (b as JsonValue[])[i]!));
  const keys = Object.keys(a);
  const other = b as Record<string, JsonValue>;
  return (
    keys.length === Object.keys(other).length &&
    keys.every((key) => Object.hasOwn(other, key) && sameJson((a as Record<string, JsonValue>)[key]!, other[key]!))
  );
}
