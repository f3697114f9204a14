import { sentIfAny, type ProviderKit } from "../provider-kit.ts";
import { COHERE_FINISH_REASONS } from "./cohere-finish-reasons.ts";
import { CohereDeltaStream } from "./cohere-delta-stream.ts";
import { cohereAssistantMessage, cohereToolMessages } from "./cohere-messages.ts";
import { cohereProtocol } from "./cohere-protocol.ts";
import { cohereRequestBody } from "./cohere-request.ts";
import { cohereToolDefinitions } from "./cohere-tools.ts";

/**
 * The kit of Cohere v2 chat: its protocol and stage, the request body a server sends it,
 * its tool definitions, and its next turn.
 *
 * @example
 * ```ts
 * const tools = cohereKit.toolDefinitions([{ name: "get_weather", parameters: { type: "object" } }]);
 * ```
 */
export const cohereKit: ProviderKit = {
  protocol: cohereProtocol,
  DeltaStream: CohereDeltaStream,
  finishReasons: COHERE_FINISH_REASONS,
  conversationField: "messages",
  requestBody: cohereRequestBody,
  toolDefinitions: cohereToolDefinitions,
  // Cohere v2 refuses an assistant message with no content, tool_calls or tool_plan (a turn with
  // nothing: no text or call, its thinking alone): such a turn is left out, as its request kit and
  // OpenAI Chat's and Anthropic's leave it out.
  assistantMessage: (turn) => sentIfAny(cohereAssistantMessage(turn)),
  toolResultMessages: cohereToolMessages,
};
