import type { FramedMessage } from "../../framing/framing.ts";

/**
 * The message of one event the AWS SDK yields from a ConverseStream (`ConverseStreamCommand`'s
 * `output.stream`): an object of one member named after the event type (`contentBlockDelta`,
 * `messageStop`, ... or an exception member such as `throttlingException`), whose value is the
 * payload the event stream carries. Exception members become exception messages, as on the wire.
 */
export function bedrockMessageOf(value: unknown): FramedMessage {
  if (typeof value === "object" && value !== null) {
    for (const name in value) {
      if (name === "$unknown") continue;
      const payload = (value as Record<string, unknown>)[name];
      if (payload === undefined) continue;
      if (name.endsWith("Exception")) {
        return {
          event: name,
          data: "",
          value: payload,
          headers: { ":message-type": "exception", ":exception-type": name },
        };
      }
      return { event: name, data: "", value: payload };
    }
  }
  return { data: "", value };
}
