/**
 * Ollama's native chat streams (`/api/chat`, NDJSON), with its framing stage and the accumulator
 * re-exported so that one import line builds the chain (the rest is in `tool-call-stream/core`).
 * Ollama's OpenAI-compatible `/v1/chat/completions` reads through `tool-call-stream/openai`.
 * Nothing of the other providers is imported, so a bundle of this subpath leaves them out.
 *
 * @example
 * ```ts
 * import { NdjsonDecoderStream, OllamaDeltaStream, ToolCallAccumulatorStream } from "tool-call-stream/ollama";
 *
 * const events = response.body!
 *   .pipeThrough(new NdjsonDecoderStream())
 *   .pipeThrough(new OllamaDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * for await (const event of events) if (event.type === "tool-call") console.log(event.name, event.arguments);
 * ```
 *
 * @module
 */
export { NdjsonDecoder, NdjsonDecoderStream } from "./framing/ndjson-decoder-stream.ts";
export { OllamaDecoder, OllamaDeltaStream } from "./providers/ollama/ollama-delta-stream.ts";
export { ollamaAssistantMessage, ollamaToolMessages } from "./providers/ollama/ollama-messages.ts";
export { ToolCallAccumulatorStream } from "./accumulate/tool-call-accumulator-stream.ts";
export type { ToolCallEvent } from "./shared/events.ts";
export {
  ollamaToolCallBatches as streamToolCallBatches,
  ollamaToolCalls as streamToolCalls,
  type ProtocolStreamToolCallBatches,
  type ProtocolStreamToolCalls,
} from "./pipeline/provider-stream-tool-calls.ts";
export type { ProtocolBatchOptions, ProtocolStreamOptions } from "./pipeline/tool-call-streams.ts";
