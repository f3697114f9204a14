/**
 * Structured output a client asked for in another protocol than its upstream's, in one neutral
 * form (worker/protocols/output-format.ts reads it), and that form as each upstream that has
 * structured output takes it: OpenAI Chat's `response_format`, OpenAI Responses' `text.format`,
 * Anthropic's `output_config.format` (a JSON Schema alone: Anthropic has no JSON mode without one).
 *
 * @module
 */
import type { JsonObject, OutputFormat } from "./stream-request.ts";

/** The upstreams that take structured output, and whether each takes JSON without a schema. */
export const OUTPUT_FORMAT_PROVIDERS: Readonly<Record<string, { jsonObject: boolean }>> = {
  openai: { jsonObject: true },
  "openai-responses": { jsonObject: true },
  anthropic: { jsonObject: false },
};

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
