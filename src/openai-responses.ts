/**
 * OpenAI Responses API streams (also Azure, DeepSeek, LM Studio), with the two provider-neutral
 * stages re-exported so that one import line builds the chain (the rest is in `tool-call-
 * stream/core`). Nothing of the other providers is imported, so a bundle of this subpath leaves
 * them out.
 *
 * @example
 * ```ts
 * import { OpenAIResponsesDeltaStream, SSEDecoderStream, ToolCallAccumulatorStream } from "tool-call-stream/openai-responses";
 *
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new OpenAIResponsesDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * for await (const event of events) if (event.type === "tool-call") console.log(event.name, event.arguments);
 * ```
 *
 * @module
 */
export {
  OpenAIResponsesDecoder,
  OpenAIResponsesDeltaStream,
} from "./providers/openai-responses/openai-responses-delta-stream.ts";
export type { OpenAIResponsesDeltaStreamOptions } from "./providers/openai-responses/openai-responses-options.ts";
export { ResponsesBuiltInCalls } from "./providers/openai-responses/openai-responses-built-in-calls.ts";
export { ResponsesCitations } from "./providers/openai-responses/openai-responses-citations.ts";
export { responsesInputItems, responsesToolOutputs } from "./providers/openai-responses/openai-responses-messages.ts";
export { approvalResponses, type ApprovalAnswer } from "./providers/openai-responses/openai-responses-approvals.ts";
export { SSEDecoderStream, ToolCallAccumulatorStream, type ToolCallEvent } from "./core.ts";
export {
  openAIResponsesToolCallBatches as streamToolCallBatches,
  openAIResponsesToolCalls as streamToolCalls,
  type OpenAIResponsesOptions,
  type ProtocolStreamToolCallBatches,
  type ProtocolStreamToolCalls,
} from "./pipeline/provider-stream-tool-calls.ts";
export type { ProtocolBatchOptions, ProtocolStreamOptions } from "./pipeline/tool-call-streams.ts";
