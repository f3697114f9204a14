/**
 * Anthropic Messages API streams (also through Vertex AI and Bedrock), with the two provider-
 * neutral stages re-exported so that one import line builds the chain (the rest is in `tool-call-
 * stream/core`). Nothing of the other providers is imported, so a bundle of this subpath leaves
 * them out.
 *
 * @example
 * ```ts
 * import { AnthropicDeltaStream, SSEDecoderStream, ToolCallAccumulatorStream } from "tool-call-stream/anthropic";
 *
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new AnthropicDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * for await (const event of events) if (event.type === "tool-call") console.log(event.name, event.arguments);
 * ```
 *
 * @module
 */
export { AnthropicDecoder, AnthropicDeltaStream } from "./providers/anthropic/anthropic-delta-stream.ts";
export { AnthropicCitingDecoder } from "./providers/anthropic/anthropic-protocol.ts";
export { anthropicAssistantMessage, anthropicToolResultMessage } from "./providers/anthropic/anthropic-messages.ts";
export { SSEDecoderStream, ToolCallAccumulatorStream, type ToolCallEvent } from "./core.ts";
export type { AnthropicClientTool } from "./providers/tool-entry.ts";
export {
  anthropicToolCallBatches as streamToolCallBatches,
  anthropicToolCalls as streamToolCalls,
  type ProtocolStreamToolCallBatches,
  type ProtocolStreamToolCalls,
} from "./pipeline/provider-stream-tool-calls.ts";
export type { ProtocolBatchOptions, ProtocolStreamOptions } from "./pipeline/tool-call-streams.ts";
