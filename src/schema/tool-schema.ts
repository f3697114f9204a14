import type { JsonValue } from "../shared/json.ts";
import { checkArguments } from "./check-arguments.ts";
import { budgetKey, budgetWords, CheckBudget, responseBudgets } from "./check-budget.ts";
import { compileSchema } from "./compiled-schema.ts";
import { isStandardSchema, standardJsonSchema } from "./standard-schema.ts";
import {
  toolName,
  undeclaredTool,
  type ToolArgumentsValidator,
  type ToolDefinition,
  type ToolSchema,
} from "./tool-definition.ts";

// The tool vocabulary is tool-definition.ts's (so that checking names alone needs no schema
// checker); it is re-exported here, where the modules that check schemas have always read it.
export type {
  ProviderToolDefinition,
  SdkToolSchema,
  ToolArgumentsValidator,
  ToolDefinition,
  ToolSchema,
  ValidatorToolDefinition,
} from "./tool-definition.ts";

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
      // `!`: a ProviderToolDefinition's `function?: never` reads `undefined` without exactOptionalPropertyTypes.
      if (tool.function!.parameters != null) schemas.set(tool.function!.name, tool.function!.parameters);
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
 * The `validate` plug-in for the request's tools (OpenAI, Responses or Anthropic shape): a call
 * whose arguments violate its tool's schema, or whose name is not one of the tools, is rejected
 * (the accumulator makes it an `invalid-tool-call` of code `schema-mismatch`), and so is one whose
 * arguments text (the accumulator gives it) repeats a member name in one of its objects, wherever
 * it is: `JSON.parse` keeps the last value, the early check reads the first, so neither is
 * trusted (I-JSON forbids it). Tools without a schema accept any arguments, and so do tools given
 * by a validator (`{ name, schema }`): their validator is the judge of their arguments, in the
 * `validateToolCalls` step (its JSON Schema may be stricter than it, as for a value it coerces;
 * a name repeated is theirs to judge too: the early check lets it be). `streamToolCalls` does both for its
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
        const issues = checkArguments(value, schema, { ...options, budget, text: call?.text });
        if (!budget.exhausted) return issues.length > 0 ? issues : undefined;
        const message = `The arguments of ${name} could not be checked against its schema ${budgetWords(budget)}.`;
        return Object.assign(issues, { message, code: "validation-budget-exceeded" as const });
      };
      if (!call) return check(new CheckBudget(Number.POSITIVE_INFINITY));
      return responseBudgets(call.response).judge(budgetKey(call.index, call.choice), call.length, check);
    }
    return undeclaredTool(names, name);
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

/** Options of {@link checkToolArguments}. */
export interface CheckToolArgumentsOptions extends ToolSchemaCheckOptions {
  /**
   * The work budget the check draws from, its compilation of a schema not compiled yet included:
   * one budget for many checks bounds their work together (past it, the one issue says the value
   * could not be checked, and `budget.exhausted` is true).
   * @defaultValue a fresh `CheckBudget` of 2,000,000 steps
   */
  budget?: CheckBudget | undefined;
  /**
   * The JSON text the value was read from: a member name repeated in one of its objects (which
   * RFC 8259 says should not be, I-JSON must not, and `JSON.parse` reads as its last value) is an
   * issue, as the accumulator's checks report it. For a repaired value, the repair's text
   * (`repairJson`'s `text`), not the text it was given. Without it only the value is checked.
   * @defaultValue none
   */
  text?: string | undefined;
}

/**
 * Checks a value against a tool's JSON Schema, each keyword read as the draft its root's `$schema`
 * declares has it (draft 4 to 7 ignore a `$ref`'s siblings, draft 4's identifier is `id`, a
 * keyword of other drafts only is unknown); with no `$schema`, 2020-12, with earlier drafts' forms
 * of keywords 2020-12 does not define read too (an `items` list with `additionalItems`,
 * `dependencies`, `$recursiveRef`), never draft 4's `id`: `type` (with
 * `integer` and type lists), `nullable: true` (OpenAPI's and Gemini's), `enum`, `const`,
 * `minimum`/`maximum`, `exclusiveMinimum`/`exclusiveMaximum`, `multipleOf`,
 * `minLength`/`maxLength` (in code points), `pattern` (ECMAScript with the `u` flag, run in
 * linear time, never by backtracking; a pattern longer than 1,000 characters, not valid, or
 * needing backtracking (backreferences, lookaround) is ignored; its work on a string of any
 * length is charged to the check's budget), `format` (an annotation unless `assertFormats`), `required`, `properties`,
 * `patternProperties`, `additionalProperties`, `propertyNames`, `minProperties`/`maxProperties`,
 * `dependentRequired`, `dependentSchemas` (and draft 7's `dependencies`), `items`, `prefixItems`
 * (and draft 7's `items` list with `additionalItems`), `minItems`/`maxItems`, `uniqueItems`,
 * `contains` with `minContains`/`maxContains`, `unevaluatedProperties`/`unevaluatedItems` (the keys
 * and items that neither the schema's own keywords nor a schema it applies in place and that holds
 * evaluated: `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`, `$ref`; not `not`),
 * `allOf`, `anyOf`, `oneOf`, `not`,
 * `if`/`then`/`else`, boolean schemas, and `$ref`s within the schema (`#`, `#/$defs/...`,
 * `#/definitions/...`, any JSON Pointer into the resource the `$ref` is in: the schema, or the
 * nearest schema around it with an `$id` of its own (not one beside a `$ref` when the root's
 * `$schema` says draft 7 or older); an anchor, `#name`, of `$anchor`, `$dynamicAnchor` or draft
 * 6/7's `$id: "#name"`, in that resource; the URI of any `$id` the schema holds, resolved against
 * the `$id`s around it, with a pointer or an anchor after it; a `$ref` cycle that never goes into
 * the value stops after 64 steps), `$dynamicRef` (2020-12) and `$recursiveRef` (2019-09): resolved
 * as a `$ref`, then, when that target has the `$dynamicAnchor` the fragment names (`$recursiveAnchor:
 * true`), to the outermost resource on the check's way there that has it too (its dynamic scope:
 * past 64 resources binding names of their own, anything). Every other keyword applies together
 * with its siblings. Other keywords (remote references, the content keywords) are ignored: they
 * never reject a value, and one that applies in place (a remote `$ref`) may have evaluated any key or item.
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
 * const text = '{"city":"Paris","city":1}';
 * checkToolArguments(JSON.parse(text), { type: "object" }, { text });
 * // ["$.city is a property name its object already has"]
 * ```
 */
export function checkToolArguments(
  value: JsonValue,
  schema: ToolSchema,
  options: CheckToolArgumentsOptions = {},
): string[] {
  return checkArguments(value, schema, options);
}
