/**
 * One record per provider: everything the library knows of one provider's API, in both
 * directions. The registry maps every `Provider` name to one, so each dispatcher (the stage, the
 * tool definitions, the next turn's messages) is a lookup, and a provider without one of the
 * pieces does not compile: nothing falls back to another provider's shape.
 *
 * @module
 */
import type { ProviderDecoderStream, ProviderProtocol } from "./provider-decoder.ts";
import type { AssistantTurn, ToolResult } from "./turn.ts";

/** One tool as every provider's definition is made from it. */
export interface ToolEntry {
  /** The function name the model calls. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description?: string | undefined;
  /** The JSON Schema of the arguments. */
  readonly parameters: Record<string, unknown>;
  /**
   * The parameters are JSON Schema as written (a validator's JSON Schema, or a client's), not a
   * schema written for one provider's subset of it: a provider with such a subset (Gemini's
   * OpenAPI `parameters`) sends it where full JSON Schema is taken.
   */
  readonly jsonSchema?: boolean | undefined;
}

/**
 * A provider's kit: how its responses are read (its protocol and stage), and what a request to it
 * holds (its tool definitions, the field of its conversation, the assistant turn and the tool
 * results of the next request).
 *
 * @example
 * ```ts
 * const kit = providerKit("anthropic");
 * const body = { model, max_tokens: 1024, stream: true, messages, tools: kit.toolDefinitions([{ name: "get_weather", parameters: { type: "object" } }]) };
 * // after the response's finish event and the calls' results:
 * body[kit.conversationField].push(kit.assistantMessage(finish), ...kit.toolResultMessages(results));
 * ```
 */
export interface ProviderKit {
  /** The wire protocol of its responses: the framing of its bodies and its decoder. */
  readonly protocol: ProviderProtocol;
  /** Its stage (`new kit.DeltaStream()` reads framed messages into deltas). */
  readonly DeltaStream: new () => ProviderDecoderStream;
  /** The field of its request body that holds the conversation (`messages`, `contents`, `input`). */
  readonly conversationField: string;
  /** The tools as its request lists them. */
  toolDefinitions(tools: readonly ToolEntry[]): Record<string, unknown>[];
  /** The assistant turn of its next request: one message, or (Responses) several input items. */
  assistantMessage(turn: AssistantTurn): Record<string, unknown> | Record<string, unknown>[];
  /** The results of the turn's calls for its next request, as the messages or items it takes them in. */
  toolResultMessages(results: readonly ToolResult[]): Record<string, unknown>[];
}

/** The tool's name and, when it has one, its description: what every provider's definition starts with. */
export function namedTool(tool: ToolEntry): { name: string; description?: string } {
  return tool.description === undefined ? { name: tool.name } : { name: tool.name, description: tool.description };
}
