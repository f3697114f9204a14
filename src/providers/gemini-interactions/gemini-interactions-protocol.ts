import { serverCallBlocks } from "../../shared/turn-blocks.ts";
import { SSEDecoder } from "../../framing/sse-decoder-stream.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { withInteractionsCitations } from "./gemini-interactions-citations.ts";
import { GeminiInteractionsDecoder } from "./gemini-interactions-delta-stream.ts";

/**
 * The protocol of Gemini's Interactions API without its text annotations: what
 * `tool-call-stream/gemini-interactions`'s `streamToolCalls` reads with (so that its bundle holds
 * none of `InteractionsCitations`).
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: interactionsProtocol })) console.log(event.type);
 * ```
 */
export const interactionsProtocol: ProviderProtocol = {
  name: "gemini-interactions",
  framing: SSEDecoder,
  createDecoder: (emit, limits) => new GeminiInteractionsDecoder(emit, limits),
  turnBlocks: serverCallBlocks,
};

/**
 * The protocol of Gemini's Interactions API: its bodies are Server-Sent Events (`SSEDecoder`), and
 * its decoder is {@link GeminiInteractionsDecoder}, with the text annotations kept
 * (`InteractionsCitations`). `streamToolCalls` takes it as its `provider` like the name, and the
 * registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: geminiInteractionsProtocol })) console.log(event.type);
 * ```
 */
export const geminiInteractionsProtocol: ProviderProtocol =
  /* @__PURE__ */ withInteractionsCitations(interactionsProtocol);
