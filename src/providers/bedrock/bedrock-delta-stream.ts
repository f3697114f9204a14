import type { FramedMessage } from "../../framing/framing.ts";
import { ToolCallStreamError } from "../../shared/errors.ts";
import { isRecord } from "../../shared/values.ts";
import { AnthropicDecoder } from "../anthropic/anthropic-delta-stream.ts";
import { providerError, readJsonObject } from "../payload.ts";
import { ProviderDecoderStream, type DecoderLimits, type Emit, type ProviderDecoder } from "../provider-decoder.ts";
import { DECODER_LIMITS, decoderLimits } from "../decoder-limits.ts";
import type { ConverseCitations } from "./bedrock-citations.ts";
import { BedrockConverseDecoder } from "./bedrock-converse.ts";
import { parseJsonText } from "../../shared/long-member-name.ts";

/**
 * Amazon Bedrock streams to normalized deltas, from the messages of
 * {@link AwsEventStreamDecoderStream}: **ConverseStream** (every model: Claude, Nova, Llama,
 * Mistral, ...) and **InvokeModelWithResponseStream** for Claude, whose events are `chunk`s.
 *
 * ConverseStream events are read as {@link BedrockConverseDecoder} describes. InvokeModel's
 * `chunk` messages carry `{"bytes": "<base64>"}`, one Anthropic Messages event each: decoded and
 * handed to the Anthropic decoder, so a call completes at its `content_block_stop` as with
 * Anthropic. A message of `:message-type` `exception` (`throttlingException`,
 * `modelStreamErrorException`, `validationException`, ...) or `error` becomes an `error` delta of
 * code `provider-error` whose `data` is `{ [exceptionType or errorCode]: payload }`, the shape of
 * the API's own stream union (an exception member of one-key JSON or of an SDK's objects too, as
 * `{"throttlingException": {...}}`); the stream then ends without a finish and open calls are discarded.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new AwsEventStreamDecoderStream())
 *   .pipeThrough(new BedrockDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class BedrockDeltaStream extends ProviderDecoderStream {
  /**
   * Creates the stage (InvokeModel's chunks read by the Anthropic decoder); `limits` bound a
   * Converse server tool's result as it grows and the Anthropic decoder's (as the accumulator's:
   * `maxArgumentsLength`, 4 MiB by default). With `converseCitations: ConverseCitations`, a cited
   * ConverseStream text block is kept as its `citationsContent` block part (as the main entry's
   * `bedrock` reads); without it, the citations are left out. An option it does not know is a
   * `TypeError`.
   */
  constructor(limits: DecoderLimits & { converseCitations?: typeof ConverseCitations | undefined } = {}) {
    decoderLimits(limits, { ...DECODER_LIMITS, converseCitations: 0 });
    // The decoders get the limits alone: the plug-in is the stage's (InvokeModel's decoder checks its names).
    const { converseCitations, ...decoder } = limits;
    super((emit) => new BedrockDecoder(emit, AnthropicDecoder, decoder, converseCitations));
  }
}

/**
 * The decoder of the Anthropic Messages events InvokeModelWithResponseStream's chunks carry for
 * Claude: `AnthropicDecoder`, or `AnthropicCitingDecoder` to keep the text blocks' citations, given
 * to {@link BedrockDecoder} (and to the `invokeModel` option of `tool-call-stream/bedrock`'s
 * `streamToolCalls`) as a plug-in, so that a bundle that reads ConverseStream alone holds no
 * Anthropic decoder. It gets the accumulator's limits.
 *
 * @example
 * ```ts
 * const invokeModel: InvokeModelDecoder = AnthropicDecoder;
 * ```
 */
export type InvokeModelDecoder = new (emit: Emit, limits?: DecoderLimits) => ProviderDecoder;

/**
 * The pure decoder behind {@link BedrockDeltaStream}: one instance per response.
 *
 * @example
 * ```ts
 * const deltas: ProviderDelta[] = [];
 * const decoder = new BedrockDecoder((delta) => deltas.push(delta));
 * for (const message of messages) decoder.decode(message); // from AwsEventStreamDecoder
 * decoder.end();
 * ```
 */
