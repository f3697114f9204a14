/**
 * Structured output a client asks for in its own protocol: Chat Completions' `response_format`
 * (`json_object`, or `json_schema` with its schema), Responses' `text` (its `format`, and
 * `verbosity`), Messages' `output_config.format` (and the beta's `output_format`). The AI SDK's
 * `Output.object` / `generateObject` sends them (its Anthropic provider for the Claude models that
 * take them, where it sends no JSON tool to force), and without them the model answers prose where
 * JSON was asked for.
 *
 * An upstream of the client's own protocol gets them as they came; every other provider, of
 * another protocol, gets the same JSON Schema in its own form (worker/request/output-format.ts;
 * Anthropic and Bedrock take no JSON without a schema, where Chat's `json_object` is a 400 naming
 * the field). So with a Gemini model before Gemini 3 (Gemini or Gemini Interactions) when the
 * request offers function tools: it refuses JSON output beside function calling; Chat's and
 * Messages' are a 400 naming the field, Responses' `text` is echoed and not sent.
 *
 * @module
 */
import { invalidField } from "../response/json-error.ts";
import { isObject, own } from "../request/json-fields.ts";
import { OUTPUT_FORMAT_PROVIDERS, refusesWithTools } from "../request/output-format.ts";
import type { JsonObject, OutputFormat, StreamRequest } from "../request/stream-request.ts";
import { objectAt, stringAt } from "./client-request.ts";

/** A Chat Completions body's `response_format` onto `request` (`{type: "text"}` is as if absent). */
export function withChatResponseFormat(
  fields: Record<string, unknown>,
  provider: string,
  request: StreamRequest,
): void {
  const given = own(fields, "response_format") ?? undefined;
  if (given === undefined) return;
  const format = objectAt(given, "response_format");
  const type = own(format, "type");
  if (type === "text") return;
  if (type !== "json_object" && type !== "json_schema")
    throw invalidField("response_format.type", "`response_format.type` must be text, json_object or json_schema.");
  if (provider === "openai") return void (request.openaiResponseFormat = format as JsonObject);
  const schema = type === "json_schema" ? objectAt(own(format, "json_schema"), "response_format.json_schema") : {};
  request.outputFormat = neutral(type, schema, "response_format", "response_format.json_schema", request, true)!;
}

/**
 * A Chat Completions body's `verbosity` (`low`, `medium`, `high`: how long the answer runs) onto
 * `request` for an OpenAI Chat upstream, or an OpenAI Responses one (as `text.verbosity`); a hint
 * the other providers have no counterpart for, so not sent to them.
 */
export function withChatVerbosity(fields: Record<string, unknown>, provider: string, request: StreamRequest): void {
  const verbosity = own(fields, "verbosity") ?? undefined;
  if (verbosity === undefined) return;
  if (verbosity !== "low" && verbosity !== "medium" && verbosity !== "high")
    throw invalidField("verbosity", "`verbosity` must be low, medium or high.");
  if (provider === "openai" || provider === "openai-responses") request.openaiVerbosity = verbosity;
}

/** A Responses body's `text` (checked by ./openai-responses/settings.ts) onto `request`: its format, and its verbosity for OpenAI Chat. */
export function withResponsesText(fields: Record<string, unknown>, provider: string, request: StreamRequest): void {
  const text = own(fields, "text");
  if (!isObject(text)) return;
  if (provider === "openai-responses") return void (request.openaiText = text as JsonObject);
  // Its `verbosity` (checked there) is OpenAI Chat's top-level `verbosity`.
  const verbosity = own(text, "verbosity") ?? undefined;
  if (provider === "openai" && typeof verbosity === "string") request.openaiVerbosity = verbosity;
  const format = own(text, "format");
  const type = isObject(format) ? own(format, "type") : undefined;
  if (type !== "json_object" && type !== "json_schema") return;
  const given = neutral(type, format as Record<string, unknown>, "text.format", "text.format", request, false);
  if (given) request.outputFormat = given;
}

/** A Messages body's `output_config.format` or the beta's `output_format` onto `request`. */
export function withMessagesOutputFormat(
  fields: Record<string, unknown>,
  provider: string,
  request: StreamRequest,
): void {
  const config = own(fields, "output_config");
  const format = isObject(config) ? (own(config, "format") ?? undefined) : undefined;
  const beta = own(fields, "output_format") ?? undefined;
  if (format === undefined && beta === undefined) return;
  const path = format === undefined ? "output_format" : "output_config.format";
  const given = objectAt(format ?? beta, path);
  // The beta's `output_format` goes to Anthropic in its GA place: without the beta's header
  // (forwarded only when ANTHROPIC_BETAS lists it) Anthropic refuses the beta's field.
  if (provider === "anthropic") return void (request.anthropicOutputFormat = given as JsonObject);
  if (own(given, "type") !== "json_schema") throw invalidField(`${path}.type`, `\`${path}.type\` must be json_schema.`);
  request.outputFormat = neutral("json_schema", { name: "output", ...given }, path, path, request, true)!;
}

/**
 * The neutral form of a JSON format for the request's provider (its `name`, `schema`,
 * `description` and `strict` read from `fields`, found at `fieldsAt`); where the provider has none,
 * or its model none beside the request's function tools, a 400 naming `path` when `strict`, else
 * undefined (left out).
 */
function neutral(
  type: "json_object" | "json_schema",
  fields: Record<string, unknown>,
  path: string,
  fieldsAt: string,
  request: StreamRequest,
  strict: boolean,
): OutputFormat | undefined {
  const { provider, model } = request;
  const takes = Object.hasOwn(OUTPUT_FORMAT_PROVIDERS, provider) ? OUTPUT_FORMAT_PROVIDERS[provider] : undefined;
  if (!takes || (type === "json_object" && !takes.jsonObject)) {
    if (!strict) return undefined;
    throw invalidField(
      path,
      `\`${path}\` (structured output) is supported with an OpenAI Chat, OpenAI Responses, Gemini, Gemini Interactions, Cohere or Ollama model, and with an Anthropic or Bedrock one for a JSON Schema alone; the provider ${provider} is sent none.`,
    );
  }
  if (request.tools.length > 0 && refusesWithTools(provider, model)) {
    if (!strict) return undefined;
    throw invalidField(
      path,
      `\`${path}\` (structured output) beside function tools is refused by Gemini models before Gemini 3 (${model}): send one or the other, or a Gemini 3 model.`,
    );
  }
  if (type === "json_object") return { type };
  const description = own(fields, "description");
  const strictness = own(fields, "strict") ?? undefined;
  // A boolean or null (OpenAI's types): one given as "true" would otherwise be read as not strict.
  if (strictness !== undefined && typeof strictness !== "boolean")
    throw invalidField(`${fieldsAt}.strict`, `\`${fieldsAt}.strict\` must be true, false or null.`);
  return {
    type,
    name: stringAt(own(fields, "name") ?? "output", `${fieldsAt}.name`),
    schema: objectAt(own(fields, "schema"), `${fieldsAt}.schema`) as JsonObject,
    ...(typeof description === "string" ? { description } : {}),
    ...(typeof strictness === "boolean" ? { strict: strictness } : {}),
  };
}
