import { turnOrderBlocks } from "../../shared/turn-blocks.ts";
import { SseOrJsonArrayFraming } from "../../framing/text-framing.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { GeminiDecoder } from "./gemini-delta-stream.ts";

/**
 * The protocol of Gemini and Vertex AI `streamGenerateContent`: its bodies are Server-Sent Events
 * (`alt=sse`) or, without it, a JSON array written element by element (`SseOrJsonArrayFraming`),
 * and its decoder is {@link GeminiDecoder}. `streamToolCalls` takes it as its `provider` like the
 * name, and the registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: geminiProtocol })) console.log(event.type);
 * ```
 */
export const geminiProtocol: ProviderProtocol = {
  name: "gemini",
  framing: SseOrJsonArrayFraming,
  createDecoder: (emit, limits) => new GeminiDecoder(emit, limits),
  turnBlocks: turnOrderBlocks,
};
