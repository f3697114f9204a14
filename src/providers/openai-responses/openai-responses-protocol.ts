import { approvalBlocks } from "../../shared/turn-blocks.ts";
import { SSEDecoder } from "../../framing/sse-decoder-stream.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import type { ResponsesBuiltInCalls } from "./openai-responses-built-in-calls.ts";
import { ResponsesCitations } from "./openai-responses-citations.ts";
import { OpenAIResponsesDecoder } from "./openai-responses-delta-stream.ts";

/**
 * The protocol of the OpenAI Responses API: its bodies are Server-Sent Events (`SSEDecoder`; the
 * NDJSON of openai-node's `toReadableStream()` is read with the `framing` option, or by the main
 * entry's `streamToolCalls`), and its decoder is {@link OpenAIResponsesDecoder}, with the built-in
 * tools' items read as calls and the text's annotations kept (`ResponsesCitations`). `streamToolCalls` takes it as its
 * `provider` like the name, and the registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: openAIResponsesProtocol })) console.log(event.type);
 * ```
 */
export const openAIResponsesProtocol: ProviderProtocol =
  /* @__PURE__ */ openAIResponsesProtocolWith(ResponsesCitations);

/**
 * The Responses protocol reading the built-in tools' items with `builtInCalls` (none: such an
 * item is an `unknown-provider` error): what `tool-call-stream/openai-responses`' `streamToolCalls`
 * reads with, so that its bundle holds that reader only when the app passes it.
 *
 * @example
 * ```ts
 * const withoutBuiltIns = openAIResponsesProtocolWith(undefined);
 * ```
 */
export function openAIResponsesProtocolWith(builtInCalls: typeof ResponsesBuiltInCalls | undefined): ProviderProtocol {
  return {
    name: "openai-responses",
    framing: SSEDecoder,
    createDecoder: (emit, limits) => new OpenAIResponsesDecoder(emit, { ...limits, builtInCalls }),
    turnBlocks: approvalBlocks,
  };
}
