import type { FinishReasons } from "../payload.ts";

/** Anthropic `stop_reason` (also sent by some OpenAI-compatible gateways in front of Claude). */
export const ANTHROPIC_FINISH_REASONS: FinishReasons = {
  end_turn: "stop",
  stop_sequence: "stop",
  tool_use: "tool-calls",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  refusal: "content-filter",
  // A server tool's long turn, paused: sent back as it is, the turn continues; so does a turn that
  // paused after its compaction block (context management's `pause_after_compaction`).
  pause_turn: "pause",
  compaction: "pause",
};
