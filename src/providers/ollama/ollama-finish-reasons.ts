import type { FinishReasons } from "../payload.ts";

/**
 * Ollama `done_reason` of the final `done: true` line. It never says the model called a tool: a
 * `stop` after calls becomes `tool-calls` in the finish event (the raw `stop` is kept).
 */
export const OLLAMA_FINISH_REASONS: FinishReasons = {
  stop: "stop",
  length: "length",
};
