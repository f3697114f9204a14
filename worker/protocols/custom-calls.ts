/**
 * OpenAI's `custom` tools (free text, such as Codex's `apply_patch`; on `/v1/responses` and
 * `/v1/chat/completions`) carried to every provider: none but OpenAI has them, and the Worker sends
 * each as a function of one string parameter, {@link CUSTOM_INPUT} (OpenAI too: a grammar, Lark or
 * a regex, is one no other provider enforces, so the text is never held to it). A call of one comes
 * back as a free-text call ({@link customCalls}), which each encoder writes as its protocol's
 * custom call; a custom call a client sends back goes to the provider as that function's call.
 *
 * @module
 */
import type { EncodableEvent, JsonValue } from "../../src/index.ts";
import { mapChunks } from "../http/batch-map.ts";

/** The parameter a `custom` tool's free text travels in, for providers that only have function tools. */
const CUSTOM_INPUT = "input";

/** A custom tool's parameters as the provider is sent them: one required string, the text. */
export function customParameters(): Record<string, unknown> {
  return {
    type: "object",
    properties: { [CUSTOM_INPUT]: { type: "string", description: "The tool's input, as free text." } },
    required: [CUSTOM_INPUT],
  };
}

/** A custom call's text as the arguments of the function the provider knows. */
export const customArguments = (input: string): JsonValue => ({ [CUSTOM_INPUT]: input });

/**
 * The calls of `custom` tools, which the provider made as functions with one string parameter,
 * turned back into free-text calls (`inputFormat: "text"`), so the encoder writes them as custom
 * calls holding the text (Responses' `custom_tool_call` items, Chat's `type: "custom"` calls):
 * their JSON fragments are not shown (the text is whole at the call's end), and the completed
 * call's input is that parameter's string. A call whose arguments hold no such string (`{}`) still
 * ends as the custom call its start announced (an encoder writes a call's kind at its start): its
 * input is the JSON text the model wrote, which the client's tool refuses as any bad input.
 */
export function customCalls(
  batches: ReadableStream<readonly EncodableEvent[]>,
  customTools: ReadonlySet<string>,
): ReadableStream<readonly EncodableEvent[]> {
  if (customTools.size === 0) return batches;
  const custom = new Set<string>();
  return mapChunks(batches, (batch): readonly EncodableEvent[] =>
    batch.flatMap((event) => rewrite(event, customTools, custom)),
  );
}

/** A call's key in a response: its choice and index, as the accumulator gives them. */
const callKey = (event: { index: number; choice?: number }): string => `${event.choice ?? 0}:${event.index}`;

function rewrite(event: EncodableEvent, customTools: ReadonlySet<string>, custom: Set<string>): EncodableEvent[] {
  if (event.type === "tool-call-start" && customTools.has(event.name) && event.inputFormat !== "text") {
    custom.add(callKey(event));
    return [{ ...event, inputFormat: "text" }];
  }
  if (event.type === "tool-call-delta" && custom.has(callKey(event))) return [];
  if (event.type === "tool-call" && customTools.has(event.name) && event.inputFormat !== "text") {
    const input =
      typeof event.arguments === "object" && event.arguments !== null && !Array.isArray(event.arguments)
        ? (event.arguments as Record<string, unknown>)[CUSTOM_INPUT]
        : undefined;
    if (typeof input === "string") return [{ ...event, inputFormat: "text", arguments: input, rawArguments: input }];
  }
  return [event];
}
