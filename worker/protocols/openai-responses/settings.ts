/**
 * What a `POST /v1/responses` response repeats of its request: Open Responses' `ResponseResource`
 * requires every setting (`instructions`, `tools`, `tool_choice`, `text`, `temperature`, `top_p`,
 * `metadata`, ...) with the request's value or its zero value, in every snapshot. Each is checked
 * here (a 400 naming it), since it is echoed and, with `store`, kept.
 *
 * `top_p` and the penalties go to the provider ({@link responsesSampling}); `top_logprobs` and
 * `truncation` are echoed as sent (no logprobs are asked for, nothing is truncated); `text` is
 * the answer's format (../output-format.ts);
 * `service_tier` is always `default`, the one tier there is; `background` always `false` (a 400
 * in the request). Bounds are the spec's `CreateResponseBody`'s, which are OpenAI's.
 *
 * @module
 */
import type { OpenAIResponseSettings, OpenAIResponsesEncoderOptions, OpenAIResponseTool } from "../../../src/encode.ts";
import { invalidField } from "../../response/json-error.ts";
import { isObject, own } from "../../request/json-fields.ts";
import { parseSampling, type SamplingField } from "../../request/parse-sampling.ts";
import type { StreamRequest } from "../../request/stream-request.ts";
import { keyOf, metadataOf, oneOf, openAIKeysOf, SERVICE_TIERS } from "../openai-keys.ts";

/** The settings a response repeats: a field left `undefined` is its default. */
export type ResponseSettings = NonNullable<OpenAIResponsesEncoderOptions["settings"]>;

/**
 * The settings a response repeats of `fields` (the request body), each checked; `formatted`: whether
 * the provider was sent its JSON `text.format` (one without structured output, or a Gemini model
 * before 3 beside tools, is sent none: ../output-format.ts), else the response says `text`, the
 * format "that was used".
 */
export function settingsOf(fields: Record<string, unknown>, formatted = true): ResponseSettings {
  const given = (key: string): unknown => own(fields, key) ?? undefined;
  const instructions = given("instructions");
  if (instructions !== undefined && typeof instructions !== "string")
    throw invalidField("instructions", "`instructions` must be a string.");
  return {
    instructions: instructions ?? null,
    tools: echoedTools(given("tools")),
    tool_choice: toolChoiceOf(given("tool_choice")),
    truncation: oneOf(given("truncation"), "truncation", ["auto", "disabled"]),
    parallel_tool_calls: boolean(given("parallel_tool_calls"), "parallel_tool_calls"),
    text: textOf(given("text"), formatted),
    top_p: numberIn(given("top_p"), "top_p", 0, 1),
    presence_penalty: numberIn(given("presence_penalty"), "presence_penalty", -2, 2),
    frequency_penalty: numberIn(given("frequency_penalty"), "frequency_penalty", -2, 2),
    top_logprobs: integerIn(given("top_logprobs"), "top_logprobs", 0, 20),
    temperature: given("temperature") as number | undefined,
    reasoning: reasoningOf(given("reasoning")),
    // The spec's and OpenAI's minimum (`max_output_tokens` below 16 is OpenAI's 400).
    max_output_tokens: integerIn(given("max_output_tokens"), "max_output_tokens", 16, Number.MAX_SAFE_INTEGER) ?? null,
    max_tool_calls: integerIn(given("max_tool_calls"), "max_tool_calls", 1, Number.MAX_SAFE_INTEGER) ?? null,
    service_tier: oneOf(given("service_tier"), "service_tier", SERVICE_TIERS) === undefined ? undefined : "default",
    metadata: metadataOf(given("metadata")),
    safety_identifier: keyOf(given("safety_identifier"), "safety_identifier") ?? null,
    prompt_cache_key: keyOf(given("prompt_cache_key"), "prompt_cache_key") ?? null,
  };
}

/**
 * What the OpenAI upstreams take of the request body `fields`, onto the parsed request: OpenAI's
 * bookkeeping (`prompt_cache_key`, `prompt_cache_retention`, `prompt_cache_options`,
 * `safety_identifier`, `metadata`, `user`) as `openaiKeys` and `store` as the request's own, checked and picked as for a Chat client (../openai-keys.ts:
 * `service_tier` is sent nowhere), for OpenAI Responses and Chat; `truncation: "auto"` (OpenAI
 * drops the earliest items that overflow the context window, where `disabled`, its default, is a
 * 400) as `openaiTruncation`, for OpenAI Responses; `{}` when the request gives none of them.
 */
export function openAIFieldsOf(
  fields: Record<string, unknown>,
  { truncation }: ResponseSettings,
): Pick<StreamRequest, "openaiKeys" | "openaiTruncation" | "store"> {
  // `store`: whether OpenAI keeps the response (Codex sends `store: false`), for an OpenAI Responses
  // or Gemini Interactions upstream, which otherwise stores every call; the others have no such setting.
  return {
    ...openAIKeysOf(fields),
    ...(truncation === "auto" && { openaiTruncation: truncation }),
  };
}

/**
 * The sampling settings of `fields` (the request body) as `/v1/stream`'s: `top_p`, and the
 * penalties, which `provider` must have a field for (else a 400 naming the one, unless at 0, the
 * default): the response repeats them, so they are not left out unseen, as the agent endpoints
 * leave out what an agent sends unasked (Open Responses' penalties are only sent when set).
 */
export function responsesSampling(
  fields: Record<string, unknown>,
  provider: string,
): Partial<Record<SamplingField, unknown>> {
  const penalties = {
    presence_penalty: own(fields, "presence_penalty") ?? undefined,
    frequency_penalty: own(fields, "frequency_penalty") ?? undefined,
  };
  parseSampling(penalties, provider, "refuse");
  return { top_p: own(fields, "top_p") ?? undefined, ...penalties };
}

