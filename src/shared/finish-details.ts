/**
 * What a finish tells besides its reason: the code-execution container a response ran in, why
 * the model refused, and the provider's moderation results (with the delta that carries them).
 *
 * @module
 */

/**
 * The code-execution container a response ran in (Anthropic's `container`): the next request names its id (`container`) to run in the same one, with its files and interpreter state.
 * @example
 * ```ts
 * if (event.type === "finish" && event.container) body.container = event.container.id;
 * ```
 */
export interface ExecutionContainer {
  /** The container's id, which the next request sends as `container`. */
  id: string;
  /** When the container expires (an ISO 8601 time, as the provider sent it). */
  expiresAt?: string;
}

/**
 * Why the provider's classifiers declined the request (Anthropic's `stop_details` of a `refusal`
 * stop): its policy area and a sentence for the user. The sentence is not stable text: show it,
 * never parse it. A finish whose `reason` is `content-filter` may come without it (Anthropic sends
 * `null` for a refusal that maps to no named category).
 *
 * @example
 * ```ts
 * if (event.type === "finish" && event.refusal?.explanation) showNotice(event.refusal.explanation);
 * ```
 */
export interface RefusalDetails {
  /** The policy area that triggered it (Anthropic's `cyber`, `bio`, `frontier_llm`, `reasoning_extraction`, `general_harms`), when it names one. */
  category?: string | undefined;
  /** A human-readable explanation of the refusal, when the provider gave one. */
  explanation?: string | undefined;
  /** The opaque token that refunds the cache-miss cost of retrying on the fallback model (Anthropic's beta `fallback_credit_token`): the retry sends it back; it expires in minutes. */
  fallbackCreditToken?: string | undefined;
  /** Whether that token may be redeemed by a retry that appends this turn's partial content as an assistant message (Anthropic's `fallback_has_prefill_claim`). */
  fallbackHasPrefillClaim?: boolean | undefined;
  /** The fallback model the server suggests retrying on directly, when it could not fall back itself (Anthropic's `recommended_model`). */
  recommendedModel?: string | undefined;
}

/**
 * What the provider's moderation model said of the request's input and of the answer, when the
 * request asked for it (OpenAI's `moderation: {model, policy}`, on Chat Completions and on the
 * Responses API alike): the provider's `moderation` object, verbatim. Kept for the app (to enforce
 * its own policy on the scores, or to learn why a `content-filter` finish blocked the answer) and
 * for the encoders of those two protocols to pass on (`tool-call-stream/encode`); no next turn
 * takes it back.
 *
 * @example
 * ```ts
 * if (event.type === "finish" && event.moderation) console.log(event.moderation.output);
 * // Chat: { type: "moderation_results", model, results: [{ type: "moderation_result", flagged, categories, category_scores, ... }] }
 * ```
 */
export interface ModerationResults {
  /**
   * Of the request's input: OpenAI Chat's `moderation_results` (its `model` and `results`), OpenAI
   * Responses' one `moderation_result` (`flagged`, `categories`, `category_scores`, ...), or an
   * `error` (`code`, `message`) when the moderation failed.
   */
  input?: unknown;
  /** Of the answer, as `input` is. */
  output?: unknown;
  /** Any other field the provider sent, as it came. */
  [field: string]: unknown;
}

/**
 * The provider's moderation results (OpenAI's Chat `moderation` chunk, a Responses response's
 * `moderation`); the latest one goes on the `finish` event's `moderation`.
 *
 * @example
 * ```ts
 * accumulator.push({ type: "moderation", moderation: { input, output } });
 * ```
 */
export interface ModerationDelta {
  /** The kind of delta: always `moderation`. */
  type: "moderation";
  /** The results, as the provider sent them. */
  moderation: ModerationResults;
}
