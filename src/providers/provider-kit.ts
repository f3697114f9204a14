/**
 * One record per provider: everything the library knows of one provider's API, in both
 * directions. The registry maps every `Provider` name to one, so each dispatcher (the stage, the
 * tool definitions, the next turn's messages) is a lookup, and a provider without one of the
 * pieces does not compile: nothing falls back to another provider's shape.
 *
 * @module
 */
import type { FinishReason } from "../shared/deltas.ts";
import type { DecoderLimits, ProviderDecoderStream, ProviderProtocol } from "./provider-decoder.ts";
import type { ProviderRequest } from "./request.ts";
import type { ToolEntry } from "./tool-entry.ts";
import type { AssistantTurn, ToolResult } from "./turn.ts";

/**
 * A provider's kit: how its responses are read (its protocol and stage), and what a request to it
 * holds (its body, its tool definitions, the field of its conversation, the assistant turn and
 * the tool results of the next request).
 *
 * @example
 * ```ts
 * const kit = providerKit("anthropic");
 * const body = kit.requestBody({ model, messages: [{ role: "user", content: "Weather in Oslo?" }], tools: [{ name: "get_weather", parameters: { type: "object" } }] });
 * // after the response's finish event and the calls' results, the next request:
 * const conversation = body[kit.conversationField] as unknown[];
 * const turn = kit.assistantMessage(finish);
 * conversation.push(...(Array.isArray(turn) ? turn : [turn]), ...kit.toolResultMessages(results));
 * ```
 */
export interface ProviderKit {
  /** The wire protocol of its responses: the framing of its bodies and its decoder. */
  readonly protocol: ProviderProtocol;
  /** Its stage (`new kit.DeltaStream(limits)` reads framed messages into deltas; `limits` as the accumulator's). */
  readonly DeltaStream: new (
    limits?: DecoderLimits,
  ) => ProviderDecoderStream;
  /** Its raw finish reasons, normalized (what `normalizeFinishReason` looks a raw value up in). */
  readonly finishReasons: Readonly<Record<string, FinishReason>>;
  /**
   * The body of a streaming request to it. The URL and the headers are the caller's (Gemini and
   * Bedrock take the model in the URL, not in the body). Throws a `ToolCallStreamError` of code
   * `invalid-request`, its `info.path` the field, for what the provider cannot be sent (an earlier
   * call without the id the provider correlates results by, a choice it cannot express).
   */
  requestBody(request: ProviderRequest): Record<string, unknown>;
  /** The field of its request body that holds the conversation (`messages`, `contents`, `input`). */
  readonly conversationField: string;
  /** The tools as its request lists them. */
  toolDefinitions(tools: readonly ToolEntry[]): Record<string, unknown>[];
  /** The assistant turn of its next request: one message, or (Responses) several input items. */
  assistantMessage(turn: AssistantTurn): Record<string, unknown> | Record<string, unknown>[];
  /** The results of the turn's calls for its next request, as the messages or items it takes them in. */
  toolResultMessages(results: readonly ToolResult[]): Record<string, unknown>[];
}

/**
 * A next turn's message, or no message (`[]`) when it holds nothing but its role (each other field
 * `null`, `""`, `[]` or absent): the rule of the kits whose provider refuses such a message
 * (Anthropic's and Converse's empty `content`, Gemini's empty `parts`, Chat Completions' message
 * with neither content nor calls, Cohere's with no content, calls or plan). A turn refused before
 * any output, or whose only calls another provider ran, is such a turn. The exported builders
 * (`anthropicAssistantMessage`, ...) give the message as it is.
 *
 * @example
 * ```ts
 * sentIfAny({ role: "assistant", content: [] }); // []
 * sentIfAny({ role: "assistant", content: null, reasoning_content: "Hmm." }); // the message
 * ```
 */
export const sentIfAny = (message: Record<string, unknown>): Record<string, unknown> | [] =>
  Object.entries(message).some(
    ([key, value]) => key !== "role" && value != null && value !== "" && !(Array.isArray(value) && value.length === 0),
  )
    ? message
    : [];
