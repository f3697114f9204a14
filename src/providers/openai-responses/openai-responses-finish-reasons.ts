import type { FinishReason } from "../../shared/deltas.ts";
import { isRecord } from "../../shared/values.ts";
import type { FinishReasons } from "../payload.ts";

/** Responses API `status` (an `incomplete` response says why in `incomplete_details`). */
export const RESPONSES_FINISH_REASONS: FinishReasons = {
  completed: "stop",
  incomplete: "length",
  failed: "error",
};

/**
 * Why an `incomplete` response stopped, from its `incomplete_details.reason`.
 *
 * @example
 * ```ts
 * incompleteReason({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }); // "length"
 * ```
 */
export function incompleteReason(response: Record<string, unknown>): FinishReason | undefined {
  const details = response["incomplete_details"];
  const reason = isRecord(details) ? details["reason"] : undefined;
  if (reason === "max_output_tokens") return "length";
  if (reason === "content_filter") return "content-filter";
  return undefined;
}
