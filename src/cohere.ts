/**
 * Cohere v2 chat streams (`/v2/chat`, Server-Sent Events), with the two provider-neutral stages
 * re-exported so that one import line builds the chain (the rest is in `tool-call-stream/core`).
 * Nothing of the other providers is imported, so a bundle of this subpath leaves them out.
 *
 * @example
 * ```ts
 * import { CohereDeltaStream, SSEDecoderStream, ToolCallAccumulatorStream } from "tool-call-stream/cohere";
 *
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new CohereDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * for await (const event of events) if (event.type === "tool-call") console.log(event.name, event.arguments);
 * ```
 *
 * @module
 */
export { CohereDecoder, CohereDeltaStream } from "./providers/cohere/cohere-delta-stream.ts";
export { cohereAssistantMessage, cohereToolMessages } from "./providers/cohere/cohere-messages.ts";
export { SSEDecoderStream, ToolCallAccumulatorStream, type ToolCallEvent } from "./core.ts";
export {
  cohereToolCallBatches as streamToolCallBatches,
  cohereToolCalls as streamToolCalls,
  type ProtocolStreamToolCallBatches,
  type ProtocolStreamToolCalls,
} from "./pipeline/provider-stream-tool-calls.ts";
export type { ProtocolBatchOptions, ProtocolStreamOptions } from "./pipeline/tool-call-streams.ts";
