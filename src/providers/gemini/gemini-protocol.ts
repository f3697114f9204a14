import { turnOrderBlocks } from "../../shared/turn-blocks.ts";
import { SseOrJsonArrayFraming } from "../../framing/text-framing.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { GeminiDecoder } from "./gemini-delta-stream.ts";
import { GeminiGrounding } from "./gemini-grounding.ts";

/**
 * The protocol of Gemini and Vertex AI `streamGenerateContent`: its bodies are Server-Sent Events
 * (`alt=sse`) or, without it, a JSON array written element by element (`SseOrJsonArrayFraming`),
 * and its decoder is {@link GeminiDecoder}, with the first candidate's grounding kept (`GeminiGrounding`). `streamToolCalls` takes it as its `provider` like the
 * name, and the registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: geminiProtocol })) console.log(event.type);
 * ```
 */
export const geminiProtocol: ProviderProtocol = /* @__PURE__ */ geminiProtocolWith(GeminiGrounding);

/**
 * The Gemini protocol keeping the first candidate's grounding and citations with `grounding` (none:
 * left out): what `tool-call-stream/gemini`'s `streamToolCalls` reads with (without it, so that
 * its bundle holds none of that).
 *
 * @example
 * ```ts
 * const withoutGrounding = geminiProtocolWith(undefined);
 * ```
 */
export function geminiProtocolWith(grounding: typeof GeminiGrounding | undefined): ProviderProtocol {
  return {
    name: "gemini",
    framing: SseOrJsonArrayFraming,
    createDecoder: (emit, limits) => new GeminiDecoder(emit, limits, grounding && new grounding()),
    turnBlocks: turnOrderBlocks,
  };
}
