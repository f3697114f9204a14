/**
 * OpenAI Chat Completions and every compatible vendor (Azure, DeepSeek, Groq, xAI, Mistral,
 * Qwen/DashScope, OpenRouter, Ollama, vLLM, LM Studio, ...), with the two provider-neutral stages
 * re-exported so that one import line builds the chain (the rest is in `tool-call-stream/core`).
 * Nothing of the other providers is imported, so a bundle of this subpath leaves them out.
 *
 * @example
 * ```ts
 * import { OpenAIChatDeltaStream, SSEDecoderStream, ToolCallAccumulatorStream } from "tool-call-stream/openai";
 *
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new OpenAIChatDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * for await (const event of events) if (event.type === "tool-call") console.log(event.name, event.arguments);
 * ```
 *
 * @module
 */
export { OpenAIChatDecoder, OpenAIChatDeltaStream } from "./providers/openai-chat/openai-chat-delta-stream.ts";
export type { OpenAIChatDecoderOptions } from "./providers/openai-chat/openai-chat-options.ts";
export { ChatCitations } from "./providers/openai-chat/openai-chat-citations.ts";
export { openAIChatAssistantMessage, openAIChatToolMessages } from "./providers/openai-chat/openai-chat-messages.ts";
export { SSEDecoderStream, ToolCallAccumulatorStream, type ToolCallEvent } from "./core.ts";
export {
  openAIChatToolCallBatches as streamToolCallBatches,
  openAIChatToolCalls as streamToolCalls,
  type OpenAIChatOptions,
  type ProtocolStreamToolCallBatches,
  type ProtocolStreamToolCalls,
} from "./pipeline/provider-stream-tool-calls.ts";
export type { ProtocolBatchOptions, ProtocolStreamOptions } from "./pipeline/tool-call-streams.ts";
