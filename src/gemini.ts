/**
 * Gemini API and Vertex AI `streamGenerateContent` streams (SSE with `alt=sse`; without it, one
 * JSON array, read by `JsonArrayDecoderStream` in place of `SSEDecoderStream`), with the
 * provider-neutral stages re-exported so that one import line builds the chain (the rest is in `tool-call-
 * stream/core`). Nothing of the other providers is imported, so a bundle of this subpath leaves
 * them out.
 *
 * @example
 * ```ts
 * import { GeminiDeltaStream, SSEDecoderStream, ToolCallAccumulatorStream } from "tool-call-stream/gemini";
 *
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new GeminiDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * for await (const event of events) if (event.type === "tool-call") console.log(event.name, event.arguments);
 * ```
 *
 * @module
 */
export { GEMINI_KEPT_PARTS, GeminiDecoder, GeminiDeltaStream } from "./providers/gemini/gemini-delta-stream.ts";
export { GeminiGrounding } from "./providers/gemini/gemini-grounding.ts";
export { geminiFunctionResponseContent, geminiModelContent } from "./providers/gemini/gemini-messages.ts";
export { JsonArrayDecoder, JsonArrayDecoderStream } from "./framing/json-array-decoder-stream.ts";
export { SSEDecoderStream, ToolCallAccumulatorStream, type ToolCallEvent } from "./core.ts";
export {
  geminiToolCallBatches as streamToolCallBatches,
  geminiToolCalls as streamToolCalls,
  type ProtocolStreamToolCallBatches,
  type ProtocolStreamToolCalls,
} from "./pipeline/provider-stream-tool-calls.ts";
export type { ProtocolBatchOptions, ProtocolStreamOptions } from "./pipeline/tool-call-streams.ts";
