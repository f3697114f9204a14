import type { FinishDelta, Usage } from "../../shared/deltas.ts";
import type { ExecutionContainer, RefusalDetails } from "../../shared/finish-details.ts";
import { arrayOf, isRecord, nonEmptyString, ownValue } from "../../shared/values.ts";
import { readUsage } from "../usage.ts";
import { ANTHROPIC_FINISH_REASONS } from "./anthropic-finish-reasons.ts";

/**
 * The finish delta of `stop` (a `message_delta`'s `delta`, or a continuation's `message_start`
 * message), undefined while its `stop_reason` is none: its reason, with the message's
 * code-execution container when it named one, the `stop_sequence` it stopped at (a string of the
 * request's, else `null`), and a refusal's `stop_details` (`{ type: "refusal", category,
 * explanation }`, each `null` when the refusal maps to no named category, and the beta's
 * `fallback_credit_token`, `fallback_has_prefill_claim`, `recommended_model` when set) as its
 * `refusal`, a `null` left undefined. A `stop_details` of another `type` is left for a later version to read.
 *
 * @example
 * ```ts
 * anthropicFinish({ stop_reason: "tool_use" }, { id: "container_011" }); // { type: "finish", rawReason: "tool_use", reason: "tool-calls", container: { id: "container_011" } }
 * anthropicFinish({ stop_reason: "stop_sequence", stop_sequence: "END" }); // { ..., reason: "stop", stopSequence: "END" }
 * anthropicFinish({ stop_reason: "refusal", stop_details: { type: "refusal", category: "cyber", explanation: null } });
 * // { ..., reason: "content-filter", refusal: { category: "cyber", explanation: undefined } }
 * ```
 */
export function anthropicFinish(
  stop: Record<string, unknown>,
  container?: ExecutionContainer,
): FinishDelta | undefined {
  const reason = stop["stop_reason"];
  if (typeof reason !== "string") return undefined;
  const finish: FinishDelta = {
    type: "finish",
    rawReason: reason,
    reason: ownValue(ANTHROPIC_FINISH_REASONS, reason) ?? "other",
  };
  if (container) finish.container = container;
  const sequence = nonEmptyString(stop["stop_sequence"]);
  if (sequence) finish.stopSequence = sequence;
  // A RefusalStopDetails, else null; one of another `type` (a later kind) is not a refusal's.
  const details = stop["stop_details"] as Record<string, unknown> | null | undefined;
  if (details?.["type"] === "refusal") {
    const refusal: RefusalDetails = (finish.refusal = {
      category: nonEmptyString(details["category"]),
      explanation: nonEmptyString(details["explanation"]),
    });
    // The beta's fallback fields (BetaRefusalStopDetails), kept when set: the retry on the fallback model needs them.
    const token = nonEmptyString(details["fallback_credit_token"]);
    const claim = details["fallback_has_prefill_claim"];
    const model = nonEmptyString(details["recommended_model"]);
    if (token) refusal.fallbackCreditToken = token;
    if (typeof claim === "boolean") refusal.fallbackHasPrefillClaim = claim;
    if (model) refusal.recommendedModel = model;
  }
  return finish;
}

/**
 * The code-execution container of a message (`message_start.message.container`, or
 * `message_delta.delta.container`, which the SDK's accumulator lets replace the start's when it is
 * not null): its `id` and `expires_at`, or undefined for `null`, an absent field or one without an
 * id. The `skills` loaded in it are not kept: the next request names the container by its id.
 *
 * @example
 * ```ts
 * anthropicContainer({ id: "container_011", expires_at: "2026-12-02T15:00:00Z", skills: null });
 * // { id: "container_011", expiresAt: "2026-12-02T15:00:00Z" }
 * ```
 */
export function anthropicContainer(value: unknown): ExecutionContainer | undefined {
  if (!isRecord(value)) return undefined;
  const id = nonEmptyString(value["id"]);
  if (!id) return undefined;
  const expiresAt = nonEmptyString(value["expires_at"]);
  return { id, ...(expiresAt && { expiresAt }) };
}

/**
 * Anthropic usage: input and output tokens (the total is their sum), cache reads and writes apart,
 * the thinking tokens of the output (`output_tokens_details.thinking_tokens`) as its reasoning.
 * A compaction's own sampling, billed but left out of the top-level counts (a `compaction` entry of
 * `iterations`), is counted in; an advisor's (`advisor_message`, billed at its own model's rates)
 * stays in `raw` only, as do the `message` entries the top level already counts.
 *
 * @example
 * ```ts
 * anthropicUsage({ input_tokens: 12, output_tokens: 3 }); // { inputTokens: 12, outputTokens: 3, totalTokens: 15 }
 * ```
 */
export function anthropicUsage(raw: Record<string, unknown>): Usage {
  const counts = { ...raw };
  // An entry's numbers are its counts, of the same names as the top level's.
  for (const entry of arrayOf(raw["iterations"]) as (Record<string, unknown> | null)[])
    if (entry?.["type"] === "compaction")
      for (const key in entry)
        if (typeof entry[key] === "number") counts[key] = ((counts[key] as number) || 0) + (entry[key] as number);
  const usage = readUsage(counts, ["input_tokens"], ["output_tokens"], [], {
    cacheRead: ["cache_read_input_tokens"],
    cacheWrite: ["cache_creation_input_tokens"],
    reasoning: ["output_tokens_details.thinking_tokens"],
    cacheApart: true,
  })!;
  usage.raw = raw;
  return usage;
}
