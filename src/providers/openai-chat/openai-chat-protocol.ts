import { SSEDecoder } from "../../framing/sse-decoder-stream.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { OpenAIChatDecoder } from "./openai-chat-delta-stream.ts";

/**
 * The protocol of Chat Completions (OpenAI and every compatible server): its bodies are Server-Sent
 * Events (`SSEDecoder`; the NDJSON of openai-node's `toReadableStream()` is read with the `framing`
 * option, or by the main entry's `streamToolCalls`), and its decoder is {@link OpenAIChatDecoder}.
 * `streamToolCalls` takes it as its `provider` like the name, and the registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: openAIChatProtocol })) console.log(event.type);
 * ```
 */
export const openAIChatProtocol: ProviderProtocol = {
  name: "openai",
  framing: SSEDecoder,
  createDecoder: (emit) => new OpenAIChatDecoder(emit),
  // openai-node consumes the `[DONE]` that ends the body and ends its stream there (a network
  // error throws instead), so its normal end stands for `[DONE]`.
  endOfObjects: { data: "[DONE]" },
};
