/**
 * The provider stage's contract: framed messages in, normalized deltas out. Every built-in
 * protocol implements {@link ProviderDecoder}, and so can an application's own (an in-house
 * gateway's): a {@link ProviderProtocol} names the decoder and, when the body is not SSE, its
 * framing, and `streamToolCalls` reads it like a built-in one.
 *
 * @module
 */
import type { TurnBlocks } from "../shared/turn-blocks.ts";
import type { FramedMessage, FramingClass } from "../framing/framing.ts";
import type { ProviderDelta } from "../shared/deltas.ts";

/** Where a provider decoder sends its normalized deltas. */
export type Emit = (delta: ProviderDelta) => void;

/**
 * A protocol's pure decoder for one response: framed messages in, normalized deltas out through
 * the `emit` it was made with. It never throws for a payload it cannot read: it emits an `error`
 * delta (`malformed-payload`) and goes on.
 *
 * @example
 * ```ts
 * const deltas: ProviderDelta[] = [];
 * const decoder = createProviderDecoder("anthropic", (delta) => deltas.push(delta));
 * decoder.decode({ event: "message_stop", data: '{"type":"message_stop"}' });
 * decoder.end();
 * ```
 */
export interface ProviderDecoder {
  /** Decodes one message. */
  decode(message: FramedMessage): void;
  /**
   * The input ended: emit what is still held (a decoder that holds nothing does nothing). With
   * `fault` (the input failed: a read error, bytes the framing could not read), what only waits to
   * prove itself is dropped rather than given (OpenAI Chat's finish held after a call): the chain
   * ends with an `error` and an `abort`, its open calls discarded.
   */
  end(fault?: unknown): void;
}

/**
 * The accumulator's limits, as the chain gives them to a protocol's decoder: a decoder that keeps
 * items whole apart from the calls (OpenAI Responses' approval requests, which are no calls)
 * counts them against `maxToolCalls` and bounds their arguments by `maxArgumentsLength`, with the
 * accumulator's errors (`too-many-tool-calls`, `arguments-too-large`).
 */
export interface DecoderLimits {
  /**
   * As the accumulator's `maxToolCalls`: most items of each kind the decoder keeps (approval
   * requests, citations, annotations), each kind counted apart.
   * @defaultValue 1024
   */
  maxToolCalls?: number | undefined;
  /**
   * As the accumulator's `maxArgumentsLength`: largest arguments of one item the decoder holds (an
   * approval request's, a server tool's result as it grows), in characters (UTF-16 code units).
   * @defaultValue 4194304
   */
  maxArgumentsLength?: number | undefined;
  /**
   * As the main entry's `streamToolCalls`' `maxTextLength`, which its chain gives the decoder:
   * `ChatCitations` and `ResponsesCitations` bound by it what the decoder holds until its end and no
   * delta carries (a refusal; OpenAI Chat's reasoning fields), with the error `text-too-large`.
   * @defaultValue 4194304
   */
  maxTextLength?: number | undefined;
}

/**
 * A wire protocol that `streamToolCalls` (and {@link ProviderDecoderStream}) can read: its name,
 * its decoder, and the framing of its bodies. Pass one as the `provider` option to read a
 * protocol the library does not ship.
 *
 * The decoder maps each message onto the delta union: `text-delta` and `reasoning-delta` for
 * text, a `tool-call-chunk` per fragment of a call (its `index` or `id` tells calls apart; the
 * accumulator joins fragments, merges names and ids, and enforces the limits), `tool-call-end`
 * where the protocol ends a call, `finish` with the raw and normalized reason, `usage`, `error`
 * for a provider error, and `done` at the protocol's end of the response.
 *
 * @example An in-house gateway that streams `{"kind":"text"|"call"|"args"|"end", ...}` lines over SSE
 * ```ts
 * const gateway: ProviderProtocol = {
 *   name: "acme-gateway",
 *   createDecoder: (emit) => ({
 *     decode(message) {
 *       const event = JSON.parse(message.data);
 *       if (event.kind === "text") emit({ type: "text-delta", text: event.text });
 *       if (event.kind === "call") emit({ type: "tool-call-chunk", index: event.slot, id: event.id, name: event.tool });
 *       if (event.kind === "args") emit({ type: "tool-call-chunk", index: event.slot, argumentsDelta: event.json });
 *       if (event.kind === "end") emit({ type: "finish", rawReason: event.reason, reason: event.reason === "tools" ? "tool-calls" : "stop" });
 *     },
 *     end() {},
 *   }),
 * };
 * for await (const event of streamToolCalls(response, { provider: gateway })) console.log(event.type);
 * ```
 */
