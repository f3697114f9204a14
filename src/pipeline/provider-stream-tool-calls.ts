import { anthropicProtocol } from "../providers/anthropic/anthropic-protocol.ts";
import { bedrockProtocolWith } from "../providers/bedrock/bedrock-protocol.ts";
import { cohereProtocol } from "../providers/cohere/cohere-protocol.ts";
import { geminiProtocolWith } from "../providers/gemini/gemini-protocol.ts";
import { interactionsProtocol } from "../providers/gemini-interactions/gemini-interactions-protocol.ts";
import { ollamaProtocol } from "../providers/ollama/ollama-protocol.ts";
import { openAIChatProtocolWith } from "../providers/openai-chat/openai-chat-protocol.ts";
import { openAIResponsesProtocolWith } from "../providers/openai-responses/openai-responses-protocol.ts";
import type { ProviderProtocol } from "../providers/provider-decoder.ts";
import type { ToolDefinition } from "../schema/tool-schema.ts";
import type { TypedToolCallEvent } from "../schema/tool-types.ts";
import type { ChainInput } from "./chain-pump.ts";
import type { BedrockOptions, OpenAIChatOptions, OpenAIResponsesOptions } from "./provider-stream-options.ts";
import {
  type ProtocolBatchOptions,
  type ProtocolStreamOptions,
  toolCallBatchStream,
  toolCallEventStream,
} from "./tool-call-streams.ts";

export type { BedrockOptions, OpenAIChatOptions, OpenAIResponsesOptions } from "./provider-stream-options.ts";

// Each provider subpath exports these as its `streamToolCalls` and `streamToolCallBatches`: the
// same functions as the main entry's, bound to one protocol, so that a bundle holds that provider
// alone (the main entry's reads the `provider` option through the registry of all of them). Each
// built-in protocol names its framing, so none brings the SSE default of a protocol that names none.

/**
 * `streamToolCalls` bound to one protocol: the options of `streamToolCalls` but `provider`, and
 * the protocol's own (`Extra`: Bedrock's `invokeModel`).
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream/anthropic";
 * for await (const event of streamToolCalls(response)) if (event.type === "tool-call") run(event);
 * ```
 */
export type ProtocolStreamToolCalls<Extra extends object = Record<never, never>> = <
  const Tools extends readonly ToolDefinition[] = readonly ToolDefinition[],
>(
  input: ChainInput,
  options?: ProtocolStreamOptions<Tools> & Extra,
) => ReadableStream<TypedToolCallEvent<Tools>>;

/**
 * `streamToolCallBatches` bound to one protocol: the options of `streamToolCallBatches` but `provider`.
 *
 * @example
 * ```ts
 * import { streamToolCallBatches } from "tool-call-stream/openai";
 * const batches = streamToolCallBatches(response);
 * ```
 */
export type ProtocolStreamToolCallBatches<Extra extends object = Record<never, never>> = <
  const Tools extends readonly ToolDefinition[] = readonly ToolDefinition[],
>(
  input: ChainInput,
  options?: ProtocolBatchOptions<Tools> & Extra,
) => ReadableStream<TypedToolCallEvent<Tools>[]>;

const events =
  (protocol: ProviderProtocol): ProtocolStreamToolCalls =>
  (input, options) =>
    toolCallEventStream(protocol, protocol.framing!, input, options);
const batches =
  (protocol: ProviderProtocol): ProtocolStreamToolCallBatches =>
  (input, options) =>
    toolCallBatchStream(protocol, protocol.framing!, input, options);

/** A protocol made per call with the plug-in its options give (or none): Bedrock's, Responses'. */
function plugged<Extra extends object, Stream extends typeof toolCallEventStream | typeof toolCallBatchStream>(
  protocolOf: (options: Extra | undefined) => ProviderProtocol,
  stream: Stream,
): Stream extends typeof toolCallEventStream ? ProtocolStreamToolCalls<Extra> : ProtocolStreamToolCallBatches<Extra> {
  return ((input: ChainInput, options?: ProtocolBatchOptions & Extra) => {
    const protocol = protocolOf(options);
    return stream(protocol, protocol.framing!, input, options);
  }) as never;
}

