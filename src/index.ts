/**
 * tool-call-stream: accumulate streamed LLM tool calls with WHATWG TransformStreams.
 *
 * ```
 * bytes -> SSEDecoderStream -> OpenAIChatDeltaStream -> ToolCallAccumulatorStream -> events
 * ```
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream";
 * for await (const event of streamToolCalls(await fetch(url, init))) console.log(event.type);
 * ```
 *
 * @module
 */
export { AnthropicDecoder, AnthropicDeltaStream } from "./anthropic-delta-stream.ts";
export { GeminiDecoder, GeminiDeltaStream } from "./gemini-delta-stream.ts";
export {
  ArgumentsBuffer,
  type ArgumentsBufferOptions,
  type ArgumentsResult,
  type ParseOptions,
  type Repair,
} from "./arguments-buffer.ts";
export {
  IncrementalJsonParser,
  jsonErrorPosition,
  type IncrementalJsonParserOptions,
  type JsonParseFailure,
} from "./incremental-json-parser.ts";
export { parseArguments, repairJson, type JsonRepair, type RepairResult } from "./json-repair.ts";
export {
  checkToolArguments,
  schemasByName,
  toolSchemaValidator,
  type ToolArgumentsValidator,
  type ToolDefinition,
  type ToolSchema,
} from "./tool-schema.ts";
export { ToolCallStreamError } from "./errors.ts";
export {
  anthropicAssistantMessage,
  anthropicToolResultMessage,
  assistantMessage,
  geminiFunctionResponseContent,
  geminiModelContent,
  openAIChatAssistantMessage,
  openAIChatToolMessages,
  responsesInputItems,
  responsesToolOutputs,
  toolResultMessages,
  type AssistantTurn,
  type ToolResult,
} from "./messages.ts";
export { normalizeFinishReason } from "./finish-reason.ts";
export {
  OpenAIResponsesDecoder,
  OpenAIResponsesDeltaStream,
  type OpenAIResponsesDeltaStreamOptions,
} from "./openai-responses-delta-stream.ts";
export { SequenceReorderer } from "./sequence-reorderer.ts";
export { OpenAIChatDeltaStream, decodeOpenAIChatMessage } from "./openai-chat-delta-stream.ts";
export {
  createProviderDecoder,
  createProviderDeltaStream,
  PROVIDERS,
  type Provider,
  type ProviderDecoder,
} from "./providers.ts";
export { detectProvider, ProviderDetectStream } from "./provider-detect-stream.ts";
export { DEFAULT_MAX_EVENT_BYTES, SSEDecoder, SSEDecoderStream, type SSEDecoderStreamOptions } from "./sse-decoder-stream.ts";
export { streamToolCalls, type StreamToolCallsOptions } from "./stream-tool-calls.ts";
export {
  DEFAULT_MAX_ARGUMENTS_BYTES,
  DEFAULT_MAX_TOOL_CALLS,
  ToolCallAccumulator,
  type ToolCallAccumulatorOptions,
} from "./tool-call-accumulator.ts";
export { ToolCallAccumulatorStream, type ToolCallAccumulatorStreamOptions } from "./tool-call-accumulator-stream.ts";
export {
  type AccumulatorSnapshot,
  type AccumulatorState,
  type RegistrySnapshot,
  restoreAccumulator,
  type SavedToolCall,
  snapshotAccumulator,
} from "./accumulator-snapshot.ts";
export { ToolCallEventDecoder, ToolCallEventDecoderStream } from "./tool-call-event-decoder-stream.ts";
export {
  formatToolCallEvent,
  ToolCallEventEncoderStream,
  type ToolCallEventEncoderStreamOptions,
} from "./tool-call-event-encoder-stream.ts";
export { normalizeUsage } from "./usage.ts";
export type { Emit } from "./payload.ts";
export {
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_TOOL_CONCURRENCY,
  DEFAULT_TOOL_TIMEOUT_MS,
  ToolHandlerError,
  ToolRunner,
  type RunnableTool,
  type ToolHandlerContext,
  type ToolRunnerOptions,
} from "./tool-runner.ts";
export { ToolRunnerStream } from "./tool-runner-stream.ts";
export { DEFAULT_MAX_STEPS, runToolLoop, toolDefinitions, type ToolLoopOptions, type ToolLoopRequest } from "./tool-loop.ts";
export type {
  AbortEvent,
  AbortReason,
  CompletedToolCallEvent,
  DiscardedToolCall,
  DoneDelta,
  ErrorCode,
  ErrorDelta,
  ErrorEvent,
  FinishDelta,
  FinishEvent,
  FinishReason,
  InvalidToolCall,
  InvalidToolCallEvent,
  JsonValue,
  LoopFinishEvent,
  LoopFinishReason,
  ProviderDelta,
  ReasoningDelta,
  ReasoningDeltaEvent,
  ReasoningPart,
  ReasoningPartDelta,
  SSEMessage,
  StreamErrorInfo,
  StepFinishEvent,
  StreamLimits,
  TextDelta,
  TextDeltaEvent,
  ToolCall,
  ToolCallChunkDelta,
  ToolCallDeltaEvent,
  ToolCallEndDelta,
  ToolCallEvent,
  ToolCallStartEvent,
  ToolApprovalRequestEvent,
  ToolErrorCode,
  ToolErrorEvent,
  ToolErrorInfo,
  ToolLoopEvent,
  ToolResultEvent,
  ToolRunnerEvent,
  Usage,
  UsageDelta,
} from "./types.ts";
