import type { FramedMessage } from "../framing/framing.ts";
import type { ProviderDelta } from "../shared/deltas.ts";
import { ToolCallStreamError } from "../shared/errors.ts";
import { AnthropicDeltaStream } from "./anthropic/anthropic-delta-stream.ts";
import { anthropicProtocol } from "./anthropic/anthropic-protocol.ts";
import { BedrockDeltaStream } from "./bedrock/bedrock-delta-stream.ts";
import { bedrockProtocol } from "./bedrock/bedrock-protocol.ts";
import { CohereDeltaStream } from "./cohere/cohere-delta-stream.ts";
import { cohereProtocol } from "./cohere/cohere-protocol.ts";
import { GeminiDeltaStream } from "./gemini/gemini-delta-stream.ts";
import { geminiProtocol } from "./gemini/gemini-protocol.ts";
import { OllamaDeltaStream } from "./ollama/ollama-delta-stream.ts";
import { ollamaProtocol } from "./ollama/ollama-protocol.ts";
import { OpenAIChatDeltaStream } from "./openai-chat/openai-chat-delta-stream.ts";
import { openAIChatProtocol } from "./openai-chat/openai-chat-protocol.ts";
import { OpenAIResponsesDeltaStream } from "./openai-responses/openai-responses-delta-stream.ts";
import { openAIResponsesProtocol } from "./openai-responses/openai-responses-protocol.ts";
import { type Emit, type ProviderDecoder, ProviderDecoderStream, type ProviderProtocol } from "./provider-decoder.ts";

/**
 * The wire protocols tool-call-stream reads: `openai` is Chat Completions and every compatible
 * vendor (Mistral's native API included), `openai-responses` the Responses API, `anthropic` the
 * Messages API, `gemini` Gemini and Vertex AI `streamGenerateContent` (SSE with `alt=sse`, a JSON
 * array without), `bedrock` Amazon Bedrock ConverseStream and InvokeModelWithResponseStream (AWS
 * event stream), `cohere` Cohere v2 chat, `ollama` Ollama's native `/api/chat` (NDJSON). Any other
 * protocol can be read through a {@link ProviderProtocol} of its own.
 */
export type Provider = "openai" | "openai-responses" | "anthropic" | "gemini" | "bedrock" | "cohere" | "ollama";

/**
 * Every {@link Provider}, for validation and messages.
 *
 * @example
 * ```ts
 * if (!(PROVIDERS as readonly string[]).includes(body.provider)) return new Response("unknown provider", { status: 400 });
 * ```
 */
export const PROVIDERS: readonly Provider[] = [
  "openai",
  "openai-responses",
  "anthropic",
  "gemini",
  "bedrock",
  "cohere",
  "ollama",
];

/** What the registry holds of one built-in provider: its protocol and its stage. */
interface ProviderEntry {
  readonly protocol: ProviderProtocol;
  /** The provider's own stage class, so that `createProviderDeltaStream("anthropic")` is an `AnthropicDeltaStream`. */
  readonly DeltaStream: new () => ProviderDecoderStream;
}

/** The built-in providers: mapped over {@link Provider}, so a name without an entry does not compile. */
const PROVIDER_ENTRIES: { readonly [P in Provider]: ProviderEntry } = {
  openai: { protocol: openAIChatProtocol, DeltaStream: OpenAIChatDeltaStream },
  "openai-responses": { protocol: openAIResponsesProtocol, DeltaStream: OpenAIResponsesDeltaStream },
  anthropic: { protocol: anthropicProtocol, DeltaStream: AnthropicDeltaStream },
  gemini: { protocol: geminiProtocol, DeltaStream: GeminiDeltaStream },
  bedrock: { protocol: bedrockProtocol, DeltaStream: BedrockDeltaStream },
  cohere: { protocol: cohereProtocol, DeltaStream: CohereDeltaStream },
  ollama: { protocol: ollamaProtocol, DeltaStream: OllamaDeltaStream },
};

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
  return PROVIDER_ENTRIES[provider as Provider].protocol;
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
 * Creates the provider stage for a protocol.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(createProviderDeltaStream(provider)) // provider: "openai", "anthropic", ... or a ProviderProtocol
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export function createProviderDeltaStream(
  provider: Provider | ProviderProtocol,
): TransformStream<FramedMessage, ProviderDelta> {
  if (typeof provider === "string") {
    assertProvider(provider);
    return new PROVIDER_ENTRIES[provider].DeltaStream();
  }
  return new ProviderDecoderStream(providerProtocol(provider).createDecoder);
}
