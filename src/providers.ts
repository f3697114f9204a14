import { AnthropicDecoder, AnthropicDeltaStream } from "./anthropic-delta-stream.ts";
import { ToolCallStreamError } from "./errors.ts";
import { GeminiDecoder, GeminiDeltaStream } from "./gemini-delta-stream.ts";
import { decodeOpenAIChatMessage, OpenAIChatDeltaStream } from "./openai-chat-delta-stream.ts";
import { OpenAIResponsesDecoder, OpenAIResponsesDeltaStream } from "./openai-responses-delta-stream.ts";
import type { Emit } from "./payload.ts";
import type { ProviderDelta, SSEMessage } from "./types.ts";

/**
 * The wire protocols tool-call-stream reads: `openai` is Chat Completions and every compatible
 * vendor, `openai-responses` the Responses API, `anthropic` the Messages API, `gemini` Gemini and
 * Vertex AI `streamGenerateContent?alt=sse`.
 */
export type Provider = "openai" | "openai-responses" | "anthropic" | "gemini";

/**
 * Every {@link Provider}, for validation and messages.
 *
 * @example
 * ```ts
 * if (!(PROVIDERS as readonly string[]).includes(body.provider)) return new Response("unknown provider", { status: 400 });
 * ```
 */
export const PROVIDERS: readonly Provider[] = ["openai", "openai-responses", "anthropic", "gemini"];

/** A provider's pure decoder: SSE messages in, normalized deltas out through the `emit` it was made with. */
export interface ProviderDecoder {
  /** Decodes one SSE message. */
  decode(message: SSEMessage): void;
  /** The input ended. */
  end(): void;
}

const DECODERS: { readonly [P in Provider]: (emit: Emit) => ProviderDecoder } = {
  openai: (emit) => ({ decode: (message) => decodeOpenAIChatMessage(message, emit), end: () => {} }),
  "openai-responses": (emit) => new OpenAIResponsesDecoder(emit),
  anthropic: (emit) => {
    const decoder = new AnthropicDecoder();
    return { decode: (message) => decoder.decode(message, emit), end: () => {} };
  },
  gemini: (emit) => {
    const decoder = new GeminiDecoder();
    return { decode: (message) => decoder.decode(message, emit), end: () => {} };
  },
};

/** Throws a typed error for a name that is not a {@link Provider} (reachable only from JavaScript or a cast). */
export function assertProvider(provider: string): asserts provider is Provider {
  if (!(PROVIDERS as readonly string[]).includes(provider)) {
    throw new ToolCallStreamError({
      code: "unknown-provider",
      message: `Unknown provider ${JSON.stringify(provider)}; expected one of ${PROVIDERS.join(", ")}.`,
    });
  }
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
export function createProviderDecoder(provider: Provider, emit: Emit): ProviderDecoder {
  assertProvider(provider);
  return DECODERS[provider](emit);
}

/**
 * Creates the provider stage for a protocol.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(createProviderDeltaStream(provider)) // provider: "openai", "anthropic", ...
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export function createProviderDeltaStream(provider: Provider): TransformStream<SSEMessage, ProviderDelta> {
  assertProvider(provider);
  switch (provider) {
    case "openai":
      return new OpenAIChatDeltaStream();
    case "openai-responses":
      return new OpenAIResponsesDeltaStream();
    case "anthropic":
      return new AnthropicDeltaStream();
    case "gemini":
      return new GeminiDeltaStream();
  }
}
