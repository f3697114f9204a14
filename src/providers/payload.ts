import type { ProviderDelta } from "../shared/deltas.ts";
import type { FinishReason } from "../shared/deltas.ts";
import { isRecord } from "../shared/values.ts";
import type { FramedMessage } from "../framing/framing.ts";
import type { Emit } from "./provider-decoder.ts";
import { parseJsonText } from "../shared/long-member-name.ts";

/**
 * Parses one message's data as a JSON object. Anything else is reported as an `error` delta
 * (`malformed-payload`, or `truncated-event` for a final event cut short) and the stream goes
 * on; the payload itself is never put in the message. A decoder that parsed `data` already
 * passes the value as `parsed`.
 */
export function readJsonObject(
  message: FramedMessage,
  emit: Emit,
  parsed: unknown = message.value,
): Record<string, unknown> | undefined {
  let payload = parsed;
  if (payload === undefined) {
    try {
      payload = parseJsonText(message.data);
    } catch {
      // Left undefined: reported below, as a truncated event when the body ended inside it.
    }
  }
  if (isRecord(payload)) return payload;
  emit({
    type: "error",
    // `undefined` only when the text did not parse: a complete value that is not an object is malformed, cut short or not.
    error:
      message.truncated && payload === undefined
        ? { code: "truncated-event", message: "The body ended inside a final event; its payload was dropped." }
        : { code: "malformed-payload", message: "A payload is not a JSON object; it was skipped." },
  });
  return undefined;
}

/**
 * A payload's event `type` (its own, or its SSE event's name), else `error` when it names none but
 * holds an `error`: an HTTP 200 whose body is a JSON error (OpenAI's or Google's shape, a gateway's
 * or the provider's) or a gateway's `data: {"error": ...}` inside a stream, the provider's error in
 * any protocol (Chat, Gemini and Ollama read their chunks' own `error`).
 */
export const eventType = (type: unknown, payload: Record<string, unknown>): unknown =>
  type ?? (payload["error"] == null ? type : "error");

/** The `error` delta of an error the provider reported in the stream, with its own error object as `data`. */
export function providerError(
  data: unknown,
  message = "The provider reported an error inside the stream.",
): ProviderDelta {
  return { type: "error", error: { code: "provider-error", message, data } };
}

/**
 * Finish reasons by raw value, one table per provider (in its folder) so that a single-provider
 * bundle holds only its own. Anything unlisted is `other`.
 */
export type FinishReasons = Record<string, FinishReason>;
