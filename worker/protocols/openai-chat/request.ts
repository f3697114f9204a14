/**
 * The request of `POST /v1/chat/completions`: OpenAI's Chat Completions body, with `model` as
 * `<provider>/<model>` (or a name `MODEL_ALIASES` maps, or one alone):
 *
 * ```jsonc
 * {
 *   "model": "anthropic/claude-sonnet-4-6",
 *   "messages": [
 *     { "role": "system", "content": "Be brief." },           // or "developer"
 *     { "role": "user", "content": "Weather in Paris?" },       // or parts: text, image_url, input_audio, file
 *     { "role": "assistant", "content": null, "tool_calls": [{ "id": "call_1", "type": "function", "function": { "name": "get_weather", "arguments": "{\"city\":\"Paris\"}" } }] },
 *     { "role": "tool", "tool_call_id": "call_1", "content": "{\"celsius\": 18}" }
 *   ],
 *   "tools": [{ "type": "function", "function": { "name": "get_weather", "parameters": { ... } } }], // or custom: ./tools.ts
 *   "tool_choice": "auto",
 *   "parallel_tool_calls": false,                             // one call per turn: later ones left out (../../services/call-rules.ts)
 *   "stream": true,                                            // absent or false: one chat.completion object
 *   "stream_options": { "include_usage": true },
 *   "max_completion_tokens": 1024,                            // or max_tokens
 *   "temperature": 0.2,
 *   "reasoning_effort": "low"                                 // optional: each provider's own knob (client-reasoning.ts)
 * }
 * ```
 *
 * `top_p`, `stop`, `seed` and the penalties go to every provider that has them, in its form
 * (worker/request/parse-sampling.ts); `stop` to one without it the Worker applies itself
 * (worker/services/stop-sequences.ts). OpenAI's bookkeeping (`prompt_cache_key`, `prompt_cache_retention`,
 * `prompt_cache_options`, `safety_identifier`, `store`, `metadata`, `user`) is checked and goes to an OpenAI upstream
 * (`store` to Gemini Interactions too); `service_tier` is checked and sent nowhere (../openai-keys.ts). The others
 * OpenAI documents are accepted when they hold their neutral value (`n: 1`, `logprobs: false`, ...); anything else is
 * a 400 that names it, as OpenAI answers an unknown parameter. `null` is absent. An assistant message's
 * `reasoning_content` (DeepSeek, Kimi, GLM, Qwen), `reasoning` or `reasoning_details` (MiniMax, OpenRouter) goes back
 * to a Chat Completions provider in the same field. `web_search_options` (OpenAI's search models, checked:
 * ../web-search.ts; sent only when `OPENAI_SERVER_TOOLS` lists `web_search`) and a JSON `response_format`
 * (../output-format.ts) go to an OpenAI Chat upstream, with another provider a 400; `prediction` checked and sent nowhere (./prediction.ts).
 * The deprecated `functions`, `function_call` and `role: "function"` messages are read as tools (./legacy-functions.ts).
 *
 * @module
 */
import type { JsonValue, ReasoningPart } from "../../../src/index.ts";
import type { ModelAlias } from "../../env.ts";
import { HttpError, invalidField } from "../../response/json-error.ts";
import {
  arrayAt,
  CHAT_BOUNDS,
  idAt,
  clientRequest,
  objectAt,
  samplingOf,
  stringAt,
  TAKES_REFUSAL,
  type WireMessage,
} from "../client-request.ts";
import { own, tooDeep, tooDeepError } from "../../request/json-fields.ts";
import { effortReasoning } from "../client-reasoning.ts";
import { providerModel } from "../provider-model.ts";
import { textOf, userContent } from "./content-parts.ts";
import { callIdOf, echoedCall } from "../thought-signatures.ts";
import type { StreamRequest } from "../../request/stream-request.ts";
import { chatWebSearchOf } from "../web-search.ts";
import { withModeration } from "../moderation.ts";
import { withChatResponseFormat, withChatVerbosity } from "../output-format.ts";
import { chatCallAt, chatToolField, chatTools, type ChatTools } from "./tools.ts";
import { withNativeCustomTools } from "../custom-calls.ts";
import { openAIKeysOf } from "../openai-keys.ts";
import { checkPrediction } from "./prediction.ts";
import { LegacyCalls, legacyField, legacyFields } from "./legacy-functions.ts";

/** A validated `POST /v1/chat/completions` request. */
export interface ChatCompletionRequest extends Pick<ChatTools, "allowed" | "customTools"> {
  request: StreamRequest;
  /** The `model` as the client sent it, echoed in every chunk. */
  model: string;
  stream: boolean;
  /** `stream_options.include_usage`. */
  includeUsage: boolean;
  /** The request used `functions` (deprecated): the answer is in that shape (./legacy-functions.ts). */
  legacy: boolean;
}

