/**
 * Prompt caching on Bedrock's Converse: Claude and Amazon Nova cache a prompt up to a
 * `{cachePoint: {type: "default"}}` block (in `system`, in a message's content and, for Claude, in
 * `toolConfig.tools`). Every other model is refused one with a 400 ("You invoked an unsupported
 * model, or your request did not allow prompt caching"), and a request that worked before must not
 * become one: the points go only to the models Bedrock's user guide lists.
 *
 * @module
 */
import type { RequestPromptCache } from "../prompt-cache.ts";
import type { Fields } from "../request.ts";

// Bedrock's user guide, "Prompt caching for faster model inference", its supported models: Claude
// 3.5 Haiku, 3.7 Sonnet and the Claude 4 models (Sonnet, Opus, Haiku 4 to 4.6), Amazon Nova Micro,
// Lite, Pro and Premier; 4 points at most. The Claude models since (Opus 4.7 and 4.8, the 5 models,
// Fable, Mythos 5) too, as every Claude model from 3.7 on caches (review 76); not Mythos Preview
// nor Nova 2, which no list names; Claude 3.5 Sonnet v2 only for its preview's customers: none. A
// model id as Bedrock names it, after a cross-Region profile's prefix (`us.`, `global.`, GovCloud's
// `us-gov.`) or in an ARN; an application inference profile's ARN names no model: sent none.
const CACHING =
  /(?:^|\/)(?:[a-z]{2,6}(?:-[a-z]{3,4})?\.)?(?:anthropic\.claude-(?:3-5-haiku|3-7-sonnet|(?:sonnet|opus|haiku)-[4-9]|fable-|mythos-[5-9])|amazon\.nova-(?:micro|lite|pro|premier)-v1)/;
// `ttl: "1h"` on Claude Sonnet 4.5, Haiku 4.5 and Opus 4.5 (Bedrock's 1-hour cache, January 2026);
// another model keeps Bedrock's default (5 minutes) rather than risk a refused `ttl`.
const HOUR = /anthropic\.claude-(?:sonnet|haiku|opus)-4-5/;

/**
 * Adds to the Converse `body` of `model` the two cache points the Anthropic kit marks: after the
 * system prompt (the tools and system, read from the cache by every conversation) and after the
 * last message's last block (the next turn reads this whole one), not after Claude's thinking
 * (Bedrock puts Anthropic's mark on the block before the point, and Anthropic refuses it on thinking).
 * Nothing for a model that takes none.
 */
export function addCachePoints(body: Fields, model: string, cache: RequestPromptCache): void {
  if (!CACHING.test(model)) return;
  const point = { cachePoint: { type: "default", ...(cache.ttl === "1h" && HOUR.test(model) && { ttl: "1h" }) } };
  const system = body["system"] as Fields[] | undefined;
  if (system) system.push(point);
  const messages = body["messages"] as { content: Fields[] }[];
  const last = messages[messages.length - 1]?.content;
  const block = last?.[last.length - 1];
  if (block && !("reasoningContent" in block)) last!.push(point);
}