const bedrock = (options: BedrockOptions | undefined): ProviderProtocol =>
  bedrockProtocolWith(options?.invokeModel, options?.converseCitations);
const chat = (options: OpenAIChatOptions | undefined): ProviderProtocol => openAIChatProtocolWith(options?.jsonText);
const responses = (options: OpenAIResponsesOptions | undefined): ProviderProtocol =>
  openAIResponsesProtocolWith(options?.builtInCalls);

/**
 * `streamToolCalls` for OpenAI Chat Completions and compatible servers (`tool-call-stream/openai`).
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream/openai";
 * for await (const event of streamToolCalls(await fetch(url, init))) console.log(event.type);
 * ```
 */
export const openAIChatToolCalls: ProtocolStreamToolCalls<OpenAIChatOptions> = /* @__PURE__ */ plugged(
  chat,
  toolCallEventStream,
);
/**
 * `streamToolCallBatches` for OpenAI Chat Completions and compatible servers.
 *
 * @example
 * ```ts
 * import { streamToolCallBatches } from "tool-call-stream/openai";
 * const batches = streamToolCallBatches(await fetch(url, init)); // arrays of the events each chunk had ready
 * ```
 */
export const openAIChatToolCallBatches: ProtocolStreamToolCallBatches<OpenAIChatOptions> = /* @__PURE__ */ plugged(
  chat,
  toolCallBatchStream,
);
/**
 * `streamToolCalls` for the OpenAI Responses API (`tool-call-stream/openai-responses`).
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream/openai-responses";
 * for await (const event of streamToolCalls(await fetch(url, init))) console.log(event.type);
 * ```
 */
export const openAIResponsesToolCalls: ProtocolStreamToolCalls<OpenAIResponsesOptions> = /* @__PURE__ */ plugged(
  responses,
  toolCallEventStream,
);
/**
 * `streamToolCallBatches` for the OpenAI Responses API.
 *
 * @example
 * ```ts
 * import { streamToolCallBatches } from "tool-call-stream/openai-responses";
 * const batches = streamToolCallBatches(await fetch(url, init)); // arrays of the events each chunk had ready
 * ```
 */
export const openAIResponsesToolCallBatches: ProtocolStreamToolCallBatches<OpenAIResponsesOptions> =
  /* @__PURE__ */ plugged(responses, toolCallBatchStream);
/**
 * `streamToolCalls` for Anthropic Messages (`tool-call-stream/anthropic`).
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream/anthropic";
 * for await (const event of streamToolCalls(await fetch(url, init))) console.log(event.type);
 * ```
 */
export const anthropicToolCalls: ProtocolStreamToolCalls = /* @__PURE__ */ events(anthropicProtocol);
/**
 * `streamToolCallBatches` for Anthropic Messages.
 *
 * @example
 * ```ts
 * import { streamToolCallBatches } from "tool-call-stream/anthropic";
 * const batches = streamToolCallBatches(await fetch(url, init)); // arrays of the events each chunk had ready
 * ```
 */
export const anthropicToolCallBatches: ProtocolStreamToolCallBatches = /* @__PURE__ */ batches(anthropicProtocol);
/**
 * `streamToolCalls` for Gemini and Vertex AI (`tool-call-stream/gemini`). It keeps no grounding
 * (`GeminiGrounding`, left out for this bundle's budget): for the first candidate's
 * `groundingMetadata` and `citationMetadata` in `finish.reasoningParts`, build the chain from this
 * subpath's stages (`SSEDecoderStream`, or `JsonArrayDecoderStream` for a body without `alt=sse`,
 * then `GeminiDeltaStream` and `ToolCallAccumulatorStream`), which keeps them, or use the main entry's.
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream/gemini";
 * for await (const event of streamToolCalls(await fetch(url, init))) console.log(event.type);
 * ```
 */
