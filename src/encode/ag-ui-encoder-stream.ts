import { AGUIEncoder } from "./ag-ui-encoder.ts";
import { AGUI_OPTIONS, type AGUIEncoderOptions } from "./ag-ui-wire.ts";
import {
  ProtocolEncoderStream,
  type EncodableEvent,
  encoderStreamOptions,
  type ProtocolEncoderStreamOptions,
} from "./protocol-encoder.ts";

/**
 * Events to AG-UI over Server-Sent Events: the body an AG-UI client (`HttpAgent` of
 * `@ag-ui/client`, CopilotKit) reads from an agent endpoint. Put it after `streamToolCalls`,
 * `ToolRunnerStream` or `runToolLoop` with the `threadId` and `runId` of the `RunAgentInput`.
 * See {@link AGUIEncoder} for what each event becomes. Takes one event or an array of the
 * events that are ready (one output chunk per array). The output closes right after `RUN_ERROR`,
 * and input after it cancels the input: a loop whose step a `length` stop cut inside a call (the run fails there,
 * the call never ended, though `ToolRunnerStream` answered it with a `tool-error` at once) calls
 * the model no more.
 *
 * @example
 * ```ts
 * const input = await request.json(); // RunAgentInput
 * const body = streamToolCalls(upstream, { provider: "anthropic", signal: request.signal })
 *   .pipeThrough(new AGUIEncoderStream({ threadId: input.threadId, runId: input.runId }));
 * return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
 * ```
 */
export class AGUIEncoderStream extends ProtocolEncoderStream<EncodableEvent> {
  /** Creates the stage ({@link AGUIEncoderOptions}, `joinDeltas`); an option it does not know is a `TypeError`. */
  constructor(options: AGUIEncoderOptions & ProtocolEncoderStreamOptions) {
    super(new AGUIEncoder(encoderStreamOptions(options, AGUI_OPTIONS)), options);
  }
}
