import { providerKit, type Provider } from "./registry.ts";
import type { AssistantTurn, ToolResult } from "./turn.ts";

/**
 * The assistant turn for a provider's next request (an array of items for the Responses API; an
 * empty array for Anthropic when the turn has nothing to send back, as after a refusal before any output).
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
 * The tool results for a provider's next request (several messages or items where the provider wants them).
 *
 * @example
 * ```ts
 * const results = await Promise.all(finish.toolCalls.map(async (call) => ({ call, output: await run(call.name, call.arguments) })));
 * messages.push(...toolResultMessages(provider, results));
 * ```
 */
export function toolResultMessages(provider: Provider, results: readonly ToolResult[]): Record<string, unknown>[] {
  return providerKit(provider).toolResultMessages(results);
}
