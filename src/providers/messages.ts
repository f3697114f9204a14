import { anthropicAssistantMessage, anthropicToolResultMessage } from "./anthropic/anthropic-messages.ts";
import { bedrockAssistantMessage, bedrockToolResultMessage } from "./bedrock/bedrock-messages.ts";
import { cohereAssistantMessage, cohereToolMessages } from "./cohere/cohere-messages.ts";
import { geminiFunctionResponseContent, geminiModelContent } from "./gemini/gemini-messages.ts";
import { ollamaAssistantMessage, ollamaToolMessages } from "./ollama/ollama-messages.ts";
import { openAIChatAssistantMessage, openAIChatToolMessages } from "./openai-chat/openai-chat-messages.ts";
import { responsesInputItems, responsesToolOutputs } from "./openai-responses/openai-responses-messages.ts";
import type { Provider } from "./registry.ts";
import type { AssistantTurn, ToolResult } from "./turn.ts";

/**
 * The assistant turn for a provider's next request (an array of items for the Responses API).
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
  if (provider === "anthropic") return anthropicAssistantMessage(turn);
  if (provider === "gemini") return geminiModelContent(turn);
  if (provider === "openai-responses") return responsesInputItems(turn);
  if (provider === "bedrock") return bedrockAssistantMessage(turn);
  if (provider === "cohere") return cohereAssistantMessage(turn);
  if (provider === "ollama") return ollamaAssistantMessage(turn);
  return openAIChatAssistantMessage(turn);
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
  if (provider === "anthropic") return [anthropicToolResultMessage(results)];
  if (provider === "gemini") return [geminiFunctionResponseContent(results)];
  if (provider === "openai-responses") return responsesToolOutputs(results);
  if (provider === "bedrock") return [bedrockToolResultMessage(results)];
  if (provider === "cohere") return cohereToolMessages(results);
  if (provider === "ollama") return ollamaToolMessages(results);
  return openAIChatToolMessages(results);
}
