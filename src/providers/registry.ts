import type { FramedMessage } from "../framing/framing.ts";
import type { ProviderDelta } from "../shared/deltas.ts";
import { ToolCallStreamError } from "../shared/errors.ts";
import { anthropicKit } from "./anthropic/anthropic-kit.ts";
import { bedrockKit } from "./bedrock/bedrock-kit.ts";
import { cohereKit } from "./cohere/cohere-kit.ts";
import { geminiKit } from "./gemini/gemini-kit.ts";
import { geminiInteractionsKit } from "./gemini-interactions/gemini-interactions-kit.ts";
import { ollamaKit } from "./ollama/ollama-kit.ts";
import { openAIChatKit } from "./openai-chat/openai-chat-kit.ts";
import { openAIResponsesKit } from "./openai-responses/openai-responses-kit.ts";
import {
  type DecoderLimits,
  type Emit,
  type ProviderDecoder,
  ProviderDecoderStream,
  type ProviderProtocol,
} from "./provider-decoder.ts";
import type { ProviderKit } from "./provider-kit.ts";

/**
 * The wire protocols tool-call-stream reads: `openai` is Chat Completions and every compatible
 * vendor (Mistral's native API included), `openai-responses` the Responses API, `anthropic` the
 * Messages API, `gemini` Gemini and Vertex AI `streamGenerateContent` (SSE with `alt=sse`, a JSON
 * array without), `gemini-interactions` Gemini's Interactions API (`POST /v1beta/interactions`), `bedrock` Amazon Bedrock ConverseStream and InvokeModelWithResponseStream (AWS
 * event stream), `cohere` Cohere v2 chat, `ollama` Ollama's native `/api/chat` (NDJSON). Any other
 * protocol can be read through a {@link ProviderProtocol} of its own.
 */
export type Provider =
  | "openai"
  | "openai-responses"
  | "anthropic"
  | "gemini"
  | "bedrock"
  | "cohere"
  | "ollama"
  | "gemini-interactions";

/**
 * The built-in providers, one kit each. Mapped over {@link Provider}, so a name without a kit, or
 * a kit without one of its pieces, does not compile; every dispatcher is a lookup here.
 */
const KITS: { readonly [P in Provider]: ProviderKit } = {
  openai: openAIChatKit,
  "openai-responses": openAIResponsesKit,
  anthropic: anthropicKit,
  gemini: geminiKit,
  bedrock: bedrockKit,
  cohere: cohereKit,
  ollama: ollamaKit,
  "gemini-interactions": geminiInteractionsKit,
};

/**
 * The kit of a built-in provider: its protocol and stage, the request body a server sends it, its
 * tool definitions, the field of its conversation, and its next turn's messages. Throws
 * `unknown-provider` for another name.
 *
 * @example
 * ```ts
 * const kit = providerKit("gemini");
 * const body = { contents, tools: kit.toolDefinitions([{ name: "get_weather", parameters: { type: "object" } }]) };
 * ```
 */
export function providerKit(provider: Provider): ProviderKit {
  assertProvider(String(provider));
  return KITS[provider];
}

/**
 * Every {@link Provider}, for validation and messages: the names of the registry's kits, in its
 * order, so a provider is listed exactly where it has a kit.
 *
 * @example
 * ```ts
 * if (!(PROVIDERS as readonly string[]).includes(body.provider)) return new Response("unknown provider", { status: 400 });
 * ```
 */
export const PROVIDERS: readonly Provider[] = /* @__PURE__ */ Object.keys(KITS) as Provider[];

/** Throws a typed error for a name that is not a {@link Provider} (reachable only from JavaScript or a cast). */
export function assertProvider(provider: string): asserts provider is Provider {
  if (!(PROVIDERS as readonly string[]).includes(provider)) {
    throw new ToolCallStreamError({
      code: "unknown-provider",
      message: `Unknown provider ${JSON.stringify(provider)}; expected one of ${PROVIDERS.join(", ")}, or a ProviderProtocol.`,
    });
  }
}

/**
 * The protocol of a built-in provider's name, or the given {@link ProviderProtocol} itself.
 * Throws `unknown-provider` for a name that is neither (and for an object without `createDecoder`).
 *
 * @example
 * ```ts
 * const { framing, createDecoder } = providerProtocol("anthropic");
 * ```
 */
export function providerProtocol(provider: Provider | ProviderProtocol): ProviderProtocol {
  if (typeof provider === "object" && provider !== null && typeof provider.createDecoder === "function")
    return provider;
  assertProvider(String(provider));
  return KITS[provider as Provider].protocol;
}

/**
 * Creates the pure decoder of a protocol.
 *
 * @example
 * ```ts
 * const deltas: ProviderDelta[] = [];
 * const decoder = createProviderDecoder("anthropic", (delta) => deltas.push(delta));
 * decoder.decode({ event: "message_stop", data: '{"type":"message_stop"}' });
 * decoder.end();
 * ```
 */
export function createProviderDecoder(provider: Provider | ProviderProtocol, emit: Emit): ProviderDecoder {
  return providerProtocol(provider).createDecoder(emit);
}

/**
 * Creates the provider stage for a protocol: a built-in provider's name reads with the decoder of
 * its protocol (`providerProtocol(name)`), as the main entry's `streamToolCalls` does, its plug-ins
 * included (OpenAI Chat's `ChatCitations`, OpenAI Responses' `ResponsesCitations`, Bedrock's
 * `ConverseCitations` and `AnthropicCitingDecoder`), where a kit's `DeltaStream` keeps less by
 * default. `limits` are the accumulator's (pass the same): the stages that keep something whole
 * apart from the calls bound it by them as they read (a Gemini call streamed in `partialArgs`, a
 * Bedrock server tool's result, citations, OpenAI Responses' approval requests); without them, by
 * the accumulator's defaults. Unlike `streamToolCalls`, the stage does not bound by `maxDepth`
 * what is kept for the next turn, nor the turn's text by `maxTextLength`.
 *
 * @example
 * ```ts
 * const limits = { maxArgumentsLength: 64 * 1024, maxToolCalls: 16 };
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(createProviderDeltaStream(provider, limits)) // provider: "openai", "anthropic", ... or a ProviderProtocol
 *   .pipeThrough(new ToolCallAccumulatorStream(limits));
 * ```
 */
export function createProviderDeltaStream(
  provider: Provider | ProviderProtocol,
  limits?: DecoderLimits,
): TransformStream<FramedMessage, ProviderDelta> {
  const { createDecoder } = providerProtocol(provider);
  return new ProviderDecoderStream((emit) => createDecoder(emit, limits));
}
