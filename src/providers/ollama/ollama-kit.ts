import type { ProviderKit } from "../provider-kit.ts";
import { OLLAMA_FINISH_REASONS } from "./ollama-finish-reasons.ts";
import { OllamaDeltaStream } from "./ollama-delta-stream.ts";
import { ollamaAssistantMessage, ollamaToolMessages } from "./ollama-messages.ts";
import { ollamaProtocol } from "./ollama-protocol.ts";
import { ollamaRequestBody } from "./ollama-request.ts";
import { ollamaToolDefinitions } from "./ollama-tools.ts";

/**
 * The kit of Ollama's native chat API: its protocol and stage, the request body a server sends it,
 * its tool definitions, and its next turn.
 *
 * @example
 * ```ts
 * const tools = ollamaKit.toolDefinitions([{ name: "get_weather", parameters: { type: "object" } }]);
 * ```
 */
export const ollamaKit: ProviderKit = {
  protocol: ollamaProtocol,
  DeltaStream: OllamaDeltaStream,
  finishReasons: OLLAMA_FINISH_REASONS,
  conversationField: "messages",
  requestBody: ollamaRequestBody,
  toolDefinitions: ollamaToolDefinitions,
  assistantMessage: ollamaAssistantMessage,
  toolResultMessages: ollamaToolMessages,
};
