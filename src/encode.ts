/**
 * Client protocols: encoders from the library's events (`streamToolCalls`, `ToolRunnerStream`,
 * `runToolLoop`) to the streams that existing clients read, so that a server answers them in
 * any provider's place:
 *
 * - {@link OpenAIChatEncoderStream}: OpenAI Chat Completions `chat.completion.chunk` frames
 *   (every OpenAI SDK, LangChain, most agent frameworks), and {@link OpenAIChatCompletionBuilder}
 *   / {@link readOpenAIChatCompletion} for the non-streaming `chat.completion` object;
 * - {@link UIMessageEncoderStream}: the Vercel AI SDK's UI message stream (`useChat`,
 *   `readUIMessageStream`), with {@link UI_MESSAGE_STREAM_HEADERS};
 * - {@link AGUIEncoderStream}: AG-UI events over SSE (`@ag-ui/client`, CopilotKit);
 * - {@link AnthropicMessagesEncoderStream}: Anthropic Messages events (Claude Code,
 *   `@anthropic-ai/sdk`), and {@link readAnthropicMessage} for the non-streaming message;
 * - {@link OpenAIResponsesEncoderStream}: OpenAI Responses events (Codex, openai-node's
 *   `responses.stream`), and {@link readOpenAIResponse} for the non-streaming response.
 *
 * Each is a pure core (`encode(event, out)`, `end(out)`) and a stage that takes one event or an
 * array of ready events and writes what is ready as one chunk. The library's own SSE event codec
 * (`ToolCallEventEncoderStream`, `ToolCallEventDecoderStream`) is here too.
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream";
 * import { OpenAIChatEncoderStream } from "tool-call-stream/encode";
 *
 * const body = streamToolCalls(upstream, { provider: "gemini" })
 *   .pipeThrough(new OpenAIChatEncoderStream({ model: "gemini-2.5-flash" }));
 * return new Response(body, { headers: { "content-type": "text/event-stream" } });
 * ```
 *
 * @module
 */
export { ToolCallEventDecoder, ToolCallEventDecoderStream } from "./encode/tool-call-event-decoder-stream.ts";
export {
  formatToolCallEvent,
  ToolCallEventEncoder,
  ToolCallEventEncoderStream,
  type ToolCallEventEncoderStreamOptions,
} from "./encode/tool-call-event-encoder-stream.ts";
export {
  encodeEvents,
  ProtocolEncoderStream,
  type EncodableEvent,
  type ProtocolEncoder,
  type ProtocolEncoderStreamOptions,
} from "./encode/protocol-encoder.ts";
export { joinDeltas } from "./encode/join-deltas.ts";
export { randomId } from "./encode/call-ids.ts";
export { readyBatches, type ReadyBatchesOptions } from "./encode/ready-batches.ts";
export type { AnswerEvents } from "./encode/read-to-answer.ts";
export { OpenAIChatEncoder, OpenAIChatEncoderStream } from "./encode/openai-chat-encoder-stream.ts";
export {
  OpenAIChatCompletionBuilder,
  readOpenAIChatCompletion,
  type OpenAIChatCompletionOptions,
  type OpenAIChatCompletionResult,
} from "./encode/openai-chat-completion.ts";
export type {
  OpenAIChatCompletion,
  OpenAIChatCompletionChoice,
  OpenAIChatCompletionMessage,
  OpenAIChatCustomToolCall,
  OpenAIChatEncoderOptions,
  OpenAIChatError,
  OpenAIChatFinishReason,
  OpenAIChatToolCall,
  OpenAIChatUsage,
} from "./encode/openai-chat-wire.ts";
export { UIMessageEncoder } from "./encode/ui-message-encoder.ts";
export { UIMessageEncoderStream } from "./encode/ui-message-encoder-stream.ts";
export { UI_MESSAGE_STREAM_HEADERS, type UIMessageEncoderOptions } from "./encode/ui-message-wire.ts";
export { AGUIEncoder } from "./encode/ag-ui-encoder.ts";
export { AGUIEncoderStream } from "./encode/ag-ui-encoder-stream.ts";
export type { AGUIEncoderOptions } from "./encode/ag-ui-wire.ts";
export {
  AnthropicMessagesEncoder,
  AnthropicMessagesEncoderStream,
} from "./encode/anthropic-messages-encoder-stream.ts";
export {
  readAnthropicMessage,
  type AnthropicMessageOptions,
  type AnthropicMessageResult,
} from "./encode/anthropic-message.ts";
export type {
  AnthropicContainer,
  AnthropicContentBlock,
  AnthropicError,
  AnthropicMessage,
  AnthropicMessagesEncoderOptions,
  AnthropicStopReason,
  AnthropicStreamEvent,
  AnthropicUsage,
} from "./encode/anthropic-messages-wire.ts";
export type { AnthropicStopDetails } from "./encode/anthropic-stop-details.ts";
export { OpenAIResponsesEncoder, OpenAIResponsesEncoderStream } from "./encode/openai-responses-encoder-stream.ts";
export {
  readOpenAIResponse,
  type OpenAIResponseOptions,
  type OpenAIResponseResult,
} from "./encode/openai-response.ts";
export type { OpenAIResponsesStreamEvent } from "./encode/openai-responses-stream-events.ts";
export {
  RESPONSE_SETTINGS_DEFAULTS,
  type OpenAIResponseSettings,
  type OpenAIResponseText,
  type OpenAIResponseTool,
} from "./encode/openai-response-settings.ts";
export type {
  OpenAIResponse,
  OpenAIResponsesEncoderOptions,
  OpenAIResponsesError,
  OpenAIResponsesOutputItem,
  OpenAIResponsesOutputText,
  OpenAIResponsesUsage,
} from "./encode/openai-responses-wire.ts";
