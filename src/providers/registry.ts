import { AwsEventStreamDecoder } from "../framing/aws-event-stream-decoder-stream.ts";
import type { FramedMessage } from "../framing/framing.ts";
import { DetectingFraming } from "../framing/framing-detect-stream.ts";
import { NdjsonDecoder } from "../framing/ndjson-decoder-stream.ts";
import type { ProviderDelta } from "../shared/deltas.ts";
import { ToolCallStreamError } from "../shared/errors.ts";
import { AnthropicDecoder, AnthropicDeltaStream } from "./anthropic/anthropic-delta-stream.ts";
import { BedrockDecoder, BedrockDeltaStream } from "./bedrock/bedrock-delta-stream.ts";
import { CohereDecoder, CohereDeltaStream } from "./cohere/cohere-delta-stream.ts";
import { GeminiDecoder, GeminiDeltaStream } from "./gemini/gemini-delta-stream.ts";
import { decodeOpenAIChatMessage, OpenAIChatDeltaStream } from "./openai-chat/openai-chat-delta-stream.ts";
import { OllamaDecoder, OllamaDeltaStream } from "./ollama/ollama-delta-stream.ts";
import {
  OpenAIResponsesDecoder,
  OpenAIResponsesDeltaStream,
} from "./openai-responses/openai-responses-delta-stream.ts";
import { ProviderDecoderStream, type Emit, type ProviderDecoder, type ProviderProtocol } from "./provider-decoder.ts";

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

/** A decoder whose `decode` takes the `emit` per call, made into a {@link ProviderDecoder}. */
function bound(decoder: { decode(message: FramedMessage, emit: Emit): void }, emit: Emit): ProviderDecoder {
  return { decode: (message) => decoder.decode(message, emit), end() {} };
}

/**
 * The built-in protocols. Bedrock's bodies are always the AWS event stream and Ollama's NDJSON;
 * the others are Server-Sent Events, read through {@link DetectingFraming} so that a Gemini JSON
 * array (or a body that is plainly another framing) is read as what it is.
 */
const PROTOCOLS: { readonly [P in Provider]: ProviderProtocol } = {
  openai: {
    name: "openai",
    framing: DetectingFraming,
    createDecoder: (emit) => ({ decode: (message) => decodeOpenAIChatMessage(message, emit), end() {} }),
  },
  "openai-responses": {
    name: "openai-responses",
    framing: DetectingFraming,
    createDecoder: (emit) => new OpenAIResponsesDecoder(emit),
  },
  anthropic: {
    name: "anthropic",
    framing: DetectingFraming,
    createDecoder: (emit) => bound(new AnthropicDecoder(), emit),
  },
  gemini: { name: "gemini", framing: DetectingFraming, createDecoder: (emit) => bound(new GeminiDecoder(), emit) },
  bedrock: { name: "bedrock", framing: AwsEventStreamDecoder, createDecoder: (emit) => new BedrockDecoder(emit) },
  cohere: { name: "cohere", framing: DetectingFraming, createDecoder: (emit) => new CohereDecoder(emit) },
  ollama: { name: "ollama", framing: NdjsonDecoder, createDecoder: (emit) => new OllamaDecoder(emit) },
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
  return PROTOCOLS[provider as Provider];
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
  const protocol = providerProtocol(provider);
  switch (protocol) {
    case PROTOCOLS.openai:
      return new OpenAIChatDeltaStream();
    case PROTOCOLS["openai-responses"]:
      return new OpenAIResponsesDeltaStream();
    case PROTOCOLS.anthropic:
      return new AnthropicDeltaStream();
    case PROTOCOLS.gemini:
      return new GeminiDeltaStream();
    case PROTOCOLS.bedrock:
      return new BedrockDeltaStream();
    case PROTOCOLS.cohere:
      return new CohereDeltaStream();
    case PROTOCOLS.ollama:
      return new OllamaDeltaStream();
  }
  return new ProviderDecoderStream(protocol.createDecoder);
}
