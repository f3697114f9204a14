import type { FinishReasons } from "../payload.ts";

/**
 * Gemini Interactions: the interaction's `status` at `interaction.completed`. `requires_action` is
 * a turn that ended on `function_call` steps the client must answer; `idle` (@google/genai 3.6.1,
 * which deprecates `REQUIRES_ACTION` for it) a turn that ended, on calls or not, so `stop`, which a
 * turn with calls to answer reports as `tool-calls`; `incomplete`, `budget_exceeded` and
 * `requires_continuation` ended at a limit (the last two can be continued: a
 * `requires_continuation` finish carries its `continuationToken`).
 */
export const GEMINI_INTERACTIONS_FINISH_REASONS: FinishReasons = {
  completed: "stop",
  idle: "stop",
  requires_action: "tool-calls",
  incomplete: "length",
  budget_exceeded: "length",
  requires_continuation: "length",
  failed: "error",
  cancelled: "other",
};
