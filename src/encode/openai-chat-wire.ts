/**
 * The OpenAI Chat Completions wire shapes the encoders write, in the API's own snake_case, and
 * the mappings from the library's normalized values back to them.
 *
 * @module
 */
import type { FinishReason, Usage } from "../shared/deltas.ts";
import { failureKind, type ProviderErrorKind } from "../shared/errors.ts";
import type { JsonValue } from "../shared/json.ts";
import { prefixedId, randomId } from "./call-ids.ts";
import { OPENAI_KIND_CODES, OPENAI_KIND_TYPES } from "./protocol-encoder.ts";

/** A `finish_reason` of Chat Completions. */
export type OpenAIChatFinishReason = "stop" | "length" | "tool_calls" | "content_filter";

/** Token usage as Chat Completions reports it. */
export interface OpenAIChatUsage {
  /** Input tokens. */
  prompt_tokens: number;
  /** Output tokens. */
  completion_tokens: number;
  /** Both. */
  total_tokens: number;
  /**
   * Of the input, the tokens read from the provider's cache and (`cache_write_tokens`, billed at
   * 1.25x) written to it; only when it reported either, the reads 0 when it reported only writes.
   */
  prompt_tokens_details?: { cached_tokens: number; cache_write_tokens?: number };
  /** Of the output, the reasoning tokens; only when the provider reported them. */
  completion_tokens_details?: { reasoning_tokens: number };
}

/**
 * The `error` member of an OpenAI error: the body of a failed request (`{"error": ...}`), and
 * inside a stream the chunk that openai-node turns into an `APIError` (its `message`, `type`
 * and `code` properties).
 */
export interface OpenAIChatError {
  /** A sentence that never quotes model output nor the provider's own error text. */
  message: string;
  /** `server_error` for what goes wrong inside a stream; a provider's failure of a known kind has OpenAI's type. */
  type: string;
  /** `null`, but `messages` for a conversation too long for the model's context window. */
  param: string | null;
  /**
   * The library's error code (`provider-error`, `stream-failed`, `arguments-too-large`, ...) or the
   * abort's reason; a provider's failure of a known kind has OpenAI's code (`context_length_exceeded`, ...).
   */
  code: string;
}

/** One call of a `chat.completion` message. */
export interface OpenAIChatToolCall {
  /** The provider's call id, or a generated `call_...` one. */
  id: string;
  /** Always `function`. */
  type: "function";
  /** The function called. */
  function: {
    /** The function name. */
    name: string;
    /** The arguments text as the model wrote it (invalid JSON stays as it was). */
    arguments: string;
  };
}

/**
 * One call of a custom tool (a free-text call, `inputFormat: "text"`) in a `chat.completion`
 * message, as openai-node's `ChatCompletionMessageCustomToolCall` types it.
 */
export interface OpenAIChatCustomToolCall {
  /** The provider's call id, or a generated `call_...` one. */
  id: string;
  /** Always `custom`. */
  type: "custom";
  /** The custom tool called. */
  custom: {
    /** The tool name. */
    name: string;
    /** The free text the model wrote. */
    input: string;
  };
}

/** The assistant message of a `chat.completion` choice. */
export interface OpenAIChatCompletionMessage {
  /** Always `assistant`. */
  role: "assistant";
  /** The visible text; `null` when the turn is only tool calls. */
  content: string | null;
  /** OpenAI's refusal (structured outputs, safety) when the provider sent one, else `null`. */
  refusal: string | null;
  /** The calls, in the order they started (a free-text call a custom tool's); absent when there are none. */
  tool_calls?: (OpenAIChatToolCall | OpenAIChatCustomToolCall)[];
  /** The reasoning text, under the name DeepSeek and most compatible servers use; absent when there is none. */
  reasoning_content?: string;
  /** The web pages the text cites (`url_citation`s, from the provider's citations); absent when there are none. */
  annotations?: Record<string, JsonValue>[];
}

/** One choice of a `chat.completion`. */
export interface OpenAIChatCompletionChoice {
  /** The choice index (0 unless the provider streamed several). */
  index: number;
  /** What the assistant said and called. */
  message: OpenAIChatCompletionMessage;
  /** Always `null`. */
  logprobs: null;
  /** Why the choice ended. */
  finish_reason: OpenAIChatFinishReason;
}

