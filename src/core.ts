/**
 * The provider-neutral stages: bytes to framed messages, normalized deltas to accumulated events,
 * and the SSE codec for sending those events on; and the contracts a protocol of your own
 * implements (`Framing`, `ProviderDecoder`, `ProviderProtocol`). Pair it with one provider subpath
 * (`tool-call-stream/openai`, `/anthropic`, `/gemini`, `/openai-responses`, `/bedrock`, `/cohere`,
 * `/ollama`) so that a bundle holds
 * only the providers it reads.
 *
 * @example
 * ```ts
 * import { SSEDecoderStream, ToolCallAccumulatorStream } from "tool-call-stream/core";
 * import { OpenAIChatDeltaStream } from "tool-call-stream/openai";
 *
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new OpenAIChatDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 *
 * @module
 */
// How the chain reads a body: large reads of what is ready (the Worker's idle timeout reads its upstream so).
export { type ChunkRead, chunkReader, type ChunkReader } from "./shared/chunk-reader.ts";
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
export { ChoosingFraming, detectTextFraming, TextFraming } from "./framing/text-framing.ts";
// Stage 2, providers: the contract a protocol implements (the protocols are in their subpaths).
export {
  ProviderDecoderStream,
  type DecoderLimits,
  type Emit,
  type ProviderDecoder,
  type ProviderProtocol,
} from "./providers/provider-decoder.ts";
export type { Provider } from "./providers/registry.ts";
export type { AssistantTurn, ToolResult } from "./providers/turn.ts";
export type { RequestPromptCache } from "./providers/prompt-cache.ts";
// Stage 3, accumulate: deltas to events.
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
export type { Repair } from "./accumulate/arguments-buffer.ts";
// The steps after the accumulator (its `output` plug-ins): timings, the tools' own validators.
export { eventStep, type EventSink, type EventStep } from "./accumulate/event-step.ts";
export { toolCallTimings } from "./accumulate/tool-call-timings.ts";
export { validateToolCalls } from "./accumulate/validate-tool-calls.ts";
export { DEFAULT_VALIDATION_TIMEOUT_MS, type ValidationTimeoutOptions } from "./schema/standard-schema.ts";
// The accumulator's plug-ins: each is bundled only when passed (see ToolCallAccumulatorOptions).
export { IncrementalJsonParser } from "./json/incremental-json-parser.ts";
export { repairJson, type JsonRepair, type RepairResult } from "./json/json-repair.ts";
export { longMemberName, longMemberNameKey, MAX_MEMBER_NAME_LENGTH } from "./shared/long-member-name.ts";
export { parallelUnwrapper, type CallUnwrapper, type WrapperCall } from "./accumulate/parallel-wrapper.ts";
// streamToolCalls' plug-in that reads an SDK's parsed chunks (a provider subpath's takes it as `sdkChunks`).
export {
  type InputRead,
  type InputReader,
  sdkChunks,
  type SdkChunkReading,
  type SdkChunks,
} from "./pipeline/sdk-chunks.ts";
// The writer of arguments a Chat Completions server gives as objects (`tool-call-stream/openai`'s
// `streamToolCalls` takes it as `jsonText`).
export { jsonText } from "./shared/json-text.ts";
export {
  toolSchemaValidator,
  type ProviderToolDefinition,
  type SdkToolSchema,
  type ToolArgumentsValidator,
  type ToolDefinition,
  type ToolSchema,
  type ToolSchemaCheckOptions,
  type ValidatorToolDefinition,
} from "./schema/tool-schema.ts";
export { declaredToolsValidator } from "./schema/tool-definition.ts";
export type { JsonSchemaPlugin } from "./schema/json-schema-plugin.ts";
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
export {
  earlySchemaValidator,
  type EarlyValidation,
  type EarlyValidationOptions,
  type EarlyValidationTarget,
} from "./schema/early-validation.ts";
// Stage 4, encode: events to SSE bytes and back.
export { ToolCallEventDecoder, ToolCallEventDecoderStream } from "./encode/tool-call-event-decoder-stream.ts";
export {
  formatToolCallEvent,
  ToolCallEventEncoder,
  ToolCallEventEncoderStream,
  type ToolCallEventEncoderStreamOptions,
} from "./encode/tool-call-event-encoder-stream.ts";
// The vocabulary every stage shares.
export { ToolCallStreamError, type ErrorCode, type ProviderErrorKind, type StreamErrorInfo } from "./shared/errors.ts";
export type { JsonValue } from "./shared/json.ts";
export type { StandardJSONSchemaV1, StandardSchemaV1 } from "./shared/standard-schema.ts";
export type {
  ExecutionContainer,
  ModerationDelta,
  ModerationResults,
  RefusalDetails,
} from "./shared/finish-details.ts";
export type {
  ApprovalRequest,
  ApprovalRequestDelta,
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
  ToolCallWholeDelta,
  Usage,
  UsageDelta,
} from "./shared/deltas.ts";
export type {
  AbortEvent,
  AbortReason,
  ApprovalRequestEvent,
  CompletedToolCallEvent,
  DiscardedToolCall,
  ErrorEvent,
  FinishEvent,
  InvalidToolCall,
  InvalidToolCallEvent,
  SchemaViolation,
  TextDeltaEvent,
  ReasoningDeltaEvent,
  ReasoningPartEvent,
  ToolCall,
  ToolCallDeltaEvent,
  ToolCallEvent,
  ToolCallStartEvent,
  ToolCallViolationEvent,
  UsageEvent,
} from "./shared/events.ts";
export { turnBlocks, type TurnBlocks, type TurnBlocksState, type TurnOrderEntry } from "./shared/turn-blocks.ts";
export type { StreamLimits } from "./pipeline/stream-limits.ts";
export { ToolCallChain, type ToolCallChainOptions } from "./pipeline/tool-call-chain.ts";
export type { Timers } from "./shared/timers.ts";
