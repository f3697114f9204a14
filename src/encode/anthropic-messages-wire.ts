/**
 * The Anthropic Messages wire shapes the encoders write, in the API's own snake_case, and the
 * mappings from the library's normalized values back to them.
 *
 * @module
 */
import type { FinishReason, ReasoningPart, Usage } from "../shared/deltas.ts";
import type { ExecutionContainer } from "../shared/finish-details.ts";
import type { AnthropicStopDetails } from "./anthropic-stop-details.ts";
import { failureKind, type ProviderErrorKind } from "../shared/errors.ts";
import type { JsonValue } from "../shared/json.ts";

/** Options of {@link AnthropicMessagesEncoder}, its stage and {@link readAnthropicMessage}. */
export interface AnthropicMessagesEncoderOptions {
  /** The `model` the message names (what the client asked for). */
  model: string;
  /**
   * The message id.
   * @defaultValue `msg_` and a generated token
   */
  id?: string | undefined;
  /**
   * Makes the tokens of generated ids: the message id, and call ids a provider does not give.
   * @defaultValue {@link randomId}
   */
  generateId?: (() => string) | undefined;
  /**
   * The `signature` of the thinking block a reasoning part becomes: a server that wants another
   * provider's opaque reasoning state back on the next turn (an OpenAI Responses item's
   * encrypted content, a Gemini Interactions built-in tool's step kept as a `block` part) encodes
   * it here, since Messages clients send thinking blocks back unchanged. A `block` part that is not
   * Anthropic's (`compaction`, `fallback`, which go whole) becomes such a thinking block.
   * @defaultValue a signed part's own `signature`; nothing for other parts
   */
  signature?: ((part: ReasoningPart) => string | undefined) | undefined;
}

/** A `stop_reason` of the Messages API. */
export type AnthropicStopReason =
  | "end_turn"
  | "max_tokens"
  | "model_context_window_exceeded"
  | "stop_sequence"
  | "tool_use"
  | "pause_turn"
  | "refusal";

/** Token usage as the Messages API reports it. */
export interface AnthropicUsage {
  /** Input tokens, the cached ones left out as Anthropic counts them (0 in `message_start` unless the provider reported them before any content). */
  input_tokens: number;
  /** Output tokens. */
  output_tokens: number;
  /** Input tokens read from the cache; only when the provider reported them. */
  cache_read_input_tokens?: number;
  /** Input tokens written to the cache; only when the provider reported them. */
  cache_creation_input_tokens?: number;
}

/** A content block of an assistant message. */
export type AnthropicContentBlock =
  | {
      /** Visible text. */
      type: "text";
      /** The text. */
      text: string;
      /** The provider's citations of it (Anthropic's), when it had any. */
      citations?: JsonValue[];
    }
  | {
      /** Reasoning. */
      type: "thinking";
      /** The reasoning text. */
      thinking: string;
      /** The provider's signature of it (`""` when the provider gave none). */
      signature: string;
    }
  | {
      /** Reasoning the provider encrypted. */
      type: "redacted_thinking";
      /** The provider's opaque data. */
      data: string;
    }
  | {
      /** A call for the client to run. */
      type: "tool_use";
      /** The provider's call id, or a generated one. */
      id: string;
      /** The tool's name. */
      name: string;
      /** The arguments. */
      input: unknown;
      /** Who made the call, with programmatic tool calling (`{type: "direct"}`, a code execution tool's id), when the provider said. */
      caller?: { [key: string]: JsonValue };
      /** The toolset of a toolset member's call, which its `tool_use` and `tool_result` carry back, when the provider said. */
      toolset_name?: string;
    }
  | {
      /** A block the provider gets back as it came, in its place: Anthropic's `compaction` summary, a `fallback` boundary. */
      type: "compaction" | "fallback";
      /** Its other fields, verbatim. */
      [key: string]: JsonValue;
    };

/** A non-streaming Messages response, and what `message_start` carries (with `content: []`). */
export interface AnthropicMessage {
  /** `msg_...`. */
  id: string;
  /** Always `message`. */
  type: "message";
  /** Always `assistant`. */
  role: "assistant";
  /** The model named in the options. */
  model: string;
  /** The blocks, in order. */
  content: AnthropicContentBlock[];
  /** Why the message ended; `null` in `message_start`. */
  stop_reason: AnthropicStopReason | null;
  /** The stop sequence that ended the message (the finish's `stopSequence`), else `null`. */
  stop_sequence: string | null;
  /** Token usage. */
  usage: AnthropicUsage;
  /** The code-execution container the message ran in, when the provider named one (set from the `message_delta`). */
  container?: AnthropicContainer;
  /** Why a `refusal` stopped it (set from the `message_delta`): `null` before, and after any other stop. */
  stop_details: AnthropicStopDetails | null;
}

/** A message's code-execution container, as Anthropic writes it (`expires_at` when the provider sent it). */
export interface AnthropicContainer {
  /** The container's id, which the client sends back as the next request's `container`. */
  id: string;
  /** When it expires (ISO 8601). */
  expires_at?: string;
}

/** The `error` member of an Anthropic error body (`{"type": "error", "error": ...}`), and of an in-stream `error` event. */
export interface AnthropicError {
  /** `api_error` for what goes wrong inside a stream, `invalid_request_error` for a bad request, ... */
  type: string;
  /** The library's sentence and code, never the provider's text. */
  message: string;
}

