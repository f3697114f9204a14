import { providerKit, type Provider } from "./registry.ts";
import type { AssistantTurn, ToolResult } from "./turn.ts";

/**
 * The assistant turn for a provider's next request (an array of items for the Responses API; an
 * empty array for Anthropic, Bedrock, Cohere, Gemini and OpenAI Chat when the turn has nothing to send back,
 * as after a refusal before any output: each refuses an assistant message with nothing in it).
 *
 * @example
 * ```ts
 * const turn = assistantMessage(provider, finish); // finish: the stream's `finish` event
 * messages.push(...(Array.isArray(turn) ? turn : [turn]));
 * ```
 */
export function assistantMessage(
  provider: Provider,
  turn: AssistantTurn,
): Record<string, unknown> | Record<string, unknown>[] {
  return providerKit(provider).assistantMessage(turn);
}

/**
 * The tool results for a provider's next request (several messages or items where the provider
 * wants them; none when no result is left). A result of a call the provider ran itself
 * (`providerExecuted`: its result came in the turn) is left out: the provider refuses one of the
 * client's for it.
 *
 * @example
 * ```ts
 * const results = await Promise.all(finish.toolCalls.map(async (call) => ({ call, output: await run(call.name, call.arguments) })));
 * messages.push(...toolResultMessages(provider, results));
 * ```
 */
export function toolResultMessages(provider: Provider, results: readonly ToolResult[]): Record<string, unknown>[] {
  const own = results.filter((result) => !result.call.providerExecuted);
  return own.length === 0 ? [] : providerKit(provider).toolResultMessages(own);
}