/**
 * `tool_choice` as the response repeats it: as given, but an `allowed_tools` choice without its
 * `mode` (or a null one), which is read as `auto`, says `auto`: the spec's AllowedToolChoice
 * requires a mode, so the choice as given was no response's `tool_choice`.
 */
function toolChoiceOf(value: unknown): OpenAIResponseSettings["tool_choice"] {
  if (value === undefined) return "auto";
  if (isObject(value) && own(value, "type") === "allowed_tools" && (own(value, "mode") ?? null) === null)
    return { ...value, type: "allowed_tools", mode: "auto" };
  return value as OpenAIResponseSettings["tool_choice"];
}

/** The request's function and custom tools as the response lists them (`toolsOf` checked them first). */
function echoedTools(tools: unknown): OpenAIResponseTool[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool): OpenAIResponseTool[] => {
    if (!isObject(tool)) return [];
    const type = own(tool, "type");
    if (type === "function") {
      const description = own(tool, "description");
      const parameters = own(tool, "parameters");
      const strict = own(tool, "strict");
      return [
        {
          type: "function",
          name: own(tool, "name") as string,
          description: typeof description === "string" ? description : null,
          parameters: isObject(parameters) ? parameters : null,
          strict: typeof strict === "boolean" ? strict : null,
        },
      ];
    }
    return type === "custom" ? [{ ...tool, type }] : [];
  });
}

function boolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined || typeof value === "boolean") return value;
  throw invalidField(field, `\`${field}\` must be true or false.`);
}

function numberIn(value: unknown, field: string, min: number, max: number): number | undefined {
  if (value === undefined || (typeof value === "number" && value >= min && value <= max)) return value;
  throw invalidField(field, `\`${field}\` must be a number from ${min} to ${max}.`);
}

function integerIn(value: unknown, field: string, min: number, max: number): number | undefined {
  if (value === undefined || (Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max))
    return value as number | undefined;
  throw invalidField(field, `\`${field}\` must be a whole number from ${min}${max < 1e6 ? ` to ${max}` : " up"}.`);
}

/** A JSON Schema format's name, as OpenAI takes it. */
const FORMAT_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** `text`: its `format` (`text`, `json_object`, or `json_schema` with its fields; `text` when not `formatted`) and `verbosity`. */
function textOf(value: unknown, formatted: boolean): OpenAIResponseSettings["text"] | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) throw invalidField("text", "`text` must be an object.");
  const format = own(value, "format") ?? { type: "text" };
  if (!isObject(format)) throw invalidField("text.format", "`text.format` must be an object.");
  const type = own(format, "type");
  const verbosity = oneOf(own(value, "verbosity") ?? undefined, "text.verbosity", ["low", "medium", "high"]);
  const shown = verbosity === undefined ? {} : { verbosity };
  if (type !== "text" && type !== "json_object" && type !== "json_schema")
    throw invalidField("text.format.type", "`text.format.type` must be text, json_object or json_schema.");
  const name = own(format, "name");
  // OpenAI's rule for the name (the SDK's ResponseFormatTextJSONSchemaConfig), and `strict` a
  // boolean or null: one given as "true" would otherwise be read as not strict, silently.
  if (type === "json_schema" && (typeof name !== "string" || !FORMAT_NAME.test(name)))
    throw invalidField(
      "text.format.name",
      "`text.format.name` must be 1 to 64 letters, digits, _ or - (a-z, A-Z, 0-9, _, -).",
    );
  if (type === "json_schema") boolean(own(format, "strict") ?? undefined, "text.format.strict");
  if (type === "text" || !formatted) return { format: { type: "text" }, ...shown };
  if (type === "json_object") return { format: { type }, ...shown };
  const description = own(format, "description");
  const schema = own(format, "schema");
  const strict = own(format, "strict");
  return {
    format: {
      type,
      name,
      description: typeof description === "string" ? description : null,
      schema: isObject(schema) ? schema : null,
      strict: strict === true,
    },
    ...shown,
  };
}

/**
 * `reasoning` as the response repeats it: `{effort, summary}`, either `null` when not given
 * (`effort` is checked with the request: ../client-reasoning.ts). Codex's summary `none` is no
 * summary; one the response could not repeat within its enum is a 400, as OpenAI answers it.
 */
function reasoningOf(value: unknown): OpenAIResponseSettings["reasoning"] {
  if (value === undefined) return null;
  if (!isObject(value)) throw invalidField("reasoning", "`reasoning` must be an object.");
  const effort = own(value, "effort");
  const summary = own(value, "summary") ?? own(value, "generate_summary") ?? null;
  return {
    effort: typeof effort === "string" ? (SPEC_EFFORT.get(effort) ?? effort) : null,
    summary:
      summary === null || summary === "none"
        ? null
        : (oneOf(summary, "reasoning.summary", ["auto", "concise", "detailed"]) ?? null),
  };
}

/**
 * The efforts Open Responses' `ReasoningEffortEnum` lacks (`none`, `low`, `medium`, `high`,
 * `xhigh`) as the response repeats them: Codex's `minimal` as `low`, `max` (Anthropic's) as
 * `xhigh`, the nearest level on the side of more reasoning (`minimal` still reasons, so not
 * `none`), as a response that repeated them broke the spec's schema. Only the echo: the provider
 * is sent the effort as given (../client-reasoning.ts).
 */
const SPEC_EFFORT: ReadonlyMap<string, string> = new Map([
  ["minimal", "low"],
  ["max", "xhigh"],
]);
