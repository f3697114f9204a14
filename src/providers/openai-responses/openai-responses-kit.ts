import type { ProviderKit } from "../provider-kit.ts";
import { RESPONSES_FINISH_REASONS } from "./openai-responses-finish-reasons.ts";
import { OpenAIResponsesDeltaStream } from "./openai-responses-delta-stream.ts";
import { responsesInputItems, responsesToolOutputs } from "./openai-responses-messages.ts";
import { openAIResponsesProtocol } from "./openai-responses-protocol.ts";
import { openAIResponsesRequestBody } from "./openai-responses-request.ts";
import { openAIResponsesToolDefinitions } from "./openai-responses-tools.ts";

/**
 * The kit of the OpenAI Responses API: its protocol and stage, the request body a server sends it,
 * its tool definitions, and its next turn.
 *
 * @example
 * ```ts
 * const tools = openAIResponsesKit.toolDefinitions([{ name: "get_weather", parameters: { type: "object" } }]);
 * ```
 */
export const openAIResponsesKit: ProviderKit = {
  protocol: openAIResponsesProtocol,
  DeltaStream: OpenAIResponsesDeltaStream,
  finishReasons: RESPONSES_FINISH_REASONS,
  conversationField: "input",
  requestBody: openAIResponsesRequestBody,
  toolDefinitions: openAIResponsesToolDefinitions,
  assistantMessage: responsesInputItems,
  toolResultMessages: responsesToolOutputs,
};
