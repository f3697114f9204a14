import type { FinishDelta, ProviderDelta, ReasoningDelta, SSEMessage, TextDelta, ToolCallChunkDelta, ToolCallEndDelta } from "./types.ts";

/** Where a provider stage sends its normalized deltas. */
export type Emit = (delta: ProviderDelta) => void;

/**
 * Parses one SSE data payload as a JSON object. Anything else is reported as an `error` delta
 * (`malformed-payload`, or `truncated-event` for a final event cut short) and the stream goes
 * on; the payload itself is never put in the message.
 */
export function readJsonObject(message: SSEMessage, emit: Emit): Record<string, unknown> | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(message.data);
  } catch {
    // Left undefined: reported below, as a truncated event when the body ended inside it.
  }
  if (isRecord(payload)) return payload;
  emit({
    type: "error",
    // `undefined` only when the text did not parse: a complete value that is not an object is malformed, cut short or not.
    error: message.truncated && payload === undefined
      ? { code: "truncated-event", message: "The body ended inside a final event; its payload was dropped." }
      : { code: "malformed-payload", message: "An SSE payload is not a JSON object; it was skipped." },
  });
  return undefined;
}

/** The `error` delta of an error the provider reported in the stream, with its own error object as `data`. */
export function providerError(data: unknown, message = "The provider reported an error inside the stream."): ProviderDelta {
  return { type: "error", error: { code: "provider-error", message, data } };
}

/**
 * `table[key]` when `key` is one of the table's own keys: a provider value such as `constructor`
 * or `toString` must not find `Object.prototype`'s members in a lookup table.
 */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An array field, or an empty array when absent or not an array. */
export function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A string field, or `undefined` when absent, not a string, or empty. */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Builds a provider stage from a pure decoder, which sees each SSE message and emits normalized deltas. */
export function decoderTransformer(decode: (message: SSEMessage, emit: Emit) => void): Transformer<SSEMessage, ProviderDelta> {
  return {
    transform(message, controller) {
      decode(message, (delta) => controller.enqueue(delta));
    },
  };
}

/** The deltas that belong to one choice (candidate) of a response. */
export type ChoiceDelta = TextDelta | ReasoningDelta | ToolCallChunkDelta | ToolCallEndDelta | FinishDelta;

/** Sets `choice` on a new delta or event only when it is not the first, so single-choice ones stay lean. */
export function withChoice<T extends object>(delta: T, choice: number | undefined): T & { choice?: number } {
  if (choice) (delta as { choice?: number }).choice = choice;
  return delta;
}
