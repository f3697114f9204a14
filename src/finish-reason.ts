import { ownValue } from "./payload.ts";
import type { FinishReason } from "./types.ts";

/**
 * Finish reasons by raw value, one table per provider so that a single-provider bundle holds only
 * its own: each stage normalizes its provider's value into `FinishDelta.reason` (the raw value is
 * always kept). Anything unlisted is `other`.
 */
type FinishReasons = Record<string, FinishReason>;

/** Anthropic `stop_reason` (also sent by some OpenAI-compatible gateways in front of Claude). */
export const ANTHROPIC_FINISH_REASONS: FinishReasons = {
  end_turn: "stop",
  stop_sequence: "stop",
  tool_use: "tool-calls",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  refusal: "content-filter",
};

/** OpenAI Chat Completions and compatibles (together with {@link ANTHROPIC_FINISH_REASONS}). */
export const OPENAI_CHAT_FINISH_REASONS: FinishReasons = {
  stop: "stop",
  eos: "stop",
  tool_calls: "tool-calls",
  function_call: "tool-calls",
  length: "length",
  model_length: "length",
  content_filter: "content-filter",
  error: "error",
  abort: "error", // vLLM: the request was aborted
  insufficient_system_resource: "error", // DeepSeek: interrupted for lack of capacity
};

/** Gemini `finishReason`. */
export const GEMINI_FINISH_REASONS: FinishReasons = {
  STOP: "stop",
  MAX_TOKENS: "length",
  SAFETY: "content-filter",
  RECITATION: "content-filter",
  BLOCKLIST: "content-filter",
  PROHIBITED_CONTENT: "content-filter",
  SPII: "content-filter",
  IMAGE_SAFETY: "content-filter",
  MALFORMED_FUNCTION_CALL: "error",
  UNEXPECTED_TOOL_CALL: "error",
};

/** Responses API `status` (an `incomplete` response says why in `incomplete_details`). */
export const RESPONSES_FINISH_REASONS: FinishReasons = {
  completed: "stop",
  incomplete: "length",
  failed: "error",
};

/**
 * Normalizes a provider's finish reason, whichever provider sent it (the stages do this with their
 * own table). A response that stopped normally with complete calls is `tool-calls`: OpenAI says
 * `stop` when `tool_choice` forces a function, Gemini always says `STOP`.
 *
 * @example
 * ```ts
 * normalizeFinishReason("tool_calls", true); // "tool-calls"
 * normalizeFinishReason("STOP", true); // "tool-calls": Gemini says STOP after calls
 * normalizeFinishReason("max_tokens", false); // "length"
 * ```
 */
export function normalizeFinishReason(raw: string | null, hasToolCalls: boolean): FinishReason {
  const reason =
    raw === null
      ? "other"
      : (ownValue(OPENAI_CHAT_FINISH_REASONS, raw) ??
        ownValue(ANTHROPIC_FINISH_REASONS, raw) ??
        ownValue(GEMINI_FINISH_REASONS, raw) ??
        ownValue(RESPONSES_FINISH_REASONS, raw) ??
        "other");
  if (hasToolCalls && (reason === "stop" || raw === null)) return "tool-calls";
  return reason;
}
