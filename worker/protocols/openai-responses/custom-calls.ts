import type { EncodableEvent } from "../../../src/index.ts";
import { mapChunks } from "../../http/batch-map.ts";
import { CUSTOM_INPUT } from "./request.ts";

/**
 * The calls of `custom` tools, which the provider made as functions with one string parameter,
 * turned back into free-text calls (`inputFormat: "text"`), so the encoder writes them as
 * `custom_tool_call` items holding the text: their JSON fragments are not shown (the text is
 * whole at the call's end), and the completed call's input is that parameter's string. A call
 * whose arguments hold no such string stays a function call, as the model wrote it.
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
