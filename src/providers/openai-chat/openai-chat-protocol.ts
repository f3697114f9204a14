import { objectJsonText } from "../../shared/object-json-text.ts";
import { TextFraming } from "../../framing/text-framing.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { OpenAIChatDecoder } from "./openai-chat-delta-stream.ts";

/**
 * The protocol of Chat Completions (OpenAI and every compatible server): its bodies are Server-Sent
 * Events, read through `TextFraming` so that a body that is plainly another text framing (a Gemini
 * JSON array) is read as what it is, and its decoder is {@link OpenAIChatDecoder}.
 * `streamToolCalls` takes it as its `provider` like the name, and the registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: openAIChatProtocol })) console.log(event.type);
 * ```
 */
export const openAIChatProtocol: ProviderProtocol = {
  name: "openai",
  framing: TextFraming,
  createDecoder: (emit) => new OpenAIChatDecoder(emit),
  jsonText: objectJsonText,
  // openai-node consumes the `[DONE]` that ends the body and ends its stream there (a network
  // error throws instead), so its normal end stands for `[DONE]`.
  endOfObjects: { data: "[DONE]" },
};
