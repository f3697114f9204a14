import type { FinishReason } from "./types.ts";

/**
 * Provider finish reasons, by their raw value, across OpenAI Chat and compatibles, Anthropic,
 * Gemini and the Responses API status. Anything unlisted is `other`; the raw value is always kept.
 */
const FINISH_REASONS: Record<string, FinishReason> = {
  // OpenAI Chat Completions and compatibles
  stop: "stop",
  eos: "stop",
  end_turn: "stop",
  stop_sequence: "stop",
  tool_calls: "tool-calls",
  function_call: "tool-calls",
  tool_use: "tool-calls",
  length: "length",
  max_tokens: "length",
  model_length: "length",
  model_context_window_exceeded: "length",
  content_filter: "content-filter",
  refusal: "content-filter",
  error: "error",
  // Gemini
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
  // Responses API status
  completed: "stop",
  incomplete: "length",
  failed: "error",
};

/**
 * Normalizes a provider's finish reason. A response that stopped normally with complete calls
 * is `tool-calls`: OpenAI says `stop` when `tool_choice` forces a function, Gemini always says `STOP`.
 *
 * @example
 * ```ts
 * normalizeFinishReason("tool_calls", true); // "tool-calls"
 * normalizeFinishReason("STOP", true); // "tool-calls": Gemini says STOP after calls
 * normalizeFinishReason("max_tokens", false); // "length"
 * ```
 */
export function normalizeFinishReason(raw: string | null, hasToolCalls: boolean): FinishReason {
  const reason = raw === null ? "other" : (FINISH_REASONS[raw] ?? "other");
  if (hasToolCalls && (reason === "stop" || raw === null)) return "tool-calls";
  return reason;
}
