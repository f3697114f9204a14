import type { FinishReasons } from "../payload.ts";

/**
 * Responses API `status`, and the `incomplete_details.reason` of an `incomplete` response (read
 * first: it says why the response stopped, and is the finish's raw reason). `max_messages`, a limit
 * that cut the response as `max_output_tokens` does, is `length`; a reason not listed is `other`, as
 * OpenAI's `steered` (the WebSocket mode's `response.steer` ended it at a safe output boundary, a
 * successor response going on with the user's input), which neither ran out nor finished.
 */
export const RESPONSES_FINISH_REASONS: FinishReasons = {
  completed: "stop",
  incomplete: "length",
  failed: "error",
  max_output_tokens: "length",
  max_messages: "length",
  content_filter: "content-filter",
};
