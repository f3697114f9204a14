import { NdjsonDecoder } from "../../framing/ndjson-decoder-stream.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { OllamaDecoder } from "./ollama-delta-stream.ts";

/**
 * The protocol of Ollama's native `/api/chat`: its bodies are always NDJSON, and its decoder is
 * {@link OllamaDecoder}. `streamToolCalls` takes it as its `provider` like the name, and the
 * registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: ollamaProtocol })) console.log(event.type);
 * ```
 */
export const ollamaProtocol: ProviderProtocol = {
  name: "ollama",
  framing: NdjsonDecoder,
  createDecoder: (emit) => new OllamaDecoder(emit),
};
