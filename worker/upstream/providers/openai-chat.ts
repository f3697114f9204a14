import { chatResponseFormat } from "../../request/output-format.ts";
import { openaiRecordings } from "../replay/recordings/openai.ts";
import type { JsonObject, StreamRequest } from "../../request/stream-request.ts";
import { textThenRefusals } from "../../request/refused-text.ts";
import { requestBody } from "./request-body.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider, ToolNameRule } from "./upstream-provider.ts";

/**
 * OpenAI's function names (Chat Completions and Responses alike): "a-z, A-Z, 0-9, or underscores and
 * dashes, with a maximum length of 64".
 *
 * @example
 * ```ts
 * const responses = { ...openaiChat, toolNames: OPENAI_NAMES };
 * ```
 */
export const OPENAI_NAMES: ToolNameRule = { maxLength: 64, char: /[A-Za-z0-9_-]/, first: /[A-Za-z0-9_-]/ };

/**
 * OpenAI Chat Completions, and every server that speaks it (set `OPENAI_BASE_URL` to Groq,
 * DeepSeek, Mistral, OpenRouter, a vLLM or Ollama server, ...).
 */
export const openaiChat: UpstreamProvider<"openai"> = {
  protocol: "openai",
  keyVar: "OPENAI_API_KEY",
  baseUrlVar: "OPENAI_BASE_URL",
  defaultBaseUrl: "https://api.openai.com/v1",
  buildRequest: buildOpenAIChatRequest,
  toolNames: OPENAI_NAMES,
  recordings: openaiRecordings,
};

/** The `POST /chat/completions` streaming request. */
export function buildOpenAIChatRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  const body = requestBody("openai", request);
  const openAI = isOpenAI(target.baseUrl);
  // OpenAI's reasoning models refuse `max_tokens`; compatible servers mostly know only it.
  if (body["max_tokens"] !== undefined && openAI) {
    body["max_completion_tokens"] = body["max_tokens"];
    delete body["max_tokens"];
  }
  if (!openAI) refusalsAsText(body);
  if (request.openaiWebSearch) body["web_search_options"] = request.openaiWebSearch;
  const format = request.openaiResponseFormat ?? (request.outputFormat && chatResponseFormat(request.outputFormat));
  if (format) body["response_format"] = format;
  if (request.openaiVerbosity) body["verbosity"] = request.openaiVerbosity;
  if (request.strictTools && openAI) strictFunctions(body, new Set(request.strictTools));
  if (openAI) Object.assign(body, openAIChatKeys(request));
  // To a compatible server too: one without moderation had better refuse the field than answer unmoderated.
  if (request.openaiModeration) body["moderation"] = request.openaiModeration;
  // OpenAI refuses `parallel_tool_calls` without tools, and from its o-series models (o1, o3, o4-mini:
  // "not supported with this model"); a compatible server may refuse it at all. The route holds
  // every answer to one call all the same (../../services/call-rules.ts).
  const tools = Array.isArray(body["tools"]) && body["tools"].length > 0;
  if (request.parallelToolCalls === false && openAI && tools && !O_SERIES.test(request.model))
    body["parallel_tool_calls"] = false;
  return {
    url: `${target.baseUrl}/chat/completions`,
    headers: {
      authorization: `Bearer ${target.apiKey}`,
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    // A compatible server that ignores `stream: true` answers a whole `chat.completion`: read as its stream.
    wholeType: "application/json",
    body,
  };
}

/**
 * OpenAI's bookkeeping fields and the client's `store`, without `metadata` unless `store` is true:
 * OpenAI Chat refuses it otherwise ("The 'metadata' parameter is only allowed when 'store' is
 * enabled"), where OpenAI Responses keeps it with every response.
 */
function openAIChatKeys({ openaiKeys: { metadata, ...keys } = {}, store }: StreamRequest): JsonObject {
  return {
    ...keys,
    ...(store !== undefined && { store }),
    ...(store === true && metadata !== undefined && { metadata }),
  };
}

/** The body's functions of the names in `strict` with `function.strict: true`, as a Responses client made them. */
function strictFunctions(body: JsonObject, strict: ReadonlySet<string>): void {
  for (const tool of Array.isArray(body["tools"]) ? (body["tools"] as JsonObject[]) : []) {
    const fn = tool["function"] as JsonObject | undefined;
    if (fn && strict.has(fn["name"] as string)) fn["strict"] = true;
  }
}

/** OpenAI's o-series reasoning models (`o3-mini`, `o4-mini-2025-04-16`, a fine-tune `ft:o4-mini:...`). */
const O_SERIES = /^(?:ft:)?o\d/;

function isOpenAI(baseUrl: string): boolean {
  if (baseUrl !== parsed.baseUrl) parsed = { baseUrl, openAI: new URL(baseUrl).hostname === "api.openai.com" };
  return parsed.openAI;
}

/** The last base URL asked about, by its exact text (a deployment's `OPENAI_BASE_URL`): parsed once, not per request. */
let parsed: { baseUrl: string | undefined; openAI: boolean } = { baseUrl: undefined, openAI: false };

/**
 * An assistant message's `refusal` is OpenAI's alone (`ChatCompletionAssistantMessageParam`): a
 * compatible server may refuse a field it does not know (Groq answers 400 to an assistant field it
 * does not support), so each goes to one as the message's text instead (`textThenRefusals`; a
 * message of a refusal alone keeps content: Chat Completions refuses an assistant message with
 * neither content nor `tool_calls`).
 */
function refusalsAsText(body: JsonObject): void {
  for (const message of body["messages"] as JsonObject[]) {
    const refusal = message["refusal"];
    if (typeof refusal !== "string") continue;
    delete message["refusal"];
    const text = message["content"];
    message["content"] = textThenRefusals(typeof text === "string" ? text : "", [refusal]);
  }
}
