import type { ProviderKit } from "../provider-kit.ts";
import { OllamaDeltaStream } from "./ollama-delta-stream.ts";
import { ollamaAssistantMessage, ollamaToolMessages } from "./ollama-messages.ts";
import { ollamaProtocol } from "./ollama-protocol.ts";
import { ollamaToolDefinitions } from "./ollama-tools.ts";

/**
 * The kit of Ollama's native chat API: its protocol and stage, its tool definitions, and its next turn.
 *
 * @example
 * ```ts
 * const tools = ollamaKit.toolDefinitions([{ name: "get_weather", parameters: { type: "object" } }]);
 * ```
 */
export const ollamaKit: ProviderKit = {
  protocol: ollamaProtocol,
  DeltaStream: OllamaDeltaStream,
  conversationField: "messages",
  toolDefinitions: ollamaToolDefinitions,
  assistantMessage: ollamaAssistantMessage,
  toolResultMessages: ollamaToolMessages,
};
