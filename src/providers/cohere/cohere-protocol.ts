import { SSEDecoder } from "../../framing/sse-decoder-stream.ts";
import { turnOrderBlocks } from "../../shared/turn-blocks.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { CohereDecoder } from "./cohere-delta-stream.ts";
import { cohereMessageOf } from "./cohere-objects.ts";

/**
 * The protocol of Cohere v2 chat: its bodies are Server-Sent Events (`SSEDecoder`), and its decoder
 * is {@link CohereDecoder}; its turn's `order` says where its citations (cited text parts, after
 * the text they cite) came, as the detecting protocol says it. `streamToolCalls` takes it as its `provider` like the name, and the
 * registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: cohereProtocol })) console.log(event.type);
 * ```
 */
export const cohereProtocol: ProviderProtocol = {
  name: "cohere",
  framing: SSEDecoder,
  createDecoder: (emit) => new CohereDecoder(emit),
  messageOf: cohereMessageOf,
  turnBlocks: turnOrderBlocks,
};