/** Chat's sampling fields, named as in `/v1/stream`. */
const CHAT_SAMPLING = ["top_p", "stop", "seed", "frequency_penalty", "presence_penalty"] as const;
const USED = new Set<string>([
  "model",
  "messages",
  "tools",
  "tool_choice",
  "stream",
  "stream_options",
  "max_tokens",
  "max_completion_tokens",
  "temperature",
  ...CHAT_SAMPLING,
  "reasoning_effort",
  "web_search_options",
  "moderation",
  "response_format",
  "verbosity",
  "parallel_tool_calls",
  "prediction",
]);
/** OpenAI's own bookkeeping (its prompt cache too): checked, and sent to an OpenAI upstream (../openai-keys.ts). */
const IGNORED = new Set([
  "user",
  "metadata",
  "store",
  "service_tier",
  "prompt_cache_key",
  "prompt_cache_retention",
  "prompt_cache_options",
  "safety_identifier",
]);
/** Parameters accepted only at the value that means "as if absent". */
const NEUTRAL: Readonly<Record<string, (value: unknown) => boolean>> = {
  n: (value) => value === 1,
  logprobs: (value) => value === false,
  top_logprobs: (value) => value === 0,
  logit_bias: (value) => typeof value === "object" && value !== null && Object.keys(value).length === 0,
  modalities: (value) => Array.isArray(value) && value.length === 1 && value[0] === "text",
};

/** Validates a parsed Chat Completions body; throws a 400 {@link HttpError} naming the field at fault. */
export function parseChatCompletionRequest(
  body: unknown,
  providers: readonly string[],
  bare?: string,
  serverTools: ReadonlySet<string> = new Set(),
  aliases: readonly ModelAlias[] = [],
): ChatCompletionRequest {
  const deep = tooDeep(objectAt(body, "", "a JSON object"));
  if (deep !== undefined) throw tooDeepError(deep);
  const { fields, legacy } = legacyFields(body as Record<string, unknown>);
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || USED.has(key) || IGNORED.has(key)) continue;
    const neutral = Object.hasOwn(NEUTRAL, key) ? NEUTRAL[key] : undefined;
    if (neutral?.(value)) continue;
    const name = /^[A-Za-z0-9_.-]{1,64}$/.test(key) ? key : "(unprintable)";
    const message = neutral
      ? `This endpoint supports \`${name}\` only at its default value.`
      : "The request has a parameter this endpoint does not support.";
    throw new HttpError(400, { code: "unknown_field", message, field: name });
  }
  const { provider, model } = providerModel(own(fields, "model"), providers, "model", bare, aliases);
  const stream = optionalBoolean(own(fields, "stream"), "stream");
  const options = own(fields, "stream_options") ?? undefined;
  if (options !== undefined && !stream)
    throw invalidField("stream_options", "`stream_options` is only allowed when `stream` is true.");
  const includeUsage =
    options === undefined
      ? false
      : optionalBoolean(objectAt(options, "stream_options")["include_usage"], "stream_options.include_usage");
  const calls = new LegacyCalls();
  const messages = arrayAt(own(fields, "messages") ?? undefined, "messages").map((message, i) =>
    toWire(message, `messages[${i}]`, provider, calls, i),
  );
  const { tools, toolChoice, allowed, customTools, kinds } = chatTools(fields);
  const { request } = clientRequest(
    {
      provider,
      model,
      messages,
      tools,
      tool_choice: toolChoice,
      max_tokens: own(fields, "max_completion_tokens") ?? own(fields, "max_tokens") ?? undefined,
      temperature: own(fields, "temperature") ?? undefined,
      sampling: samplingOf(fields, CHAT_SAMPLING),
      reasoning: effortReasoning(own(fields, "reasoning_effort"), "reasoning_effort"),
    },
    undefined,
    providers,
    {},
    (field) => {
      if (field === "provider") return "model";
      if (field === "max_tokens")
        return own(fields, "max_completion_tokens") != null ? "max_completion_tokens" : "max_tokens";
      return legacy ? legacyField(chatToolField(field, kinds)) : chatToolField(field, kinds);
    },
    CHAT_BOUNDS,
  );
  // `allowed_tools`: the provider is offered the listed tools alone (checked first, at the client's indexes).
  if (allowed) request.tools = request.tools.filter((tool) => allowed.has(tool.name));
  withNativeCustomTools(request, customTools); // to an OpenAI Responses upstream (../custom-calls.ts)
  // One call at a time: told to OpenAI, held to by the route (../../services/call-rules.ts); none calls none.
  // `functions` (deprecated) call one at a time, as OpenAI's legacy mode does.
  const parallel = own(fields, "parallel_tool_calls") ?? undefined;
  const single = legacy || (parallel !== undefined && !optionalBoolean(parallel, "parallel_tool_calls"));
  if (single && toolChoice !== "none") request.parallelToolCalls = false;
  const search = chatWebSearchOf(own(fields, "web_search_options") ?? undefined, provider, serverTools);
  if (search) request.openaiWebSearch = search;
  // OpenAI's bookkeeping, checked; sent to an OpenAI upstream, which takes it, `store` to Gemini Interactions too (../openai-keys.ts).
  Object.assign(request, openAIKeysOf(fields));
  withModeration(fields, provider, request, "openai");
  withChatResponseFormat(fields, provider, request);
  withChatVerbosity(fields, provider, request);
  checkPrediction(fields); // sent nowhere (./prediction.ts)
  const chosen = { request, model: own(fields, "model") as string, stream, includeUsage, customTools, legacy };
  return { ...chosen, ...(allowed && { allowed }) };
}

