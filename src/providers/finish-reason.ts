import { ANTHROPIC_FINISH_REASONS } from "./anthropic/anthropic-finish-reasons.ts";
import { BEDROCK_FINISH_REASONS } from "./bedrock/bedrock-finish-reasons.ts";
import { COHERE_FINISH_REASONS } from "./cohere/cohere-finish-reasons.ts";
import { GEMINI_FINISH_REASONS } from "./gemini/gemini-finish-reasons.ts";
import { OPENAI_CHAT_FINISH_REASONS } from "./openai-chat/openai-chat-finish-reasons.ts";
import { RESPONSES_FINISH_REASONS } from "./openai-responses/openai-responses-finish-reasons.ts";
import type { FinishReason } from "../shared/deltas.ts";
import { ownValue } from "../shared/values.ts";

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
        ownValue(BEDROCK_FINISH_REASONS, raw) ??
        ownValue(COHERE_FINISH_REASONS, raw) ??
        "other");
  if (hasToolCalls && (reason === "stop" || raw === null)) return "tool-calls";
  return reason;
}
