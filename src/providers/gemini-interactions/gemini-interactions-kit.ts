import type { ProviderKit } from "../provider-kit.ts";
import { GEMINI_INTERACTIONS_FINISH_REASONS } from "./gemini-interactions-finish-reasons.ts";
import { GeminiInteractionsDeltaStream } from "./gemini-interactions-delta-stream.ts";
import { geminiInteractionsResults, geminiInteractionsSteps } from "./gemini-interactions-messages.ts";
import { geminiInteractionsProtocol } from "./gemini-interactions-protocol.ts";
import { geminiInteractionsRequestBody } from "./gemini-interactions-request.ts";
import { geminiInteractionsToolDefinitions } from "./gemini-interactions-tools.ts";

/**
 * The kit of Gemini's Interactions API: its protocol and stage, the request body a server sends
 * it, its tool definitions, and its next turn (steps in `input`).
 *
 * @example
 * ```ts
 * const tools = geminiInteractionsKit.toolDefinitions([{ name: "get_weather", parameters: { type: "object" } }]);
 * ```
 */
export const geminiInteractionsKit: ProviderKit = {
  protocol: geminiInteractionsProtocol,
  DeltaStream: GeminiInteractionsDeltaStream,
  finishReasons: GEMINI_INTERACTIONS_FINISH_REASONS,
  conversationField: "input",
  requestBody: geminiInteractionsRequestBody,
  toolDefinitions: geminiInteractionsToolDefinitions,
  assistantMessage: geminiInteractionsSteps,
  toolResultMessages: geminiInteractionsResults,
};
