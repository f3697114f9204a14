/**
 * JSON Schema checks of tool arguments, as a plug-in: {@link jsonSchema}, passed to
 * `streamToolCalls` (`{ tools, jsonSchema }`), checks each call's final arguments against its
 * tool's JSON Schema and allows `earlyValidation`; without it, `tools` checks the calls' names
 * alone, and a bundle holds no schema checker. The checks themselves are here too, for a chain
 * built stage by stage or arguments checked elsewhere.
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream/openai";
 * import { jsonSchema } from "tool-call-stream/schema";
 *
 * const tools = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", required: ["city"] } } }];
 * for await (const event of streamToolCalls(response, { tools, jsonSchema, earlyValidation: true })) {
 *   if (event.type === "invalid-tool-call") console.log(event.error.issues); // ["$.city is required"]
 * }
 * ```
 *
 * @module
 */
export { jsonSchema, type JsonSchemaPlugin } from "./schema/json-schema-plugin.ts";
export { CheckBudget } from "./schema/check-budget.ts";
export {
  checkToolArguments,
  type CheckToolArgumentsOptions,
  schemasByName,
  toolSchemaValidator,
  type ProviderToolDefinition,
  type SdkToolSchema,
  type ToolArgumentsValidator,
  type ToolDefinition,
  type ToolSchema,
  type ToolSchemaCheckOptions,
  type ValidatorToolDefinition,
} from "./schema/tool-schema.ts";
export {
  earlySchemaValidator,
  type EarlyValidation,
  type EarlyValidationOptions,
  type EarlyValidationTarget,
} from "./schema/early-validation.ts";
export { type CheckToolSchemaOptions, checkToolSchema, type ToolSchemaIssue } from "./schema/check-tool-schema.ts";
export { PatternBudget } from "./schema/pattern-budget.ts";
export { declaredToolsValidator } from "./schema/tool-definition.ts";
