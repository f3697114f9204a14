import { sentIfAny, type ProviderKit } from "../provider-kit.ts";
import { ANTHROPIC_FINISH_REASONS } from "./anthropic-finish-reasons.ts";
import { AnthropicDeltaStream } from "./anthropic-delta-stream.ts";
import { anthropicAssistantMessage, anthropicToolResultMessage } from "./anthropic-messages.ts";
import { anthropicProtocol } from "./anthropic-protocol.ts";
import { anthropicRequestBody } from "./anthropic-request.ts";
import { anthropicToolDefinitions } from "./anthropic-tools.ts";

/**
 * The kit of Anthropic Messages: its protocol and stage, the request body a server sends it,
 * its tool definitions, and its next turn.
 *
 * @example
 * ```ts
 * const tools = anthropicKit.toolDefinitions([{ name: "get_weather", parameters: { type: "object" } }]);
 * ```
 */
export const anthropicKit: ProviderKit = {
  protocol: anthropicProtocol,
  DeltaStream: AnthropicDeltaStream,
  finishReasons: ANTHROPIC_FINISH_REASONS,
  conversationField: "messages",
  requestBody: anthropicRequestBody,
  toolDefinitions: anthropicToolDefinitions,
  // Anthropic refuses an assistant message with empty content unless it is the final one (a turn
  // refused before any output has none): such a turn is left out.
  assistantMessage: (turn) => sentIfAny(anthropicAssistantMessage(turn)),
  toolResultMessages: (results) => [anthropicToolResultMessage(results)],
};
