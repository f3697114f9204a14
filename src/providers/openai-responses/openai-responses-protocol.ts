import { SSEDecoder } from "../../framing/sse-decoder-stream.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { OpenAIResponsesDecoder } from "./openai-responses-delta-stream.ts";

/**
 * The protocol of the OpenAI Responses API: its bodies are Server-Sent Events (`SSEDecoder`; the
 * NDJSON of openai-node's `toReadableStream()` is read with the `framing` option, or by the main
 * entry's `streamToolCalls`), and its decoder is {@link OpenAIResponsesDecoder}. `streamToolCalls`
 * takes it as its `provider` like the name, and the registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: openAIResponsesProtocol })) console.log(event.type);
 * ```
 */
export const openAIResponsesProtocol: ProviderProtocol = {
  name: "openai-responses",
  framing: SSEDecoder,
  createDecoder: (emit) => new OpenAIResponsesDecoder(emit),
};
