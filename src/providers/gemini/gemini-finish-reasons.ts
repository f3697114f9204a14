import type { FinishReasons } from "../payload.ts";

/**
 * Gemini `finishReason` (the `FinishReason` enum of @google/genai). Left `other`, the raw value
 * kept: IMAGE_OTHER and NO_IMAGE, which say no more, and, for the bundle's size budget, LANGUAGE,
 * ESCALATION, PUP_LIMITED_DISABLED (Gemini API only), TOO_MANY_TOOL_CALLS and CONTINUATION.
 */
export const GEMINI_FINISH_REASONS: FinishReasons = {
  STOP: "stop",
  MAX_TOKENS: "length",
  SAFETY: "content-filter",
  RECITATION: "content-filter",
  BLOCKLIST: "content-filter",
  PROHIBITED_CONTENT: "content-filter",
  SPII: "content-filter",
  IMAGE_SAFETY: "content-filter",
  IMAGE_PROHIBITED_CONTENT: "content-filter",
  IMAGE_RECITATION: "content-filter",
  MODEL_ARMOR: "content-filter", // Vertex AI
  MALFORMED_FUNCTION_CALL: "error",
  UNEXPECTED_TOOL_CALL: "error",
  MALFORMED_RESPONSE: "error",
  MISSING_THOUGHT_SIGNATURE: "error",
};
