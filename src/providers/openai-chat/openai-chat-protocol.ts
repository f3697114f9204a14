import { SSEDecoder } from "../../framing/sse-decoder-stream.ts";
import { jsonText } from "../../shared/json-text.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { withChatCitations } from "./openai-chat-citations.ts";
import { OpenAIChatDecoder } from "./openai-chat-delta-stream.ts";
import type { OpenAIChatDecoderOptions } from "./openai-chat-options.ts";

/**
 * The protocol of Chat Completions (OpenAI and every compatible server): its bodies are Server-Sent
 * Events (`SSEDecoder`; the NDJSON of openai-node's `toReadableStream()` is read with the `framing`
 * option, or by the main entry's `streamToolCalls`), and its decoder is {@link OpenAIChatDecoder},
 * with arguments given as objects written by `jsonText` and the first choice's `url_citation`
 * annotations kept (`ChatCitations`). `streamToolCalls` takes it as its
 * `provider` like the name, and the registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: openAIChatProtocol })) console.log(event.type);
 * ```
 */
export const openAIChatProtocol: ProviderProtocol = /* @__PURE__ */ withChatCitations(
  /* @__PURE__ */ openAIChatProtocolWith(jsonText),
  { jsonText },
);

/**
 * The Chat Completions protocol writing arguments given as objects with `write` (none:
 * `JSON.stringify`, whose recursion ends the stream on arguments nested thousands deep): what `tool-call-stream/openai`'s `streamToolCalls`
 * reads with, so that its bundle holds that writer only when the app passes it.
 *
 * @example
 * ```ts
 * const argumentsAsText = openAIChatProtocolWith(undefined);
 * ```
 */
export function openAIChatProtocolWith(write: OpenAIChatDecoderOptions["jsonText"]): ProviderProtocol {
  return {
    name: "openai",
    framing: SSEDecoder,
    createDecoder: (emit) => new OpenAIChatDecoder(emit, { jsonText: write }),
    // openai-node consumes the `[DONE]` that ends the body and ends its stream there (a network
    // error throws instead), so its normal end stands for `[DONE]`.
    endOfObjects: { data: "[DONE]" },
  };
}
