/**
 * Structured output a client asked for in another protocol than its upstream's, in one neutral
 * form (worker/protocols/output-format.ts reads it), and that form as each upstream that has
 * structured output takes it: OpenAI Chat's `response_format`, OpenAI Responses' `text.format`,
 * Anthropic's `output_config.format` (a JSON Schema alone: Anthropic has no JSON mode without one),
 * Gemini's `generationConfig` (`responseMimeType`, `responseJsonSchema`), Cohere's
 * `response_format`, Ollama's `format`, Bedrock Converse's `outputConfig.textFormat` (a JSON
 * Schema alone, as a JSON string) and Gemini Interactions' `response_format` (its text format).
 *
 * @module
 */
import type { JsonObject, OutputFormat } from "./stream-request.ts";

/** The upstreams that take structured output, and whether each takes JSON without a schema. */
export const OUTPUT_FORMAT_PROVIDERS: Readonly<Record<string, { jsonObject: boolean }>> = {
  openai: { jsonObject: true },
  "openai-responses": { jsonObject: true },
  anthropic: { jsonObject: false },
  gemini: { jsonObject: true },
  cohere: { jsonObject: true },
  ollama: { jsonObject: true },
  bedrock: { jsonObject: false },
  "gemini-interactions": { jsonObject: true },
};

/**
 * Whether `provider`'s `model` refuses structured output beside function tools: Gemini before 3
 * answers "Function calling with a response mime type: 'application/json' is unsupported" (Gemini
 * 3 takes both). A model name that gives no version is left to the provider.
 */
export function refusesWithTools(provider: string, model: string): boolean {
  // The same models behind the Interactions API.
  if (provider !== "gemini" && provider !== "gemini-interactions") return false;
  const major = /^(?:models\/)?gemini-(\d+)/.exec(model)?.[1];
  return major !== undefined && Number(major) < 3;
}

/** `format` as OpenAI Chat's `response_format`. */
export function chatResponseFormat(format: OutputFormat): JsonObject {
  if (format.type === "json_object") return { type: "json_object" };
  const { type, ...schema } = format;
  return { type, json_schema: schema };
}

/** `format` as OpenAI Responses' `text.format`. */
export function responsesTextFormat(format: OutputFormat): JsonObject {
  return { ...format };
}

/** `format` as Anthropic's `output_config.format` (a JSON Schema; {@link OUTPUT_FORMAT_PROVIDERS} keeps `json_object` away). */
export function anthropicOutputFormat(format: OutputFormat): JsonObject | undefined {
  return format.type === "json_schema" ? { type: "json_schema", schema: format.schema } : undefined;
}

/** `format` as Gemini's `generationConfig` fields. */
export function geminiGenerationConfig(format: OutputFormat): JsonObject {
  const json = { responseMimeType: "application/json" };
  return format.type === "json_schema" ? { ...json, responseJsonSchema: format.schema } : json;
}

/** `format` as Cohere v2's `response_format`. */
export function cohereResponseFormat(format: OutputFormat): JsonObject {
  return format.type === "json_schema" ? { type: "json_object", json_schema: format.schema } : { type: "json_object" };
}

/** `format` as Ollama's `format`: `json`, or the JSON Schema. */
export function ollamaFormat(format: OutputFormat): JsonObject | string {
  return format.type === "json_schema" ? format.schema : "json";
}

/**
 * `format` as Bedrock Converse's `outputConfig` (`textFormat`: `json_schema`, its `structure.jsonSchema`
 * taking the schema as a JSON string); {@link OUTPUT_FORMAT_PROVIDERS} keeps `json_object` away.
 */
export function bedrockOutputConfig(format: OutputFormat): JsonObject | undefined {
  if (format.type !== "json_schema") return undefined;
  const { name, schema, description } = format;
  const jsonSchema = { schema: JSON.stringify(schema), name, ...(description === undefined ? {} : { description }) };
  return { textFormat: { type: "json_schema", structure: { jsonSchema } } };
}

/**
 * `format` as Gemini Interactions' `response_format` (the step-based revision's text format, which
 * took the place of `response_mime_type`): JSON text, of the schema when there is one.
 */
export function geminiInteractionsResponseFormat(format: OutputFormat): JsonObject {
  const json = { type: "text", mime_type: "application/json" };
  return format.type === "json_schema" ? { ...json, schema: format.schema } : json;
}
