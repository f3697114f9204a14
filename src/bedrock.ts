/**
 * Amazon Bedrock streams: ConverseStream (every model) and InvokeModelWithResponseStream for
 * Claude, both in the binary AWS event stream, with its framing stage and the accumulator
 * re-exported so that one import line builds the chain (the rest is in `tool-call-stream/core`).
 * Nothing of the other providers' stages is imported, except the Anthropic decoder that reads
 * InvokeModel's Claude events (`streamToolCalls` takes it as its `invokeModel` plug-in: a bundle
 * that reads ConverseStream alone holds none; `AnthropicCitingDecoder` keeps Claude's citations).
 *
 * @example
 * ```ts
 * import { AwsEventStreamDecoderStream, BedrockDeltaStream, ToolCallAccumulatorStream } from "tool-call-stream/bedrock";
 *
 * const events = response.body! // a signed POST to .../model/<model>/converse-stream
 *   .pipeThrough(new AwsEventStreamDecoderStream())
 *   .pipeThrough(new BedrockDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * for await (const event of events) if (event.type === "tool-call") console.log(event.name, event.arguments);
 * ```
 *
 * @module
 */
export { AwsEventStreamDecoder, AwsEventStreamDecoderStream } from "./framing/aws-event-stream-decoder-stream.ts";
export type { EventStreamHeaderValue, FramedMessage } from "./framing/framing.ts";
export { crc32 } from "./framing/crc32.ts";
export {
  BedrockDecoder,
  BedrockDeltaStream,
  type InvokeModelDecoder,
} from "./providers/bedrock/bedrock-delta-stream.ts";
export { AnthropicDecoder } from "./providers/anthropic/anthropic-delta-stream.ts";
export { AnthropicCitingDecoder } from "./providers/anthropic/anthropic-protocol.ts";
export { BedrockConverseDecoder } from "./providers/bedrock/bedrock-converse.ts";
export { ConverseCitations } from "./providers/bedrock/bedrock-citations.ts";
export { bedrockAssistantMessage, bedrockToolResultMessage } from "./providers/bedrock/bedrock-messages.ts";
export { ToolCallAccumulatorStream } from "./accumulate/tool-call-accumulator-stream.ts";
export type { ToolCallEvent } from "./shared/events.ts";
export {
  bedrockToolCallBatches as streamToolCallBatches,
  bedrockToolCalls as streamToolCalls,
  type BedrockOptions,
  type ProtocolStreamToolCallBatches,
  type ProtocolStreamToolCalls,
} from "./pipeline/provider-stream-tool-calls.ts";
export type { ProtocolBatchOptions, ProtocolStreamOptions } from "./pipeline/tool-call-streams.ts";
