import { serverCallBlocks } from "../../shared/turn-blocks.ts";
import { SSEDecoder } from "../../framing/sse-decoder-stream.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { GeminiInteractionsDecoder } from "./gemini-interactions-delta-stream.ts";

/**
 * The protocol of Gemini's Interactions API: its bodies are Server-Sent Events (`SSEDecoder`), and
 * its decoder is {@link GeminiInteractionsDecoder}. `streamToolCalls` takes it as its `provider`
 * like the name, and the registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: geminiInteractionsProtocol })) console.log(event.type);
 * ```
 */
export const geminiInteractionsProtocol: ProviderProtocol = {
  name: "gemini-interactions",
  framing: SSEDecoder,
  createDecoder: (emit, limits) => new GeminiInteractionsDecoder(emit, limits),
  turnBlocks: serverCallBlocks,
};
