/**
 * A refusal's `stop_details` as the Messages encoders write it, from the finish's `refusal`.
 *
 * @module
 */
import type { RefusalDetails } from "../shared/finish-details.ts";

/**
 * A refusal's `stop_details` (the SDK's `RefusalStopDetails`, with the beta's fallback fields of
 * `BetaRefusalStopDetails` when the refusal had any): the finish's `refusal`, each field `null` when it has none.
 */
export interface AnthropicStopDetails {
  /** Always `refusal`. */
  type: "refusal";
  /** The policy area (`cyber`, `bio`, ...), or `null`. */
  category: string | null;
  /** A sentence to show the user, or `null`. */
  explanation: string | null;
  /** The token a retry on the fallback model sends back, or `null`. */
  fallback_credit_token?: string | null;
  /** Whether that token may be redeemed by appending this turn's partial content, or `null`. */
  fallback_has_prefill_claim?: boolean | null;
  /** The model the server suggests retrying on, or `null`. */
  recommended_model?: string | null;
}

/**
 * The `stop_details` of a `refusal` stop: the finish's `refusal` (Anthropic's, or another provider's
 * reasons put so), each field `null` where it has none, as Anthropic sends a refusal that names no
 * category, and the beta's fallback fields when the refusal carries any; `null` when the finish
 * says nothing of why.
 *
 * @example
 * ```ts
 * anthropicStopDetails({ category: "cyber" }); // { type: "refusal", category: "cyber", explanation: null }
 * ```
 */
export function anthropicStopDetails(refusal: RefusalDetails | undefined): AnthropicStopDetails | null {
  if (!refusal) return null;
  const {
    category,
    explanation,
    fallbackCreditToken: token,
    fallbackHasPrefillClaim: claim,
    recommendedModel: model,
  } = refusal;
  const details: AnthropicStopDetails = {
    type: "refusal",
    category: category ?? null,
    explanation: explanation ?? null,
  };
  // The beta's three fields come together (BetaRefusalStopDetails has each, nullable), only when one was sent.
  return [token, claim, model].some((value) => value !== undefined)
    ? {
        ...details,
        fallback_credit_token: token ?? null,
        fallback_has_prefill_claim: claim ?? null,
        recommended_model: model ?? null,
      }
    : details;
}
