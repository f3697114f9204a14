import { sentIfAny, type ProviderKit } from "../provider-kit.ts";
import { OPENAI_CHAT_FINISH_REASONS } from "./openai-chat-finish-reasons.ts";
import { OpenAIChatDeltaStream } from "./openai-chat-delta-stream.ts";
import { openAIChatAssistantMessage, openAIChatToolMessages } from "./openai-chat-messages.ts";
import { openAIChatProtocol } from "./openai-chat-protocol.ts";
import { openAIChatRequestBody } from "./openai-chat-request.ts";
import { openAIChatToolDefinitions } from "./openai-chat-tools.ts";

/**
 * The kit of OpenAI Chat Completions and every compatible server: its protocol and stage, the request body a server sends it,
 * its tool definitions, and its next turn.
 *
 * @example
 * ```ts
 * const tools = openAIChatKit.toolDefinitions([{ name: "get_weather", parameters: { type: "object" } }]);
 * ```
 */
export const openAIChatKit: ProviderKit = {
  protocol: openAIChatProtocol,
  // Made without options: its stage keeps nothing a limit bounds apart from the calls (the accumulator's).
  DeltaStream: OpenAIChatDeltaStream as new () => OpenAIChatDeltaStream,
  finishReasons: OPENAI_CHAT_FINISH_REASONS,
  conversationField: "messages",
  requestBody: openAIChatRequestBody,
  toolDefinitions: openAIChatToolDefinitions,
  // Chat Completions refuses an assistant message with neither content nor `tool_calls` (a turn
  // with nothing: no text, call, refusal or reasoning): such a turn is left out, as Anthropic's is.
  assistantMessage: (turn) => sentIfAny(openAIChatAssistantMessage(turn)),
  toolResultMessages: openAIChatToolMessages,
};
