import type { FinishReasons } from "../payload.ts";

/** Responses API `status` (an `incomplete` response says why in `incomplete_details`). */
export const RESPONSES_FINISH_REASONS: FinishReasons = {
  completed: "stop",
  incomplete: "length",
  failed: "error",
};
