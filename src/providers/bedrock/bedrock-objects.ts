import type { FramedMessage } from "../../framing/framing.ts";
import { isRecord } from "../../shared/values.ts";

/**
 * The message of one event the AWS SDK yields from a ConverseStream (`ConverseStreamCommand`'s
 * `output.stream`): an object of one member named after the event type (`contentBlockDelta`,
 * `messageStop`, ... or an exception member such as `throttlingException`), whose value is the
 * payload the event stream carries. An exception member is read as the wire's exception message.
 * A redacted reasoning delta's `redactedContent`, a blob the SDK decodes to a `Uint8Array`, is
 * base64 again, as on the wire: the next turn sends it back (Claude refuses the turn without it).
 */
export function bedrockMessageOf(value: unknown): FramedMessage {
  if (isRecord(value))
    for (const name in value) {
      let payload = value[name] as { delta?: { reasoningContent?: { redactedContent?: unknown } } } | undefined;
      if (name === "$unknown" || payload === undefined) continue;
      const blob = payload.delta?.reasoningContent?.redactedContent;
      if (blob instanceof Uint8Array) {
        const redactedContent = btoa(Array.from(blob, (byte) => String.fromCharCode(byte)).join(""));
        payload = { ...payload, delta: { reasoningContent: { redactedContent } } };
      }
      return { event: name, data: "", value: payload };
    }
  return { data: "", value };
}
