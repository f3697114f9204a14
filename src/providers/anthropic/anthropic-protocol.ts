import { serverCallBlocks } from "../../shared/turn-blocks.ts";
import { SSEDecoder } from "../../framing/sse-decoder-stream.ts";
import type { DecoderLimits, Emit, ProviderProtocol } from "../provider-decoder.ts";
import { AnthropicCitations } from "./anthropic-citations.ts";
import { AnthropicDecoder } from "./anthropic-delta-stream.ts";

/**
 * The protocol of Anthropic Messages: its bodies are Server-Sent Events (`SSEDecoder`; the NDJSON
 * of `@anthropic-ai/sdk`'s `toReadableStream()` is read with the `framing` option, or by the main
 * entry's `streamToolCalls`), and its decoder is {@link AnthropicCitingDecoder} (the text blocks' citations kept). `streamToolCalls` takes
 * it as its `provider` like the name, and the registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: anthropicProtocol })) console.log(event.type);
 * ```
 */
export const anthropicProtocol: ProviderProtocol = {
  name: "anthropic",
  framing: SSEDecoder,
  createDecoder: (emit, limits) => new AnthropicCitingDecoder(emit, limits),
  turnBlocks: serverCallBlocks,
};

/**
 * {@link AnthropicDecoder} with the text blocks' citations kept ({@link AnthropicCitations},
 * bounded by the accumulator's `maxToolCalls`): what `anthropicProtocol` reads with, and the
 * `invokeModel` plug-in of `tool-call-stream/bedrock` that keeps Claude's citations on Bedrock's
 * InvokeModel (`AnthropicDecoder` leaves them out, for a smaller bundle).
 *
 * @example
 * ```ts
 * streamToolCalls(response, { invokeModel: AnthropicCitingDecoder }); // tool-call-stream/bedrock
 * ```
 */
export class AnthropicCitingDecoder extends AnthropicDecoder {
  /** Creates a decoder for one response that reports through `emit`. */
  constructor(emit: Emit, limits: DecoderLimits = {}) {
    super(emit, limits, new AnthropicCitations(limits));
  }
}