function toWire(value: unknown, path: string, provider: string, legacy: LegacyCalls, index: number): WireMessage {
  const message = objectAt(value, path);
  const role = own(message, "role");
  if (role === "system" || role === "developer")
    return { role: "system", content: textOf(own(message, "content"), `${path}.content`) };
  // A user message's images, audio and files (./content-parts.ts); the other roles hold text.
  if (role === "user")
    return { role: "user", content: userContent(own(message, "content"), `${path}.content`, provider) };
  if (role === "function") return legacy.resultOf(message, path);
  if (role === "tool")
    return {
      role: "tool",
      // The id the provider knows (an Interactions call's own, its signature left on the call).
      tool_call_id: callIdOf(idAt(own(message, "tool_call_id"), `${path}.tool_call_id`), provider),
      content: textOf(own(message, "content"), `${path}.content`),
    };
  if (role === "assistant") {
    const refusals: string[] = [];
    const content =
      own(message, "content") === null || own(message, "content") === undefined
        ? ""
        : textOf(own(message, "content"), `${path}.content`, refusals);
    const calls =
      own(message, "tool_calls") === null || own(message, "tool_calls") === undefined
        ? []
        : arrayAt(own(message, "tool_calls"), `${path}.tool_calls`);
    const reasoning = reasoningOf(message, path, provider, refusals);
    return {
      role: "assistant",
      content,
      ...reasoning,
      tool_calls: [
        ...calls.map((call, j) => {
          const at = `${path}.tool_calls[${j}]`;
          // A Gemini call's id carries its signature: the provider gets its own id, the signature on the call.
          const sent = chatCallAt(call, at, provider);
          return { ...sent, ...echoedCall(sent.id, provider, `${at}.id`) };
        }),
        ...legacy.callOf(message, path, index, calls.length > 0),
      ],
    };
  }
  throw invalidField(`${path}.role`, "`role` must be system, developer, user, assistant, tool or function.");
}

/**
 * A thinking model's reasoning, as a client of DeepSeek, Kimi, GLM, MiniMax or OpenRouter sends its assistant message
 * back (`reasoning_content`, `reasoning`, `reasoning_details`), and OpenAI's `refusal`: each field becomes a reasoning
 * part of that field, which goes back to a Chat Completions provider in the same field, and the reasoning's text is
 * the turn's reasoning (which Ollama takes back). The refusal (the message's field, then its content's `refusal`
 * parts) is left out for an upstream that has none (`TAKES_REFUSAL`): it is not the model's words to send back as its
 * text (Anthropic's is its classifier's explanation, and its guidance is not to continue it).
 */
function reasoningOf(
  message: Record<string, unknown>,
  path: string,
  provider: string,
  contentRefusals: readonly string[],
): Pick<Extract<WireMessage, { role: "assistant" }>, "reasoning_parts" | "reasoning"> {
  const parts: Extract<ReasoningPart, { type: "field" }>[] = [];
  for (const field of ["reasoning_content", "reasoning", "refusal"] as const) {
    const value = own(message, field);
    const given = value === undefined || value === null || value === "" ? [] : [stringAt(value, `${path}.${field}`)];
    const pieces = field === "refusal" ? [...given, ...contentRefusals] : given;
    if (field === "refusal" && !TAKES_REFUSAL.has(provider)) continue;
    const joined = pieces.join("\n\n");
    if (joined !== "") parts.push({ type: "field", field, value: joined });
  }
  const details = own(message, "reasoning_details");
  if (details !== undefined && details !== null)
    parts.push({
      type: "field",
      field: "reasoning_details",
      value: arrayAt(details, `${path}.reasoning_details`) as JsonValue[],
    });
  const text = parts.find((part) => typeof part.value === "string" && part.field !== "refusal")?.value;
  return {
    ...(parts.length > 0 ? { reasoning_parts: parts } : {}),
    ...(typeof text === "string" ? { reasoning: text } : {}),
  };
}

function optionalBoolean(value: unknown, path: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw invalidField(path, `\`${path}\` must be a boolean.`);
  return value;
}
