import type { JsonValue } from "../shared/json.ts";
import type { StandardSchemaV1 } from "../shared/standard-schema.ts";
import { checkArguments } from "./check-arguments.ts";
import { budgetKey, CheckBudget, responseBudgets } from "./check-budget.ts";
import { compileSchema } from "./compiled-schema.ts";
import { thousands } from "./bounded-issues.ts";
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
  /** The fewest characters a string may have, in Unicode code points. */
  minLength?: number;
  /** A regular expression (ECMAScript, `u` flag, not anchored) a string must match. */
  pattern?: string;
  /** A format name: an annotation, checked only with `assertFormats`. */
  format?: string;
  /** A number must be a multiple of it. */
  multipleOf?: number;
  /** A number must be greater than it. */
  exclusiveMinimum?: number;
  /** A number must be less than it. */
  exclusiveMaximum?: number;
  /** The schemas of the first items of an array, by position (`items` then checks the rest). */
  prefixItems?: readonly (ToolSchema | boolean)[];
  /** An array's items must all differ. */
  uniqueItems?: boolean;
  /** At least one item (`minContains`, at most `maxContains`) must match it. */
  contains?: ToolSchema | boolean;
  /** The fewest items that match `contains`. */
  minContains?: number;
  /** The most items that match `contains`. */
  maxContains?: number;
  /** The schemas of the properties whose names match a pattern (ECMAScript, `u` flag). */
  patternProperties?: Record<string, ToolSchema | boolean>;
  /** The schema every property name must match. */
  propertyNames?: ToolSchema | boolean;
  /** The fewest properties an object may have. */
  minProperties?: number;
  /** The most properties an object may have. */
  maxProperties?: number;
  /** The properties required when a property is present, by its name. */
  dependentRequired?: Record<string, readonly string[]>;
  /** The schemas an object must also match when a property is present, by its name. */
  dependentSchemas?: Record<string, ToolSchema | boolean>;
  /** The value must match every one of these schemas. */
  allOf?: readonly (ToolSchema | boolean)[];
  /** The value must match exactly one of these schemas. */
  oneOf?: readonly (ToolSchema | boolean)[];
  /** The value must not match this schema. */
  not?: ToolSchema | boolean;
  /** When the value matches `if`, it must match `then`; otherwise `else`. */
  if?: ToolSchema | boolean;
  /** See `if`. */
  then?: ToolSchema | boolean;
  /** See `if`. */
  else?: ToolSchema | boolean;
  /** A local reference (`#/$defs/name`, `#/definitions/name`, a JSON Pointer into the tool's schema); remote ones are not followed. */
  $ref?: string;
  /** Schemas for `$ref`s to name. */
  $defs?: Record<string, ToolSchema | boolean>;
  /** Draft 7's `$defs`. */
  definitions?: Record<string, ToolSchema | boolean>;
  /** What the value is, for the model. */
  description?: string;
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
      if (tool.function.parameters != null) schemas.set(tool.function.name, tool.function.parameters);
    } else if ("schema" in tool && isStandardSchema(tool.schema)) {
      const schema = standardJsonSchema(tool.schema);
      if (schema) schemas.set(tool.name, schema as ToolSchema);
    } else if ("input_schema" in tool) {
      if (tool.input_schema != null) schemas.set(tool.name, tool.input_schema);
    } else if ("parameters" in tool && tool.parameters != null) schemas.set(tool.name, tool.parameters);
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
 * `undefined` when they are accepted. The `validate` plug-in of `ToolCallAccumulator`, which
 * says which `call` it is: the response it belongs to (the accumulator itself, which the early
 * check is given too, so that the two checks of a call share its work budget), its event `index`
 * and `choice`, and the length of its arguments text. The reasons' `message`, when set, is the
 * error's message in place of "The tool arguments do not match the schema of ..." (a call to a
 * tool the request did not declare says so); their `code`, when set, the error's code in place
 * of `schema-mismatch` (`validation-budget-exceeded`: the check ran out of the call's work
 * budget, so the arguments could not be checked).
 */
