/**
 * Prompt caching as a request asks for it, for the providers that cache only what a request marks.
 *
 * @module
 */

/**
 * A `ProviderRequest`'s `promptCache`: the prompt caching the client asked for (its own
 * `cache_control` marks, an OpenAI client's `prompt_cache_key`). Anthropic, which caches only up to
 * a block marked `cache_control`, is sent marks on the system prompt and on the last message's last
 * block, so that the next turn reads the conversation so far from its cache; Claude and Amazon Nova
 * on Bedrock get Converse's `cachePoint` blocks at the same places. OpenAI and Gemini cache a
 * prompt's prefix on their own; the other providers are sent nothing.
 *
 * @example
 * ```ts
 * const request = { model: "claude-sonnet-4-6", messages: [], tools: [], promptCache: { type: "ephemeral", ttl: "1h" } };
 * ```
 */
export interface RequestPromptCache {
  /** The kind: Anthropic's only one. */
  readonly type: "ephemeral";
  /** How long the cache keeps the prefix: `5m` or `1h`; absent: the provider's default (5 minutes). */
  readonly ttl?: "5m" | "1h" | undefined;
}
