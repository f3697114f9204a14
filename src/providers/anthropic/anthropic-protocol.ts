import { SSEDecoder } from "../../framing/sse-decoder-stream.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { AnthropicCitations } from "./anthropic-citations.ts";
import { AnthropicDecoder } from "./anthropic-delta-stream.ts";

/**
 * The protocol of Anthropic Messages: its bodies are Server-Sent Events (`SSEDecoder`; the NDJSON
 * of `@anthropic-ai/sdk`'s `toReadableStream()` is read with the `framing` option, or by the main
 * entry's `streamToolCalls`), and its decoder is {@link AnthropicDecoder}, with the text blocks' citations kept
 * ({@link AnthropicCitations}, bounded by the accumulator's `maxToolCalls`). `streamToolCalls` takes
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
  createDecoder: (emit, limits) => new AnthropicDecoder(emit, new AnthropicCitations(limits)),
};
