/**
 * The provider-neutral stages: bytes to SSE messages, normalized deltas to accumulated events,
 * and the SSE codec for sending those events on. Pair it with one provider subpath
 * (`tool-call-stream/openai`, `/anthropic`, `/gemini`, `/openai-responses`) so that a bundle
 * holds only the providers it reads.
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
export { DEFAULT_MAX_EVENT_BYTES, SSEDecoder, SSEDecoderStream, type SSEDecoderStreamOptions } from "./sse-decoder-stream.ts";
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
export { ToolCallStreamError } from "./errors.ts";
export { ToolCallEventDecoder, ToolCallEventDecoderStream } from "./tool-call-event-decoder-stream.ts";
export {
  formatToolCallEvent,
  ToolCallEventEncoderStream,
  type ToolCallEventEncoderStreamOptions,
} from "./tool-call-event-encoder-stream.ts";
export type { AssistantTurn, ToolResult } from "./messages.ts";
export type { Emit } from "./payload.ts";
export type { Provider, ProviderDecoder } from "./providers.ts";
// The accumulator's plug-ins: each is bundled only when passed (see ToolCallAccumulatorOptions).
export { IncrementalJsonParser } from "./incremental-json-parser.ts";
export { repairJson, type JsonRepair, type RepairResult } from "./json-repair.ts";
export { toolSchemaValidator, type ToolArgumentsValidator, type ToolDefinition, type ToolSchema } from "./tool-schema.ts";
export type { Repair } from "./arguments-buffer.ts";
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
  ProviderDelta,
  ReasoningDelta,
  ReasoningDeltaEvent,
  ReasoningPart,
  ReasoningPartDelta,
  SSEMessage,
  StreamErrorInfo,
  StreamLimits,
  TextDelta,
  TextDeltaEvent,
  ToolCall,
  ToolCallChunkDelta,
  ToolCallDeltaEvent,
  ToolCallEndDelta,
  ToolCallEvent,
  ToolCallStartEvent,
  Usage,
  UsageDelta,
} from "./types.ts";