/** One event of a Messages stream, as the encoders write it. */
export type AnthropicStreamEvent =
  /** First and once: the message with `content: []`. */
  | { type: "message_start"; message: AnthropicMessage }
  /** A block opens at the next index, empty: its content follows as deltas. */
  | { type: "content_block_start"; index: number; content_block: AnthropicContentBlock }
  /** A fragment of the open block, of its own type. */
  | {
      type: "content_block_delta";
      index: number;
      delta:
        | { type: "text_delta"; text: string }
        | { type: "thinking_delta"; thinking: string }
        | { type: "signature_delta"; signature: string }
        | { type: "input_json_delta"; partial_json: string }
        /** One citation of the text block, as the provider sent it (Anthropic's, passed on). */
        | { type: "citations_delta"; citation: JsonValue };
    }
  /** The open block is complete. */
  | { type: "content_block_stop"; index: number }
  /** Once, after every block: why the message ended, and the usage. */
  | {
      type: "message_delta";
      delta: {
        stop_reason: AnthropicStopReason;
        stop_sequence: string | null;
        container?: AnthropicContainer;
        stop_details: AnthropicStopDetails | null;
      };
      usage: {
        output_tokens: number;
        input_tokens?: number;
        cache_read_input_tokens?: number;
        cache_creation_input_tokens?: number;
      };
    }
  /** Last: nothing follows. */
  | { type: "message_stop" }
  /** A failure, in band: nothing follows. */
  | { type: "error"; error: AnthropicError };

/**
 * A finish's container as Anthropic writes it.
 *
 * @example
 * ```ts
 * anthropicContainer({ id: "container_011", expiresAt: "2026-12-02T15:00:00Z" }); // { id: "container_011", expires_at: "2026-12-02T15:00:00Z" }
 * ```
 */
export function anthropicContainer(container: ExecutionContainer): AnthropicContainer {
  const { id, expiresAt } = container;
  return expiresAt === undefined ? { id } : { id, expires_at: expiresAt };
}

/** The `stop_reason` of a finish: `tool_use` whenever a call that can run was shown, as clients run calls only then. */
export function anthropicStopReason(
  reason: FinishReason,
  rawReason: string | null,
  called: boolean,
): AnthropicStopReason {
  if (called) return "tool_use";
  // The context window, not the output budget, ran out: Anthropic's own reason, on which clients compact.
  if (reason === "length") return rawReason === "model_context_window_exceeded" ? rawReason : "max_tokens";
  if (reason === "content-filter") return "refusal";
  if (reason === "pause") return "pause_turn";
  return rawReason === "stop_sequence" ? "stop_sequence" : "end_turn";
}

/** The usage numbers of the Messages API (integers; 0 where the provider gave none). */
export function anthropicUsage(usage: Usage | undefined): AnthropicUsage {
  const read = tokens(usage?.cacheReadTokens);
  const written = tokens(usage?.cacheWriteTokens);
  const out: AnthropicUsage = {
    input_tokens: Math.max(0, tokens(usage?.inputTokens) - read - written),
    output_tokens: tokens(usage?.outputTokens),
  };
  if (usage?.cacheReadTokens !== undefined) out.cache_read_input_tokens = read;
  if (usage?.cacheWriteTokens !== undefined) out.cache_creation_input_tokens = written;
  return out;
}

const tokens = (value: number | undefined): number =>
  value !== undefined && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;

/**
 * An error as the Messages API shows it: the library's message alone (its code is the library's
 * own, which Anthropic's error shape has no place for and a client would show), never the
 * provider's text. A provider's failure of a known `kind` has Anthropic's own type, on which
 * clients act (Claude Code and the SDK back off on `overloaded_error` and `rate_limit_error`; a quota
 * is its 402's `billing_error`, which no client retries); an overflow is Claude Code's "prompt is
 * too long", the numbers in the message where it has them; a provider that went silent
 * (`idle-timeout`) or ran past the deadline (`deadline-exceeded`) Anthropic's `timeout_error`.
 */
export function anthropicError(error: {
  code: string;
  message: string;
  kind?: ProviderErrorKind;
  data?: unknown;
}): AnthropicError {
  const kind = failureKind(error);
  const type = (kind && ANTHROPIC_KIND_TYPES[kind]) ?? (TIMEOUTS.includes(error.code) ? "timeout_error" : "api_error");
  return kind === "context-overflow"
    ? { type, message: `prompt is too long: ${error.message}` }
    : { type, message: error.message };
}

/** The codes of a response that timed out: Anthropic's `timeout_error` (its 504). */
const TIMEOUTS: readonly string[] = ["idle-timeout", "deadline-exceeded"];

const ANTHROPIC_KIND_TYPES: Partial<Record<ProviderErrorKind, string>> = {
  overloaded: "overloaded_error",
  "rate-limited": "rate_limit_error",
  "quota-exceeded": "billing_error",
  "context-overflow": "invalid_request_error",
  "invalid-request": "invalid_request_error",
};

/** The default `signature` of a reasoning part: a signed block's own. */
export const ownSignature = (part: ReasoningPart): string | undefined =>
  part.type === "signed" ? part.signature : undefined;
