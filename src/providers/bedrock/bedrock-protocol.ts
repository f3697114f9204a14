import { serverCallBlocks } from "../../shared/turn-blocks.ts";
import { AwsEventStreamDecoder } from "../../framing/aws-event-stream-decoder-stream.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { AnthropicCitingDecoder } from "../anthropic/anthropic-protocol.ts";
import { ConverseCitations } from "./bedrock-citations.ts";
import { BedrockDecoder, type InvokeModelDecoder } from "./bedrock-delta-stream.ts";
import { bedrockMessageOf } from "./bedrock-objects.ts";

/**
 * The protocol of Amazon Bedrock ConverseStream and InvokeModelWithResponseStream: its bodies are
 * always the AWS event stream, and its decoder is {@link BedrockDecoder} (InvokeModel's Claude
 * events read with `AnthropicCitingDecoder`, ConverseStream's with `ConverseCitations`: citations
 * kept). `streamToolCalls` takes
 * it as its `provider` like the name, and the registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: bedrockProtocol })) console.log(event.type);
 * ```
 */
export const bedrockProtocol: ProviderProtocol = /* @__PURE__ */ bedrockProtocolWith(
  AnthropicCitingDecoder,
  ConverseCitations,
);

/**
 * The Bedrock protocol reading InvokeModel's chunks with `invokeModel` (none: ConverseStream
 * alone, an InvokeModel body an `unknown-provider` error), and ConverseStream's citations with
 * `converseCitations` (none: left out): what `tool-call-stream/bedrock`'s `streamToolCalls` reads
 * with, so that its bundle holds the Anthropic decoder and the citations' reader only when the app
 * passes them.
 *
 * @example
 * ```ts
 * const converseOnly = bedrockProtocolWith(undefined);
 * ```
 */
export function bedrockProtocolWith(
  invokeModel: InvokeModelDecoder | undefined,
  converseCitations?: typeof ConverseCitations,
): ProviderProtocol {
  return {
    name: "bedrock",
    framing: AwsEventStreamDecoder,
    createDecoder: (emit, limits) => new BedrockDecoder(emit, invokeModel, limits, converseCitations),
    messageOf: bedrockMessageOf,
    turnBlocks: serverCallBlocks,
  };
}
