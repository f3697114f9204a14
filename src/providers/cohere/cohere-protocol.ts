import { TextFraming } from "../../framing/text-framing.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { CohereDecoder } from "./cohere-delta-stream.ts";
import { cohereMessageOf } from "./cohere-objects.ts";

/**
 * The protocol of Cohere v2 chat: its bodies are Server-Sent Events, read through
 * `TextFraming` so that a body that is plainly another text framing (a Gemini JSON array) is read
 * as what it is, and its decoder is {@link CohereDecoder}. `streamToolCalls` takes it as its
 * `provider` like the name, and the registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: cohereProtocol })) console.log(event.type);
 * ```
 */
export const cohereProtocol: ProviderProtocol = {
  name: "cohere",
  framing: TextFraming,
  createDecoder: (emit) => new CohereDecoder(emit),
  messageOf: cohereMessageOf,
};
