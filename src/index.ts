/**
 * tool-call-stream: streamed LLM tool calls accumulated by WHATWG TransformStreams (bytes -> framing -> provider ->
 * accumulator -> events). The root entry holds everything; each subpath (`/core`, `/encode`, a provider's) a part.
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream";
 * for await (const event of streamToolCalls(await fetch(url, init))) console.log(event.type);
 * ```
 * @module
 */
// Stage 1, framing: bytes to messages.
export {
  DEFAULT_MAX_EVENT_LENGTH,
  FramingStream,
  type FramedMessage,
  type Framing,
  type FramingClass,
  type EventStreamHeaderValue,
  type FramingOptions,
  type SSEMessage,
} from "./framing/framing.ts";
export { SSEDecoder, SSEDecoderStream, type SSEDecoderStreamOptions } from "./framing/sse-decoder-stream.ts";
export { AwsEventStreamDecoder, AwsEventStreamDecoderStream } from "./framing/aws-event-stream-decoder-stream.ts";
export { NdjsonDecoder, NdjsonDecoderStream } from "./framing/ndjson-decoder-stream.ts";
export { JsonArrayDecoder, JsonArrayDecoderStream } from "./framing/json-array-decoder-stream.ts";
export { DetectingFraming, detectFraming, FramingDetectStream } from "./framing/framing-detect-stream.ts";
export { ChoosingFraming, detectTextFraming, SseOrNdjsonFraming, TextFraming } from "./framing/text-framing.ts";
// Stage 2, providers: messages to normalized deltas, one folder per wire protocol.
export {
  ProviderDecoderStream,
  type Emit,
  type ProviderDecoder,
  type ProviderProtocol,
} from "./providers/provider-decoder.ts";
export {
  createProviderDecoder,
  createProviderDeltaStream,
  PROVIDERS,
  providerKit,
  providerProtocol,
  type Provider,
} from "./providers/registry.ts";
export type { ProviderKit } from "./providers/provider-kit.ts";
export type { ProviderRequest, RequestMessage, RequestToolCall, RequestToolChoice } from "./providers/request.ts";
export type { ToolEntry } from "./providers/tool-entry.ts";
export type { RequestContentPart, RequestFilePart, RequestFileSource } from "./providers/request.ts";
export { effortOfBudget, reasoningBudget, type ReasoningEffort, type RequestReasoning } from "./providers/reasoning.ts";
export { detectProvider, ProviderDetectStream } from "./providers/provider-detect-stream.ts";
export { OpenAIChatDecoder, OpenAIChatDeltaStream } from "./providers/openai-chat/openai-chat-delta-stream.ts";
export { openAIChatAssistantMessage, openAIChatToolMessages } from "./providers/openai-chat/openai-chat-messages.ts";
export {
  OpenAIResponsesDecoder,
  OpenAIResponsesDeltaStream,
} from "./providers/openai-responses/openai-responses-delta-stream.ts";
export type { OpenAIResponsesDeltaStreamOptions } from "./providers/openai-responses/openai-responses-options.ts";
export { SequenceReorderer } from "./providers/openai-responses/sequence-reorderer.ts";
export { responsesInputItems, responsesToolOutputs } from "./providers/openai-responses/openai-responses-messages.ts";
export { approvalResponses, type ApprovalAnswer } from "./providers/openai-responses/openai-responses-approvals.ts";
export { AnthropicDecoder, AnthropicDeltaStream } from "./providers/anthropic/anthropic-delta-stream.ts";
export { anthropicAssistantMessage, anthropicToolResultMessage } from "./providers/anthropic/anthropic-messages.ts";
export { GEMINI_KEPT_PARTS, GeminiDecoder, GeminiDeltaStream } from "./providers/gemini/gemini-delta-stream.ts";
export { geminiFunctionResponseContent, geminiModelContent } from "./providers/gemini/gemini-messages.ts";
export { GeminiInteractionsDeltaStream } from "./providers/gemini-interactions/gemini-interactions-delta-stream.ts";
export { BedrockDecoder, BedrockDeltaStream } from "./providers/bedrock/bedrock-delta-stream.ts";
export { BedrockConverseDecoder } from "./providers/bedrock/bedrock-converse.ts";
export { bedrockAssistantMessage, bedrockToolResultMessage } from "./providers/bedrock/bedrock-messages.ts";
export { CohereDecoder, CohereDeltaStream } from "./providers/cohere/cohere-delta-stream.ts";
export { cohereAssistantMessage, cohereToolMessages } from "./providers/cohere/cohere-messages.ts";
export { OllamaDecoder, OllamaDeltaStream } from "./providers/ollama/ollama-delta-stream.ts";
export { ollamaAssistantMessage, ollamaToolMessages } from "./providers/ollama/ollama-messages.ts";
export { assistantMessage, toolResultMessages } from "./providers/messages.ts";
export type { AssistantTurn, SafetyCheck, ToolResult } from "./providers/turn.ts";
export { normalizeFinishReason } from "./providers/finish-reason.ts";
export { normalizeUsage } from "./providers/usage.ts";
// JSON: incremental parsing, repair and schema checks (the accumulator's plug-ins).
export {
  IncrementalJsonParser,
  type IncrementalJsonParserOptions,
  type JsonParseFailure,
  type JsonParserListener,
} from "./json/incremental-json-parser.ts";
export {
  earlySchemaValidator,
  type EarlyValidation,
  type EarlyValidationOptions,
  type EarlyValidationTarget,
} from "./schema/early-validation.ts";
export { jsonErrorPosition } from "./json/json-error-position.ts";
export { repairJson, type JsonRepair, type RepairResult } from "./json/json-repair.ts";
export { type CheckToolSchemaOptions, checkToolSchema, type ToolSchemaIssue } from "./schema/check-tool-schema.ts";
export { PatternBudget } from "./schema/pattern-budget.ts";
export { declaredToolsValidator, jsonSchema, type JsonSchemaPlugin } from "./schema.ts";
export type { ProviderToolDefinition, SdkToolSchema } from "./schema.ts";
export { CheckBudget } from "./schema/check-budget.ts";
export {
  checkToolArguments,
  type CheckToolArgumentsOptions,
  schemasByName,
  toolSchemaValidator,
  type ToolArgumentsValidator,
  type ToolDefinition,
  type ToolSchema,
  type ToolSchemaCheckOptions,
  type ValidatorToolDefinition,
} from "./schema/tool-schema.ts";
export {
  DEFAULT_VALIDATION_TIMEOUT_MS,
  standardJsonSchema,
  type ValidationTimeoutOptions,
} from "./schema/standard-schema.ts";
export type {
  DeepPartial,
  InferToolArguments,
  InferToolName,
  InferToolSchema,
  NamedToolCall,
  NamedToolCallEvent,
  TypedCompletedToolCallEvent,
  TypedFinishEvent,
  TypedToolCall,
  TypedToolCallDeltaEvent,
  TypedToolCallEvent,
} from "./schema/tool-types.ts";
// Stage 3, accumulate: deltas to events.
export {
  ArgumentsBuffer,
  type ArgumentsBufferOptions,
  type ArgumentsResult,
  type ParseOptions,
  type Repair,
} from "./accumulate/arguments-buffer.ts";
export { parseArguments } from "./accumulate/parse-arguments.ts";
export {
  DEFAULT_MAX_ARGUMENTS_LENGTH,
  DEFAULT_MAX_TEXT_LENGTH,
  DEFAULT_MAX_TOOL_CALLS,
  type ToolCallAccumulatorOptions,
} from "./accumulate/accumulator-options.ts";
export { ToolCallAccumulator, ToolCallAccumulatorCore } from "./accumulate/tool-call-accumulator.ts";
export {
  ToolCallAccumulatorStream,
  type ToolCallAccumulatorStreamOptions,
} from "./accumulate/tool-call-accumulator-stream.ts";
export type {
  AccumulatorSnapshot,
  AccumulatorState,
  RegistrySnapshot,
  SavedToolCall,
} from "./accumulate/accumulator-state.ts";
export { restoreAccumulator, snapshotAccumulator } from "./accumulate/accumulator-snapshot.ts";
export { eventStep, type EventSink, type EventStep } from "./accumulate/event-step.ts";
export { toolCallTimings } from "./accumulate/tool-call-timings.ts";
export { validateToolCalls } from "./accumulate/validate-tool-calls.ts";
export { streamToolCallBatches, streamToolCalls } from "./pipeline/stream-tool-calls.ts"; // The whole chain in one call.
export { batchReader, type BatchReader, readToolCallBatches, readToolCalls } from "./pipeline/stream-tool-calls.ts";
export type { StreamToolCallBatchesOptions, StreamToolCallsOptions } from "./pipeline/stream-tool-calls-options.ts";
export type { StreamLimits } from "./pipeline/stream-limits.ts";
export { type ChainInput, type ProviderChunks, sdkChunks, type SdkChunks } from "./pipeline/sdk-chunks.ts";
export { ToolCallChain, type ToolCallChainOptions } from "./pipeline/tool-call-chain.ts";
// Tools: run calls at the edge, loop back to the model.
export {
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_MAX_SCREENSHOT_BYTES,
  DEFAULT_TOOL_CONCURRENCY,
  DEFAULT_TOOL_TIMEOUT_MS,
  defineTool,
  ToolHandlerError,
  type RunnableTool,
  type ToolHandlerContext,
  type ToolHandlerResult,
  type ToolRunnerOptions,
} from "./tools/runnable-tool.ts";
export { ToolRunner } from "./tools/tool-runner.ts";
export { ToolRunnerStream } from "./tools/tool-runner-stream.ts";
export { DEFAULT_MAX_STEPS, runToolLoop, type ToolLoopStream } from "./tools/tool-loop.ts";
export type { ToolLoopOptions, ToolLoopRequest } from "./tools/loop-options.ts";
export { toolDefinitions } from "./tools/tool-definitions.ts";
export type {
  ToolApprovalRequestEvent,
  ToolErrorCode,
  ToolErrorEvent,
  ToolErrorInfo,
  ToolResultEvent,
  ToolRunnerEvent,
} from "./tools/tool-events.ts";
export type { LoopFinishEvent, LoopFinishReason, StepFinishEvent, ToolLoopEvent } from "./tools/loop-events.ts";
// Encode: events to SSE bytes and back, and to the client protocols (as `tool-call-stream/encode` exports them).
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
export { type AnswerEvents, joinDeltas, randomId, UIMessageEncoder, UIMessageEncoderStream } from "./encode.ts";
export { readyBatches, type ReadyBatchesOptions } from "./encode/ready-batches.ts";
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
export { UI_MESSAGE_STREAM_HEADERS, type UIMessageEncoderOptions } from "./encode/ui-message-wire.ts";
export { AGUIEncoder, AGUIEncoderStream, type AGUIEncoderOptions } from "./encode.ts";
export {
  AnthropicMessagesEncoder,
  AnthropicMessagesEncoderStream,
  OpenAIResponsesEncoder,
  OpenAIResponsesEncoderStream,
  readAnthropicMessage,
  readOpenAIResponse,
  type AnthropicContainer,
  type AnthropicContentBlock,
  type AnthropicError,
  type AnthropicMessage,
  type AnthropicMessageOptions,
  type AnthropicMessageResult,
  type AnthropicMessagesEncoderOptions,
  type AnthropicStopDetails,
  type AnthropicStopReason,
  type AnthropicStreamEvent,
  type AnthropicUsage,
  type OpenAIResponse,
  type OpenAIResponseOptions,
  type OpenAIResponseResult,
  type OpenAIResponsesEncoderOptions,
  type OpenAIResponsesError,
  type OpenAIResponsesOutputItem,
  type OpenAIResponsesOutputText,
  type OpenAIResponsesStreamEvent,
  type OpenAIResponsesUsage,
} from "./encode.ts";
export { ToolCallStreamError, type ErrorCode, type ProviderErrorKind, type StreamErrorInfo } from "./shared/errors.ts";
export type { JsonValue } from "./shared/json.ts";
export type { StandardJSONSchemaV1, StandardSchemaV1 } from "./shared/standard-schema.ts";
export type { ApprovalRequest, ApprovalRequestDelta } from "./shared/approval-request.ts";
export type { ExecutionContainer, RefusalDetails, ToolCallWholeDelta } from "./shared/deltas.ts";
export type { ModerationDelta, ModerationResults } from "./shared/finish-details.ts";
export type {
  DoneDelta,
  ErrorDelta,
  FinishDelta,
  FinishReason,
  ProviderDelta,
  ReasoningDelta,
  ReasoningPart,
  ReasoningPartDelta,
  TextDelta,
  ToolCallChunkDelta,
  ToolCallEndDelta,
  Usage,
  UsageDelta,
} from "./shared/deltas.ts";
export type {
  AbortEvent,
  AbortReason,
  CompletedToolCallEvent,
  DiscardedToolCall,
  ErrorEvent,
  FinishEvent,
  InvalidToolCall,
  InvalidToolCallEvent,
  SchemaViolation,
  ReasoningDeltaEvent,
  ReasoningPartEvent,
  TextDeltaEvent,
  ToolCall,
  ToolCallDeltaEvent,
  ToolCallEvent,
  ToolCallStartEvent,
  ToolCallViolationEvent,
  UsageEvent,
} from "./shared/events.ts";
export type { ApprovalRequestEvent } from "./shared/events.ts";
export type { Timers } from "./shared/timers.ts";
export { turnBlocks, type TurnBlocks, type TurnBlocksState, type TurnOrderEntry } from "./shared/turn-blocks.ts";