export const geminiToolCalls: ProtocolStreamToolCalls = /* @__PURE__ */ events(
  /* @__PURE__ */ geminiProtocolWith(undefined),
);
/**
 * `streamToolCallBatches` for Gemini and Vertex AI: without the grounding, as `streamToolCalls`
 * from `tool-call-stream/gemini`.
 *
 * @example
 * ```ts
 * import { streamToolCallBatches } from "tool-call-stream/gemini";
 * const batches = streamToolCallBatches(await fetch(url, init)); // arrays of the events each chunk had ready
 * ```
 */
export const geminiToolCallBatches: ProtocolStreamToolCallBatches = /* @__PURE__ */ batches(
  /* @__PURE__ */ geminiProtocolWith(undefined),
);
/**
 * `streamToolCalls` for Amazon Bedrock (`tool-call-stream/bedrock`).
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream/bedrock";
 * for await (const event of streamToolCalls(await fetch(url, init))) console.log(event.type);
 * ```
 */
export const bedrockToolCalls: ProtocolStreamToolCalls<BedrockOptions> = /* @__PURE__ */ plugged(
  bedrock,
  toolCallEventStream,
);
/**
 * `streamToolCallBatches` for Amazon Bedrock.
 *
 * @example
 * ```ts
 * import { streamToolCallBatches } from "tool-call-stream/bedrock";
 * const batches = streamToolCallBatches(await fetch(url, init)); // arrays of the events each chunk had ready
 * ```
 */
export const bedrockToolCallBatches: ProtocolStreamToolCallBatches<BedrockOptions> = /* @__PURE__ */ plugged(
  bedrock,
  toolCallBatchStream,
);
/**
 * `streamToolCalls` for Cohere v2 chat (`tool-call-stream/cohere`).
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream/cohere";
 * for await (const event of streamToolCalls(await fetch(url, init))) console.log(event.type);
 * ```
 */
export const cohereToolCalls: ProtocolStreamToolCalls = /* @__PURE__ */ events(cohereProtocol);
/**
 * `streamToolCallBatches` for Cohere v2 chat.
 *
 * @example
 * ```ts
 * import { streamToolCallBatches } from "tool-call-stream/cohere";
 * const batches = streamToolCallBatches(await fetch(url, init)); // arrays of the events each chunk had ready
 * ```
 */
export const cohereToolCallBatches: ProtocolStreamToolCallBatches = /* @__PURE__ */ batches(cohereProtocol);
/**
 * `streamToolCalls` for Ollama's `/api/chat` (`tool-call-stream/ollama`).
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream/ollama";
 * for await (const event of streamToolCalls(await fetch(url, init))) console.log(event.type);
 * ```
 */
export const ollamaToolCalls: ProtocolStreamToolCalls = /* @__PURE__ */ events(ollamaProtocol);
/**
 * `streamToolCallBatches` for Ollama's `/api/chat`.
 *
 * @example
 * ```ts
 * import { streamToolCallBatches } from "tool-call-stream/ollama";
 * const batches = streamToolCallBatches(await fetch(url, init)); // arrays of the events each chunk had ready
 * ```
 */
export const ollamaToolCallBatches: ProtocolStreamToolCallBatches = /* @__PURE__ */ batches(ollamaProtocol);
/**
 * `streamToolCalls` for Gemini's Interactions API (`tool-call-stream/gemini-interactions`).
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream/gemini-interactions";
 * for await (const event of streamToolCalls(await fetch(url, init))) console.log(event.type);
 * ```
 */
export const geminiInteractionsToolCalls: ProtocolStreamToolCalls = /* @__PURE__ */ events(interactionsProtocol);
/**
 * `streamToolCallBatches` for Gemini's Interactions API.
 *
 * @example
 * ```ts
 * import { streamToolCallBatches } from "tool-call-stream/gemini-interactions";
 * const batches = streamToolCallBatches(await fetch(url, init)); // arrays of the events each chunk had ready
 * ```
 */
export const geminiInteractionsToolCallBatches: ProtocolStreamToolCallBatches =
  /* @__PURE__ */ batches(interactionsProtocol);
