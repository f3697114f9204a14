/**
 * The options of a `POST /v1/responses` body that the response does not repeat: `include`,
 * `stream_options`, `background`, OpenAI's `prompt` and `context_management`. Each is checked as OpenAI checks it (a 400 naming the field,
 * never an option accepted whatever it is), and what this Worker cannot give is refused rather
 * than left out of an answer that would then lack it: `background: true` (no queued responses),
 * `include` of `message.output_text.logprobs` (no provider is asked for logprobs), and a `prompt`
 * template.
 *
 * @module
 */
import { invalidField } from "../../response/json-error.ts";
import { isObject, own } from "../../request/json-fields.ts";
import type { JsonObject } from "../../request/stream-request.ts";

/**
 * OpenAI's `include` values (openai-node's `ResponseIncludable`) this Worker takes: a reasoning
 * item carries its `encrypted_content` whatever `include` says, and the others name items of the
 * tools OpenAI runs, which no other provider answers with. `output.encrypted_content` is Codex's
 * (its `output_token_replay` feature, toward a provider named OpenAI): output items carry none here.
 */
const INCLUDABLE: ReadonlySet<unknown> = new Set([
  "reasoning.encrypted_content",
  "output.encrypted_content",
  "web_search_call.action.sources",
  "web_search_call.results",
  "file_search_call.results",
  "code_interpreter_call.outputs",
  "computer_call_output.output.image_url",
  "message.input_image.image_url",
]);

/** Checks `include`, `stream_options`, `background` and `prompt` of `fields` (the request body); throws a 400 at the field at fault. */
export function checkRequestOptions(fields: Record<string, unknown>): void {
  // OpenAI's prompt templates live in an OpenAI project: left out, the answer would lack their instructions and input.
  if ((own(fields, "prompt") ?? null) !== null)
    throw invalidField(
      "prompt",
      "`prompt` (a prompt template kept by OpenAI) is not supported: send its text in `instructions` and `input`.",
    );
  const background = own(fields, "background") ?? false;
  if (background === true)
    throw invalidField(
      "background",
      "`background` is not supported: send `stream: true` to read the response as it is written.",
    );
  if (background !== false) throw invalidField("background", "`background` must be true or false.");
  const include = own(fields, "include") ?? [];
  if (!Array.isArray(include)) throw invalidField("include", "`include` must be an array of strings.");
  include.forEach((value, i) => {
    if (value === "message.output_text.logprobs")
      throw invalidField(`include[${i}]`, "Logprobs are not supported: no provider of this Worker is asked for them.");
    if (!INCLUDABLE.has(value))
      throw invalidField(`include[${i}]`, `\`include[${i}]\` must be one of: ${[...INCLUDABLE].join(", ")}.`);
  });
  const options = own(fields, "stream_options") ?? undefined;
  if (options === undefined) return;
  if (!isObject(options)) throw invalidField("stream_options", "`stream_options` must be an object.");
  const obfuscation = own(options, "include_obfuscation") ?? undefined;
  if (obfuscation !== undefined && typeof obfuscation !== "boolean")
    throw invalidField("stream_options.include_obfuscation", "`include_obfuscation` must be true or false.");
}

/**
 * `context_management` of `fields` (the request body): OpenAI compacts the context by itself past
 * a threshold (`[{ type: "compaction", compact_threshold }]`, openai-node's
 * `ResponseCreateParams.ContextManagement`), for an OpenAI Responses upstream as the client sent
 * it (the type's values are OpenAI's to check); undefined when absent or `null`. Another provider
 * has no such setting: its context is left whole, as without it.
 */
export function contextManagementOf(fields: Record<string, unknown>): JsonObject[] | undefined {
  const entries = own(fields, "context_management") ?? undefined;
  if (entries === undefined) return undefined;
  if (!Array.isArray(entries)) throw invalidField("context_management", "`context_management` must be an array.");
  return entries.map((entry: unknown, i) => {
    const at = `context_management[${i}]`;
    if (!isObject(entry)) throw invalidField(at, `\`${at}\` must be an object.`);
    if (typeof own(entry, "type") !== "string") throw invalidField(`${at}.type`, "`type` must be a string.");
    const threshold = own(entry, "compact_threshold") ?? null;
    if (threshold !== null && !(Number.isSafeInteger(threshold) && (threshold as number) > 0))
      throw invalidField(`${at}.compact_threshold`, "`compact_threshold` must be a positive integer.");
    return entry as JsonObject;
  });
}
