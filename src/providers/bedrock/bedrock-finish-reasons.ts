import type { FinishReasons } from "../payload.ts";

/** Amazon Bedrock ConverseStream `messageStop.stopReason`. */
export const BEDROCK_FINISH_REASONS: FinishReasons = {
  end_turn: "stop",
  stop_sequence: "stop",
  tool_use: "tool-calls",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  guardrail_intervened: "content-filter",
  content_filtered: "content-filter",
  // The model's output, or a call's input, was not well formed: nothing to run.
  malformed_model_output: "error",
  malformed_tool_use: "error",
};
