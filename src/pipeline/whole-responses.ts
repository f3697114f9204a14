import { AwsEventStreamDecoder } from "../framing/aws-event-stream-decoder-stream.ts";
import type { FramedMessage, FramingClass } from "../framing/framing.ts";
import { JsonArrayDecoder } from "../framing/json-array-decoder-stream.ts";
import { ChoosingFraming } from "../framing/text-framing.ts";
import { anthropicMessageEvents } from "../providers/anthropic/anthropic-whole-message.ts";
import { converseEvents } from "../providers/bedrock/bedrock-whole-response.ts";
import { cohereResponseEvents } from "../providers/cohere/cohere-whole-response.ts";
import { responsesEvents } from "../providers/openai-responses/openai-responses-whole-response.ts";
import type { ProviderDecoder, ProviderProtocol } from "../providers/provider-decoder.ts";
import { isRecord, ownValue } from "../shared/values.ts";
import { parseJsonText } from "../shared/long-member-name.ts";

/** The stream events of a protocol's whole response, or `undefined` for a payload that is none. */
type WholeEvents = (payload: Record<string, unknown>) => Record<string, unknown>[] | undefined;

/** Each protocol whose whole (non-streamed) response is not one of its stream's events, by name. */
const WHOLE: Record<string, WholeEvents> = {
  anthropic: anthropicMessageEvents,
  "openai-responses": responsesEvents,
  cohere: cohereResponseEvents,
  bedrock: converseEvents,
};

/**
 * Any of the SSE protocols': the protocol is told from the events (their shapes are apart:
 * `type: "message"`, `object: "response"`, a `message` beside a `finish_reason`). Not Converse's,
 * whose events only the event stream's headers tell: Bedrock's is read with the `provider` option.
 */
const ANY: WholeEvents = (payload) =>
  anthropicMessageEvents(payload) ?? responsesEvents(payload) ?? cohereResponseEvents(payload);

/**
 * `protocol` reading a whole response, which the provider sends for a request without
 * `stream: true` (or that an OpenAI-compatible server answered whole), as the stream it stands
 * for: its first message, when it is such a response (Anthropic's `Message`, OpenAI Responses'
 * `Response`, Cohere v2's `ChatResponse`, Bedrock's `ConverseResponse`, which Bedrock's framing
 * here reads as one message: {@link wholeFraming}), is given to the decoder as the events that stream the
 * same answer, so its calls, text, reasoning, kept blocks, finish and usage are the stream's. Any
 * other first message, and every later one, is passed on as it came. What the main entry's
 * `streamToolCalls` reads with (the detecting protocol tries the three SSE ones); the provider subpaths'
 * `streamToolCalls` do not (their bundles' budgets). Gemini's and Ollama's whole responses are
 * one of their stream's chunks already. Not exported by the package.
 *
 * @example
 * ```ts
 * const protocol = withWholeResponses(providerProtocol("anthropic"));
 * ```
 */
export function withWholeResponses(protocol: ProviderProtocol): ProviderProtocol {
  const eventsOf = protocol.name === "detected" ? ANY : ownValue(WHOLE, protocol.name);
  if (!eventsOf) return protocol;
  return {
    ...protocol,
    createDecoder: (emit, limits) => {
      const decoder = protocol.createDecoder(emit, limits);
      const reading: ProviderDecoder = {
        decode: (message) => {
          // An empty message (a framing's own cue) tells nothing.
          if (message.data === "" && message.value === undefined) return decoder.decode(message);
          // Only the body's first message can be a whole response: the later ones go straight on.
          reading.decode = (next) => decoder.decode(next);
          // A named SSE event is a stream's.
          const payload = message.event === undefined ? parsed(message) : undefined;
          const events = isRecord(payload) ? eventsOf(payload) : undefined;
          // Any other message goes on with the payload parsed here: the detection and the decoder parse its text no more.
          if (!events)
            return decoder.decode(
              payload === message.value || payload === undefined ? message : { ...message, value: payload },
            );
          for (const value of events) decoder.decode({ data: "", value, jsonText: message.jsonText });
        },
        end: (fault) => decoder.end(fault),
      };
      return reading;
    },
  };
}

/** A message's payload: an SDK's object, else its text parsed; `undefined` when that is not JSON or cut short. */
function parsed(message: FramedMessage): unknown {
  // A last NDJSON line without its newline is `truncated`, yet whole when it parses.
  if (message.value !== undefined) return message.value;
  try {
    return parseJsonText(message.data);
  } catch {
    // Not JSON, or cut short: the decoder reports it.
    return undefined;
  }
}

/**
 * Bedrock's framing in the main entry: the AWS event stream, or, when the first byte is `{` (the
 * top byte of an event-stream message's length, which no message of a limit under 2 GB has), a
 * whole Converse response, read as one message by the JSON array framing.
 */
class EventStreamOrWholeFraming extends ChoosingFraming {
  /** `{` is a whole response, anything else the event stream. */
  protected detect(_contentType: string | undefined, firstByte: number): FramingClass {
    return firstByte === 0x7b ? JsonArrayDecoder : AwsEventStreamDecoder;
  }
}

/**
 * The main entry's framing for a built-in protocol's own (not SSE) framing: Bedrock's event stream
 * or a whole Converse response ({@link EventStreamOrWholeFraming}); any other as it is.
 *
 * @example
 * ```ts
 * const framing = wholeFraming(bedrockProtocol.framing!);
 * ```
 */
export const wholeFraming = (framing: FramingClass): FramingClass =>
  framing === AwsEventStreamDecoder ? EventStreamOrWholeFraming : framing;
