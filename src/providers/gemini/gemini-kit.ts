import { sentIfAny, type ProviderKit } from "../provider-kit.ts";
import { GEMINI_FINISH_REASONS } from "./gemini-finish-reasons.ts";
import { GeminiDeltaStream } from "./gemini-delta-stream.ts";
import { geminiModelContent, geminiFunctionResponseContent } from "./gemini-messages.ts";
import { geminiProtocol } from "./gemini-protocol.ts";
import { geminiRequestBody } from "./gemini-request.ts";
import { geminiToolDefinitions } from "./gemini-tools.ts";

/**
 * The kit of Gemini and Vertex AI: its protocol and stage, the request body a server sends it,
 * its tool definitions, and its next turn.
 *
 * @example
 * ```ts
 * const tools = geminiKit.toolDefinitions([{ name: "get_weather", parameters: { type: "object" } }]);
 * ```
 */
export const geminiKit: ProviderKit = {
  protocol: geminiProtocol,
  DeltaStream: GeminiDeltaStream,
  finishReasons: GEMINI_FINISH_REASONS,
  conversationField: "contents",
  requestBody: geminiRequestBody,
  toolDefinitions: geminiToolDefinitions,
  // Gemini refuses a content with no parts ("contents.parts must not be empty"): a turn with
  // nothing to send back (a MALFORMED_FUNCTION_CALL or a blocked answer) is left out.
  assistantMessage: (turn) => sentIfAny(geminiModelContent(turn)),
  toolResultMessages: (results) => [geminiFunctionResponseContent(results)],
};
