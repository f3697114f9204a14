import type { JsonValue } from "../shared/json.ts";
import type { StandardSchemaV1 } from "../shared/standard-schema.ts";

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
  /**
   * The schema of the properties that neither this schema nor one it applies in place and that
   * holds (`allOf`, `anyOf`, `oneOf`, `if`, `$ref`, ...) evaluated: `false` closes a composed object.
   */
  unevaluatedProperties?: ToolSchema | boolean;
  /** The schema of the items that neither this schema nor one it applies in place and that holds evaluated (`prefixItems`, `items`, `contains`). */
  unevaluatedItems?: ToolSchema | boolean;
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
 * parameters}}` or `{type: "custom", custom: {name}}`, Responses `{type: "function", name,
 * parameters}` or `{type: "custom", name}`, Anthropic `{name, input_schema}`;
 * or described by the application's own validator, `{name, schema}` ({@link ValidatorToolDefinition}).
 * The SDKs' own tool types fit, so that the array a request was sent with is the `tools` option
 * as it is (`ChatCompletionTool[]`, `Responses.Tool[]`, `Anthropic.ToolUnion[]`): their schemas
 * ({@link SdkToolSchema}, or `null`) and the tools that declare no function
 * ({@link ProviderToolDefinition}).
 */
export type ToolDefinition =
  | { type?: string; function: { name: string; parameters?: ToolSchema | SdkToolSchema | null } }
  | { type?: string; name: string; parameters?: ToolSchema | SdkToolSchema | null }
  | { name: string; input_schema?: ToolSchema | SdkToolSchema | null }
  | { type?: string; custom: { name: string } }
  | ValidatorToolDefinition
  | ProviderToolDefinition;

/**
 * A tool's JSON Schema as the SDKs type it, an object of unknown keys (openai's
 * `FunctionParameters`, `@anthropic-ai/sdk`'s `input_schema`): read as a {@link ToolSchema}.
 *
 * @example
 * ```ts
 * import type OpenAI from "openai";
 * const tools: OpenAI.ChatCompletionTool[] = [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }];
 * streamToolCalls(response, { provider: "openai", tools }); // SdkToolSchema: openai's FunctionParameters
 * ```
 */
export type SdkToolSchema = { readonly [key: string]: unknown };

/**
 * A tool of an SDK's tools array that declares no function, such as one the provider runs
 * (OpenAI's `web_search`, Anthropic's toolsets): left out of the names and schemas the calls are
 * checked against. (A custom tool declares a name, `custom.name` in Chat Completions: its calls
 * are free text, checked by name alone.)
 *
 * @example
 * ```ts
 * streamToolCalls(response, { provider: "openai-responses", tools: [{ type: "web_search" }, getWeather] });
 * ```
 */
export interface ProviderToolDefinition {
  /** The provider's kind of tool (`web_search`, `custom`, ...). */
  type: string;
  /** Absent: such a tool declares no function. */
  name?: never;
  /** Absent: such a tool declares no function. */
  function?: never;
  /** Absent: such a tool declares no function. */
  custom?: never;
}

/**
 * A tool described by the application's own validator: any Standard Schema v1 (zod 4, valibot,
 * arktype, ...). Final arguments are validated with it and a call's `arguments` is its output
 * (defaults, coercions and transforms applied); when it also gives its JSON Schema (Standard
 * JSON Schema v1, as zod 4 does), that schema is the tool's parameters for the provider and for
 * schema checks (`schemasByName`).
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
 * The function name of a tool definition, in any of its shapes (a custom tool's too); `undefined`
 * for a tool that declares no function ({@link ProviderToolDefinition}).
 *
 * @example
 * ```ts
 * toolName({ type: "function", function: { name: "get_weather" } }); // "get_weather"
 * toolName({ type: "custom", custom: { name: "run_shell" } }); // "run_shell"
 * toolName({ type: "web_search" }); // undefined
 * ```
 */
export function toolName(tool: ToolDefinition): string | undefined {
  // A Chat Completions custom tool keeps its name in `custom`, as a function tool does in `function`.
  return ((tool as Named).function ?? (tool as Named).custom ?? (tool as Named)).name;
}

/** Where a tool definition of any shape keeps its name. */
type Named = { function?: { name: string }; custom?: { name: string }; name?: string };

/**
 * Checks the final arguments of a completed call: readable reasons when they are rejected,
 * `undefined` when they are accepted. The `validate` plug-in of `ToolCallAccumulator`, which
 * says which `call` it is: the response it belongs to (the accumulator itself, which the early
 * check is given too, so that the two checks of a call draw on its work budget), its event `index`
 * and `choice`, the length of its arguments text, and the JSON text the value was read from, as it
 * came or as a repair wrote it (`RepairResult.text`: where a member name
 * repeated in one of its objects is, which the value holds once: the schema checks reject it,
 * early and final). The reasons' `message`, when set, is the
 * error's message in place of "The tool arguments do not match the schema of ..." (a call to a
 * tool the request did not declare says so); their `code`, when set, the error's code in place
 * of `schema-mismatch` (`validation-budget-exceeded`: the check ran out of the call's work
 * budget, so the arguments could not be checked).
 */
export type ToolArgumentsValidator = (
  name: string,
  value: JsonValue,
  call?: { response: object; index: number; choice: number; length: number; text?: string | undefined },
) =>
  | (string[] & { message?: string | undefined; code?: "schema-mismatch" | "validation-budget-exceeded" | undefined })
  | undefined;

/**
 * Why a call is rejected when its name is not one of the tools' (`names`): the first check of the
 * final arguments, with or without JSON Schema; `undefined` when it is one of them.
 */
export function undeclaredTool(
  names: ReadonlySet<string | undefined>,
  name: string,
): ReturnType<ToolArgumentsValidator> {
  if (names.has(name)) return undefined;
  const unknown = `${name} is not one of the request's tools`;
  return Object.assign([unknown], { message: unknown });
}

/**
 * The `validate` plug-in that checks the names of the calls alone: a call to a tool the request
 * did not declare is rejected (an `invalid-tool-call` whose message names it), and a declared
 * tool accepts any arguments that are JSON. What `streamToolCalls` checks for its `tools` without
 * the `jsonSchema` plug-in; `toolSchemaValidator` checks the names the same way, then the
 * schemas.
 *
 * @example
 * ```ts
 * const validator = declaredToolsValidator([{ name: "search" }]);
 * validator("search", { q: 1 }); // undefined: any arguments
 * validator("weather", {}); // ["weather is not one of the request's tools"]
 * ```
 */
export function declaredToolsValidator(tools: readonly ToolDefinition[]): ToolArgumentsValidator {
  const names = new Set(tools.map(toolName));
  return (name) => undeclaredTool(names, name);
}
