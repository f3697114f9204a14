import { earlySchemaValidator, type EarlyValidation, type EarlyValidationOptions } from "./early-validation.ts";
import type { ToolArgumentsValidator, ToolDefinition } from "./tool-definition.ts";
import { toolSchemaValidator } from "./tool-schema.ts";

/**
 * What `streamToolCalls` checks the tools' JSON Schemas with (its `jsonSchema` option): the final
 * check of a call's arguments and the early check while they stream, each made once per request
 * for its tools. {@link jsonSchema} is the library's; the checker is in no bundle that does not
 * import it.
 */
export interface JsonSchemaPlugin {
  /** The final check: a call's arguments against its tool's schema, and its name against the tools'. */
  validator(tools: readonly ToolDefinition[]): ToolArgumentsValidator;
  /** The check while the arguments stream (`earlyValidation`). */
  earlyValidator(tools: readonly ToolDefinition[], options: EarlyValidationOptions): EarlyValidation;
}

/**
 * The JSON Schema plug-in of `streamToolCalls`, `streamToolCallBatches` and `runToolLoop`: with it,
 * each call's final arguments are checked against its tool's JSON Schema
 * ({@link toolSchemaValidator}: draft 2020-12, `pattern` in linear time, a work budget per call),
 * a violation is an `invalid-tool-call` of code `schema-mismatch` with its `issues`, and
 * `earlyValidation` checks them while they stream ({@link earlySchemaValidator}). Without it, `tools`
 * checks the names alone (a call to another tool is an `invalid-tool-call`), arguments need only be
 * JSON, and tools given by a validator (zod, valibot, any Standard Schema) are still validated by
 * it: a bundle that reads one provider then holds no schema checker.
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream/openai";
 * import { jsonSchema } from "tool-call-stream/schema";
 *
 * for await (const event of streamToolCalls(response, { tools, jsonSchema })) {
 *   if (event.type === "invalid-tool-call") console.log(event.error.issues); // ["$.city is required"]
 * }
 * ```
 */
export const jsonSchema: JsonSchemaPlugin = {
  validator: (tools) => toolSchemaValidator(tools),
  earlyValidator: earlySchemaValidator,
};
