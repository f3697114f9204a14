/**
 * Gemini Interactions API streams (`POST /v1beta/interactions` with `stream: true`: `step.*` and
 * `interaction.*` events, and the legacy `content.*` spelling), with the provider-neutral stages
 * re-exported so that one import line builds the chain (the rest is in `tool-call-stream/core`).
 * Nothing of the other providers is imported, so a bundle of this subpath leaves them out.
 *
 * @example
 * ```ts
 * import { GeminiInteractionsDeltaStream, SSEDecoderStream, ToolCallAccumulatorStream } from "tool-call-stream/gemini-interactions";
 *
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new GeminiInteractionsDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * for await (const event of events) if (event.type === "tool-call") console.log(event.name, event.arguments);
 * ```
 *
 * @module
 */
export { InteractionsCitations } from "./providers/gemini-interactions/gemini-interactions-citations.ts";
export {
  GeminiInteractionsDecoder,
  GeminiInteractionsDeltaStream,
} from "./providers/gemini-interactions/gemini-interactions-delta-stream.ts";
export type { InteractionsEventListener } from "./providers/gemini-interactions/gemini-interactions-steps.ts";
export {
  geminiInteractionsResults,
  geminiInteractionsSteps,
} from "./providers/gemini-interactions/gemini-interactions-messages.ts";
export type { GeminiInteractionsResumePoint } from "./providers/gemini-interactions/gemini-interactions-event-cursor.ts";
export {
  geminiInteractionsResumeUrl,
  geminiInteractionsResumingBody,
  type GeminiInteractionsBody,
  type GeminiInteractionsResumeOptions,
} from "./providers/gemini-interactions/gemini-interactions-resume.ts";
export { SSEDecoderStream, ToolCallAccumulatorStream, type ToolCallEvent } from "./core.ts";
export {
  geminiInteractionsToolCallBatches as streamToolCallBatches,
  geminiInteractionsToolCalls as streamToolCalls,
  type ProtocolStreamToolCallBatches,
  type ProtocolStreamToolCalls,
} from "./pipeline/provider-stream-tool-calls.ts";
export type { ProtocolBatchOptions, ProtocolStreamOptions } from "./pipeline/tool-call-streams.ts";
