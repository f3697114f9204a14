/**
 * A Messages client's prompt caching: its `cache_control` marks (Claude Code marks its system
 * prompt and its last messages; `@anthropic-ai/sdk` 1.12 also takes one at the top level, which
 * Anthropic applies to the last block). The Worker's request has one text per message, so the
 * marks cannot travel where they were: a request with any is sent to Anthropic with marks of its
 * own (the library's `promptCache`: the system prompt and the last block), at the longest `ttl`
 * asked for. A mark that is no `{type: "ephemeral"}` object is ignored, as before: never a 400.
 *
 * @module
 */
import type { RequestPromptCache } from "../../../src/core.ts";
import { isObject, own } from "../../request/json-fields.ts";

/** The prompt caching the Messages body `fields` asks for, or undefined when it marks nothing. */
export function promptCacheOf(fields: Record<string, unknown>): RequestPromptCache | undefined {
  let marked: RequestPromptCache | undefined;
  const take = (holder: unknown): void => {
    const mark = isObject(holder) ? own(holder, "cache_control") : undefined;
    if (!isObject(mark) || own(mark, "type") !== "ephemeral") return;
    if (own(mark, "ttl") === "1h") marked = { type: "ephemeral", ttl: "1h" };
    else marked ??= { type: "ephemeral" };
  };
  take(fields);
  eachBlock(own(fields, "system"), take);
  eachBlock(own(fields, "tools"), take);
  const messages = own(fields, "messages");
  if (Array.isArray(messages))
    for (const message of messages) eachBlock(isObject(message) ? own(message, "content") : undefined, take);
  return marked;
}

/** Calls `take` with each entry of `list` when it is an array. */
function eachBlock(list: unknown, take: (block: unknown) => void): void {
  if (Array.isArray(list)) for (const block of list) take(block);
}
