import type { FinishReasons } from "../payload.ts";

/**
 * Responses API `status`, and the `incomplete_details.reason` of an `incomplete` response (read
 * first: it says why the response stopped).
 */
export const RESPONSES_FINISH_REASONS: FinishReasons = {
  completed: "stop",
  incomplete: "length",
  failed: "error",
  max_output_tokens: "length",
  content_filter: "content-filter",
};
