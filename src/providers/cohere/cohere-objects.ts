import type { FramedMessage } from "../../framing/framing.ts";

/**
 * The message of one event `cohere-ai` yields from `v2.chatStream`: the SDK renames the wire's
 * snake_case fields to camelCase (`toolCalls`, `finishReason`, `billedUnits`), so the names are
 * turned back into the wire's before the decoder reads them. Values (arguments are JSON text) are
 * left as they are.
 */
export function cohereMessageOf(value: unknown): FramedMessage {
  return { data: "", value: snakeKeys(value) };
}

/** A copy of `value` whose object keys are snake_case (`toolCalls` -> `tool_calls`). */
function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)] = snakeKeys(item);
  }
  return copy;
}
