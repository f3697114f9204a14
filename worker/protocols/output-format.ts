/**
 * Structured output a client asks for in its own protocol, passed on to an upstream of the same
 * protocol, which takes it as it came: Chat Completions' `response_format` (`json_object`, or
 * `json_schema` with its schema) to an OpenAI Chat upstream, Responses' `text` (its `format` and
 * `verbosity`) to an OpenAI Responses upstream, and Messages' `output_config.format` (and the
 * beta's `output_format`) to an Anthropic upstream. The AI SDK's `generateObject` / `Output.object`
 * sends them (its Anthropic provider for the Claude models that take them, where it sends no JSON
 * tool to force instead), and without them the model answers prose where JSON was asked for.
 *
 * With another provider: Chat's and Messages' are a 400 naming the field (the Worker has no
 * provider-neutral form of them); Responses' `text` stays echoed and not sent, as before.
 *
 * @module
 */
import { invalidField } from "../response/json-error.ts";
import { isObject, own } from "../request/json-fields.ts";
import type { JsonObject, StreamRequest } from "../request/stream-request.ts";
import { objectAt } from "./client-request.ts";

/**
 * A Chat Completions body's `response_format` onto `request` for an OpenAI Chat upstream (`{type:
 * "text"}` is as if absent); with another provider a 400 naming it.
 */
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
  if (provider !== "openai")
    throw invalidField(
      "response_format",
      "`response_format` (structured output) is supported only with an OpenAI Chat model (openai/...): send `text` or none.",
    );
  request.openaiResponseFormat = format as JsonObject;
}

/** A Responses body's `text` (checked by ./openai-responses/settings.ts) onto `request` for an OpenAI Responses upstream. */
export function withResponsesText(fields: Record<string, unknown>, provider: string, request: StreamRequest): void {
  const text = own(fields, "text");
  if (provider === "openai-responses" && isObject(text)) request.openaiText = text as JsonObject;
}

/**
 * A Messages body's structured output (`output_config.format`, the beta's `output_format`) onto
 * `request` for an Anthropic upstream; with another provider a 400 naming it.
 */
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
  if (provider !== "anthropic")
    throw invalidField(
      path,
      `\`${path}\` (structured output) is supported only with an Anthropic model (anthropic/...): without it, a model given the format as a forced tool answers the same.`,
    );
  request.anthropicOutputFormat = {
    ...(format === undefined ? {} : { format: objectAt(format, path) as JsonObject }),
    ...(beta === undefined ? {} : { beta: objectAt(beta, "output_format") as JsonObject }),
  };
}