export class BedrockDecoder implements ProviderDecoder {
  readonly #emit: Emit;
  readonly #invokeModel: InvokeModelDecoder | undefined;
  readonly #limits: DecoderLimits | undefined;
  readonly #cited: typeof ConverseCitations | undefined;
  #converse: BedrockConverseDecoder | undefined;
  #invoke: ProviderDecoder | undefined;
  /** One decoder for every chunk's bytes, not one per chunk. */
  readonly #utf8 = new TextDecoder();

  /**
   * Creates a decoder that reports through `emit`, reading InvokeModel's chunks with
   * `invokeModel` (pass `AnthropicDecoder`, or `AnthropicCitingDecoder`), made with `limits`. Without
   * it, an InvokeModel body throws a `ToolCallStreamError` of code `unknown-provider` at its first chunk.
   * ConverseStream's text blocks keep their citations with `converseCitations` (`ConverseCitations`).
   * A name in `limits` that is no limit is a `TypeError`.
   */
  constructor(
    emit: Emit,
    invokeModel?: InvokeModelDecoder,
    limits?: DecoderLimits,
    converseCitations?: typeof ConverseCitations,
  ) {
    if (limits) decoderLimits(limits);
    this.#emit = emit;
    this.#invokeModel = invokeModel;
    this.#limits = limits;
    this.#cited = converseCitations;
  }

  /** Decodes one event-stream message. */
  decode(message: FramedMessage): void {
    const type = message.headers?.[":message-type"];
    if (type === "exception" || type === "error") return this.#onException(message, type);
    // The framing's last message cut short (a fault, said below): InvokeModel's held call goes out complete first.
    if (message.truncated) this.end();
    // Only InvokeModel has chunks: each goes to its reader. Any other event (an SDK's exception member, a
    // type added later) goes to the Converse reader, which reports an exception and ignores the unknown.
    if (message.event === "chunk") {
      if (!this.#invokeModel)
        throw new ToolCallStreamError({
          code: "unknown-provider",
          message: "InvokeModel chunks need the `invokeModel: AnthropicDecoder` plug-in.",
        });
      return this.#onChunk(message, (this.#invoke ??= new this.#invokeModel(this.#emit, this.#limits)));
    }
    (this.#converse ??= new BedrockConverseDecoder(this.#emit, this.#limits, this.#cited)).decode(message);
  }

  /** The input ended: InvokeModel's decoder gives what it holds (a stopped `tool_use`, complete). */
  end(): void {
    this.#invoke?.end();
  }

  #onChunk(message: FramedMessage, anthropic: ProviderDecoder): void {
    const payload = readJsonObject(message, this.#emit);
    if (!payload) return;
    let data: string;
    try {
      data = utf8FromBase64(payload["bytes"], this.#utf8);
    } catch {
      return this.#emit({
        type: "error",
        error: { code: "malformed-payload", message: "A chunk's bytes are not base64; it was skipped." },
      });
    }
    anthropic.decode({ data });
  }

  #onException(message: FramedMessage, type: "exception" | "error"): void {
    const name = message.event ?? type;
    // Only the event-stream framing writes these messages: their payload is text, never parsed yet.
    let detail: unknown;
    try {
      detail = parseJsonText(message.data);
    } catch {
      // An error message carries its text in a header; a payload that is not JSON is kept as text.
      detail = message.data;
    }
    if (!isRecord(detail)) detail = { message: type === "error" ? message.headers![":error-message"] : detail };
    // A fault withdraws nothing: the call InvokeModel's decoder holds goes out complete first.
    this.end();
    this.#emit(providerError({ [name]: detail }, `The provider reported ${name} inside the stream.`));
    this.#emit({ type: "done" }); // an exception message is the stream's last
  }
}

/** The UTF-8 text of a base64 string (throws for anything else). */
function utf8FromBase64(value: unknown, utf8: TextDecoder): string {
  if (value instanceof Uint8Array) return utf8.decode(value); // the AWS SDK's chunk.bytes
  if (typeof value !== "string") throw new TypeError(); // caught: a malformed-payload error
  // atob's characters are all below 256: each is one byte.
  return utf8.decode(Uint8Array.from(atob(value), (char) => char.charCodeAt(0)));
}
