import type { FinishReasons } from "../payload.ts";

/** Cohere v2 `message-end` `finish_reason` (and the v1 names some deployments still send). */
export const COHERE_FINISH_REASONS: FinishReasons = {
  COMPLETE: "stop",
  STOP_SEQUENCE: "stop",
  TOOL_CALL: "tool-calls",
  MAX_TOKENS: "length",
  ERROR: "error",
  ERROR_LIMIT: "length",
  ERROR_TOXIC: "content-filter",
  TIMEOUT: "error",
};