export type ToolArgumentsValidator = (
  name: string,
  value: JsonValue,
  call?: { response: object; index: number; choice: number; length: number },
) =>
  | (string[] & { message?: string | undefined; code?: "schema-mismatch" | "validation-budget-exceeded" | undefined })
  | undefined;

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
 *   .pipeThrough(new ToolCallAccumulatorStream({ validator: toolSchemaValidator(tools) }));
 * ```
 */
export function toolSchemaValidator(
  tools: readonly ToolDefinition[],
  options: ToolSchemaCheckOptions = {},
): ToolArgumentsValidator {
  const schemas = schemasByName(tools.filter((tool) => !("schema" in tool && isStandardSchema(tool.schema))));
  const names = new Set(tools.map(toolName));
  // Compiled here, once per request: every call of the tool then shares it.
  for (const schema of schemas.values()) compileSchema(schema, options);
  return (name, value, call) => {
    const schema = schemas.get(name);
    if (schema !== undefined) {
      const check = (budget: CheckBudget): ReturnType<ToolArgumentsValidator> => {
        const issues = checkArguments(value, schema, { ...options, budget });
        if (!budget.exhausted) return issues.length > 0 ? issues : undefined;
        const message = `The arguments of ${name} could not be checked against its schema within their work budget of ${thousands(budget.granted)} steps.`;
        return Object.assign(issues, { message, code: "validation-budget-exceeded" as const });
      };
      if (!call) return check(new CheckBudget(Number.POSITIVE_INFINITY));
      return responseBudgets(call.response).judge(budgetKey(call.index, call.choice), call.length, check);
    }
    if (names.has(name)) return undefined;
    const unknown = `${name} is not one of the request's tools`;
    return Object.assign([unknown], { message: unknown });
  };
}

/** Options of {@link checkToolArguments} and {@link toolSchemaValidator}. */
export interface ToolSchemaCheckOptions {
  /**
   * Check `format` for `date-time`, `date`, `time`, `email`, `uri`, `uuid`, `ipv4` and `ipv6`
   * (other formats stay annotations). By default `format` is an annotation, as JSON Schema's
   * default is.
   * @defaultValue false
   */
  assertFormats?: boolean | undefined;
  /** The name of the value in the issues. @defaultValue "$" */
  path?: string | undefined;
}

/**
 * Checks a value against a tool's JSON Schema (draft 2020-12; where draft 7 differs, 2020-12 is
 * followed, and draft 7's own forms are read where 2020-12 gives them no meaning): `type` (with
 * `integer` and type lists), `nullable: true` (OpenAPI's and Gemini's), `enum`, `const`,
 * `minimum`/`maximum`, `exclusiveMinimum`/`exclusiveMaximum`, `multipleOf`,
 * `minLength`/`maxLength` (in code points), `pattern` (ECMAScript with the `u` flag, run in
 * linear time, never by backtracking; a pattern longer than 1,000 characters, not valid, or
 * needing backtracking (backreferences, lookaround) is ignored, a string longer than 10,000
 * never matches), `format` (an annotation unless `assertFormats`), `required`, `properties`,
 * `patternProperties`, `additionalProperties`, `propertyNames`, `minProperties`/`maxProperties`,
 * `dependentRequired`, `dependentSchemas` (and draft 7's `dependencies`), `items`, `prefixItems`
 * (and draft 7's `items` list with `additionalItems`), `minItems`/`maxItems`, `uniqueItems`,
 * `contains` with `minContains`/`maxContains`, `allOf`, `anyOf`, `oneOf`, `not`,
 * `if`/`then`/`else`, boolean schemas, and local `$ref`s (`#/$defs/...`, `#/definitions/...`, any
 * JSON Pointer into the schema; a `$ref` cycle that never goes into the value stops after 64
 * steps). Every keyword applies together with its siblings. Other keywords (`$dynamicRef`,
 * `$anchor`, `$id`-relative and remote references, `unevaluatedProperties`/`unevaluatedItems`,
 * the content keywords) are ignored: they never reject a value.
 *
 * Never throws: a schema or keyword it cannot read accepts (use `checkToolSchema` to refuse such
 * a schema at the request). The schema is compiled on first use and kept for that schema object
 * (do not change a schema once it has been used). The issues are readable reasons, at most 20
 * and then one that counts the rest, each at most 300 characters; an `enum` of more than 5
 * values is counted, not listed, and a message never quotes the arguments beyond their keys.
 *
 * @example
 * ```ts
 * checkToolArguments({ city: 1 }, { type: "object", properties: { city: { type: "string" } }, required: ["city", "unit"] });
 * // ["$.unit is required", "$.city must be string, not number"]
 * ```
 */
export function checkToolArguments(
  value: JsonValue,
  schema: ToolSchema,
  options: ToolSchemaCheckOptions = {},
): string[] {
  return checkArguments(value, schema, options);
}
