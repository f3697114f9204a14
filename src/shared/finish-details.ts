/**
 * What a finish tells besides its reason: the code-execution container a response ran in, and
 * why the model refused.
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
}
