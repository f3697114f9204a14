import { sentIfAny, type ProviderKit } from "../provider-kit.ts";
import { BEDROCK_FINISH_REASONS } from "./bedrock-finish-reasons.ts";
import { BedrockDeltaStream } from "./bedrock-delta-stream.ts";
import { bedrockAssistantMessage, bedrockToolResultMessage } from "./bedrock-messages.ts";
import { bedrockProtocol } from "./bedrock-protocol.ts";
import { bedrockRequestBody } from "./bedrock-request.ts";
import { bedrockToolDefinitions } from "./bedrock-tools.ts";

/**
 * The kit of Amazon Bedrock (Converse): its protocol and stage, the request body a server sends it,
 * its tool definitions, and its next turn.
 *
 * @example
 * ```ts
 * const tools = bedrockKit.toolDefinitions([{ name: "get_weather", parameters: { type: "object" } }]);
 * ```
 */
export const bedrockKit: ProviderKit = {
  protocol: bedrockProtocol,
  DeltaStream: BedrockDeltaStream,
  finishReasons: BEDROCK_FINISH_REASONS,
  conversationField: "messages",
  requestBody: bedrockRequestBody,
  toolDefinitions: bedrockToolDefinitions,
  // Converse, like Anthropic, refuses an assistant message with empty content (a turn whose only
  // call the provider ran, a refusal before any output): such a turn is left out.
  assistantMessage: (turn) => sentIfAny(bedrockAssistantMessage(turn)),
  toolResultMessages: (results) => [bedrockToolResultMessage(results)],
};