/** A non-streaming Chat Completions response. */
export interface OpenAIChatCompletion {
  /** The completion id (`chatcmpl-...`). */
  id: string;
  /** Always `chat.completion`. */
  object: "chat.completion";
  /** Unix time in seconds. */
  created: number;
  /** The model named in the options. */
  model: string;
  /** The choices, by index. */
  choices: OpenAIChatCompletionChoice[];
  /** Token usage, when the provider reported it. */
  usage?: OpenAIChatUsage;
  /** The provider's moderation results (OpenAI's moderated completions), when it sent them: `{ input, output }`. */
  moderation?: Record<string, unknown>;
}

/** Options of the OpenAI Chat encoders ({@link OpenAIChatEncoder}, {@link OpenAIChatCompletionBuilder}). */
export interface OpenAIChatEncoderOptions {
  /** The `model` of every chunk: the model the client asked for. */
  model: string;
  /**
   * The completion id of every chunk.
   * @defaultValue `chatcmpl-` and a generated token
   */
  id?: string | undefined;
  /**
   * `created`, in Unix seconds.
   * @defaultValue the time the encoder was made
   */
  created?: number | undefined;
  /**
   * Send usage as a last chunk with `choices: []` before `[DONE]`, as `stream_options:
   * {include_usage: true}` asks; only when the provider reported usage. The non-streaming
   * completion always carries usage when known.
   * @defaultValue false
   */
  includeUsage?: boolean | undefined;
  /**
   * Makes the tokens of generated ids: call ids a provider does not give (Gemini), or repeats,
   * and the default completion id. Inject one for reproducible output.
   * @defaultValue {@link randomId}
   */
  generateId?: (() => string) | undefined;
}

/** The options with their defaults, and the chunk prefix they fix. */
export function resolveOptions(options: OpenAIChatEncoderOptions): {
  id: string;
  created: number;
  generate: () => string;
} {
  const generate = options.generateId ?? randomId;
  return {
    id: options.id ?? prefixedId(generate, "chatcmpl-"),
    created: options.created ?? Math.floor(Date.now() / 1000),
    generate,
  };
}

/**
 * The normalized reason as Chat Completions names it; `stop`, `tool-calls` and `approval` (a turn
 * that also waits on an approval, whose client calls still run) become `tool_calls` only for a
 * choice that made calls.
 */
export function openAIFinishReason(reason: FinishReason, hasCalls: boolean): OpenAIChatFinishReason {
  if (reason === "length") return "length";
  if (reason === "content-filter") return "content_filter";
  return hasCalls && (reason === "stop" || reason === "tool-calls" || reason === "approval") ? "tool_calls" : "stop";
}

/** Usage in Chat Completions' fields; counts a provider did not report are 0. */
export function openAIUsage(usage: Usage): OpenAIChatUsage {
  const prompt = usage.inputTokens ?? 0;
  const completion = usage.outputTokens ?? 0;
  const out: OpenAIChatUsage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage.totalTokens ?? prompt + completion,
  };
  const { cacheReadTokens: read, cacheWriteTokens: write } = usage;
  if (read !== undefined || write !== undefined) {
    out.prompt_tokens_details = { cached_tokens: read ?? 0 };
    if (write !== undefined) out.prompt_tokens_details.cache_write_tokens = write;
  }
  if (usage.reasoningTokens !== undefined) out.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
  return out;
}

/**
 * The error object of one failure inside a stream: a provider's failure of a known `kind` with
 * OpenAI's own code and type (openai-node's `APIError` carries both; a quota's are both
 * `insufficient_quota`, as OpenAI sends its 429), an overflow of `messages`.
 * A rate limit is OpenAI's `rate_limit_exceeded` code with the limit hit as its type, `tokens` or
 * `requests`, as OpenAI sends it (`{"type": "tokens", "code": "rate_limit_exceeded"}`): the one an
 * OpenAI payload on `data` names, else `requests`.
 */
export function openAIError(error: {
  code: string;
  message: string;
  kind?: ProviderErrorKind;
  data?: unknown;
}): OpenAIChatError {
  const kind = failureKind(error);
  const named = (error.data as { error?: { type?: unknown } } | null | undefined)?.error?.type;
  const type = kind === "rate-limited" ? (named === "tokens" ? named : "requests") : kind && OPENAI_KIND_TYPES[kind];
  return {
    message: error.message,
    type: type ?? "server_error",
    param: kind === "context-overflow" ? "messages" : null,
    code: (kind && OPENAI_KIND_CODES[kind]) ?? error.code,
  };
}

/** The message of a `finish` whose reason is `error` with no provider error before it. */
export const FAILED_RESPONSE = { code: "provider-error", message: "The provider reported that the response failed." };
