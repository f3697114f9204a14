import {
  ProtocolEncoderStream,
  type EncodableEvent,
  encoderStreamOptions,
  type ProtocolEncoderStreamOptions,
} from "./protocol-encoder.ts";
import { UIMessageEncoder } from "./ui-message-encoder.ts";
import { UI_OPTIONS, type UIMessageEncoderOptions } from "./ui-message-wire.ts";

/**
 * Events to the AI SDK's UI message stream, protocol v1: the body `useChat` (through
 * `DefaultChatTransport`) and `readUIMessageStream` of `ai` 5, 6 and 7 read. Put it after
 * `streamToolCalls`, `ToolRunnerStream` or `runToolLoop`, and answer with
 * {@link UI_MESSAGE_STREAM_HEADERS}. See {@link UIMessageEncoder} for what each event becomes.
 * Takes one event or an array of the events that are ready (one output chunk per array).
 *
 * @example
 * ```ts
 * const body = streamToolCalls(upstream, { provider: "openai", signal: request.signal })
 *   .pipeThrough(new UIMessageEncoderStream({ messageId: crypto.randomUUID() }));
 * return new Response(body, { headers: UI_MESSAGE_STREAM_HEADERS });
 * ```
 */
export class UIMessageEncoderStream extends ProtocolEncoderStream<EncodableEvent> {
  /** Creates the stage ({@link UIMessageEncoderOptions}, `joinDeltas`); an option it does not know is a `TypeError`. */
  constructor(options: UIMessageEncoderOptions & ProtocolEncoderStreamOptions = {}) {
    super(new UIMessageEncoder(encoderStreamOptions(options, UI_OPTIONS)), options);
  }
}
