import type { FinishReasons } from "../payload.ts";

/**
 * Gemini `finishReason` (the `FinishReason` enum of @google/genai, each value as its doc comment
 * says). Left `other`, the raw value kept: IMAGE_OTHER and NO_IMAGE, which say no more.
 */
export const GEMINI_FINISH_REASONS: FinishReasons = {
  STOP: "stop",
  MAX_TOKENS: "length",
  // "the response reached the per-request token limit, but generation is not yet complete": cut
  // short as MAX_TOKENS is; its finish carries the `continuationToken` that goes on.
  CONTINUATION: "length",
  SAFETY: "content-filter",
  RECITATION: "content-filter",
  BLOCKLIST: "content-filter",
  PROHIBITED_CONTENT: "content-filter",
  SPII: "content-filter",
  IMAGE_SAFETY: "content-filter",
  IMAGE_PROHIBITED_CONTENT: "content-filter",
  IMAGE_RECITATION: "content-filter",
  MODEL_ARMOR: "content-filter", // Vertex AI
  LANGUAGE: "content-filter", // "flagged for using an unsupported language" (Gemini API only)
  ESCALATION: "content-filter", // "filtered by an escalation rule" (Gemini API only)
  MALFORMED_FUNCTION_CALL: "error",
  UNEXPECTED_TOOL_CALL: "error",
  MALFORMED_RESPONSE: "error",
  MISSING_THOUGHT_SIGNATURE: "error",
  // "the server-side tool loop stopped before the model returned a final answer": no answer.
  TOO_MANY_TOOL_CALLS: "error",
  // The account is limited or disabled (Prohibited Use Policy): nothing of this turn was filtered.
  PUP_LIMITED_DISABLED: "error",
};