export interface ProviderProtocol {
  /** The protocol's name, for messages. */
  readonly name: string;
  /**
   * How the body's bytes are cut into messages.
   * @defaultValue `SSEDecoder` (Server-Sent Events)
   */
  readonly framing?: FramingClass | undefined;
  /**
   * Creates the decoder for one response; `limits` are the accumulator's, for what a decoder keeps
   * whole apart from the calls (OpenAI Responses' approval requests).
   */
  createDecoder(emit: Emit, limits?: DecoderLimits): ProviderDecoder;
  /**
   * The message of one object an SDK yielded (its parsed chunk or event), for `streamToolCalls`
   * given an SDK's stream instead of bytes.
   * @defaultValue `{ data: "", value }`: the object is the payload the wire would carry
   */
  readonly messageOf?: ((value: unknown) => FramedMessage) | undefined;
  /**
   * The message an SDK's stream stands for when it ends normally, when the SDK drops the wire's
   * last message (openai-node reads Chat Completions' `[DONE]` and yields nothing for it).
   */
  readonly endOfObjects?: FramedMessage | undefined;
  /**
   * How the decoder writes an SDK's objects (a call's arguments given as an object) as JSON text:
   * `streamToolCalls` gives it to each message of an SDK's stream as `FramedMessage.jsonText`. The
   * main entry's `streamToolCalls` gives every protocol that names none the library's writer
   * (`JSON.stringify`'s rules, `toJSON`, boxed primitives and cycles included, with a stack of its
   * own); a provider subpath's names none, so that its bundle holds none: its decoders write an
   * SDK's objects as the JSON data the SDKs give (parsed JSON), with the chain's own writer.
   * @defaultValue none: the decoder's own
   */
  readonly jsonText?: ((value: unknown) => string | undefined) | undefined;
  /**
   * The accumulator's plug-in for a turn of blocks, items, parts or steps: `turnBlocks` (from
   * `tool-call-stream/core`), which keeps where its text runs, calls and reasoning parts came (the
   * `finish` event's `order`, which the next turn follows), its approval requests and the calls the
   * provider withdrew. Anthropic, OpenAI Responses, Gemini, Bedrock and Gemini Interactions name
   * it, each with only the parts its own decoder makes (Gemini's keeps the order alone, OpenAI
   * Responses' no withdrawn call, the others no approval request): a protocol of the application's
   * own made from a built-in one (`{ ...anthropicProtocol, createDecoder }`) with a decoder that
   * makes other pieces names `turnBlocks` itself. A protocol whose turn is text, then calls (OpenAI
   * Chat, Cohere, Ollama) names none, and its bundle holds none. The main entry's `streamToolCalls`
   * and `ToolCallChain` give it to a protocol of the application's own that names none (as they did
   * before it was a plug-in).
   * @defaultValue none: no `order`, approval requests or withdrawn calls are kept
   */
  readonly turnBlocks?: TurnBlocks | undefined;
}

/**
 * The stage of any {@link ProviderDecoder}: framed messages in, normalized deltas out. Every
 * built-in provider stage is one (`new OpenAIChatDeltaStream()` and the others).
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new ProviderDecoderStream(gateway.createDecoder))
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class ProviderDecoderStream extends TransformStream<FramedMessage, ProviderDelta> {
  /** Creates the stage around a decoder made by `createDecoder`. */
  constructor(createDecoder: (emit: Emit) => ProviderDecoder) {
    let decoder: ProviderDecoder;
    super({
      start(controller) {
        decoder = createDecoder((delta) => controller.enqueue(delta));
      },
      transform(message) {
        decoder.decode(message);
      },
      flush() {
        decoder.end();
      },
    });
  }
}
