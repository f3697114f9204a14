import { SSEDecoder } from "../framing/sse-decoder-stream.ts";
import type { ProviderProtocol } from "../providers/provider-decoder.ts";
import type { FramedMessage } from "../framing/framing.ts";
import type { StreamErrorInfo } from "../shared/errors.ts";
import type { ToolCallEvent } from "../shared/events.ts";
import { blocksOf } from "../shared/turn-blocks.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import { ACCUMULATOR_CORE_OPTIONS } from "../accumulate/accumulator-option-names.ts";
import { FRAMING_OPTIONS } from "../framing/framing-options.ts";
import { DECODER_LIMITS } from "../providers/decoder-limits.ts";
import { FramedChain, type ToolCallChainOptions } from "./framed-chain.ts";

export type { ToolCallChainOptions } from "./framed-chain.ts";

/**
 * The whole chain as one synchronous core: bytes (or framed messages) in, accumulated events out
 * through `emit`. It owns the protocol's framing and decoder, the accumulator and the steps after
 * it, and knows nothing of streams: `streamToolCalls` and `streamToolCallBatches` are thin pull
 * adapters around it, and a caller that drives the input itself (a callback API, an SDK's parsed
 * chunks) can use it directly.
 *
 * Messages cut from a chunk are queued and decoded by `feed` (all of them, or as many as it is
 * told), so a caller that must hand out events one message at a time (live partial arguments)
 * decodes the rest later with `decode`. A step may hold events back (an asynchronous validation):
 * `held` is then a promise that settles once they have gone out; read no more input meanwhile.
 *
 * It never throws for what it is fed: a framing that cannot read the bytes, a message that cannot
 * be decoded (an SDK's object whose getter throws, arguments with a cycle), or an exceeded limit,
 * ends it with an `error` and an `abort` after everything before the fault, and calls `onStop`.
 * Unlike the main entry's `streamToolCalls`, it does not bound by `maxDepth` what is kept whole
 * for the next turn (a server tool's result block, a call's `providerMetadata`) or the provider's
 * objects an event carries (an error's `data`), nor the turn's text by `maxTextLength`: see docs/errors.md.
 *
 * @example
 * ```ts
 * const events: ToolCallEvent[] = [];
 * const chain = new ToolCallChain(providerProtocol("openai"), (event) => events.push(event), { repairer: repairJson });
 * for await (const chunk of body) chain.feed(chunk);
 * chain.end(); // events end with the `finish`
 * ```
 */
export class ToolCallChain {
  readonly #chain: FramedChain;

  /**
   * Creates the chain of `protocol` (its framing, SSE when it names none, its decoder and its
   * `turnBlocks`, the plug-in when it names none: as the main entry's `streamToolCalls` gives it to
   * a protocol object, so that one of the application's own keeps its approval requests and
   * withdrawn calls). Each stage is given its own options; a name none has is a `TypeError`.
   */
  constructor(protocol: ProviderProtocol, emit: (event: ToolCallEvent) => void, options: ToolCallChainOptions = {}) {
    checkOptionNames(options, CHAIN_OPTIONS);
    this.#chain = new FramedChain(protocol, protocol.framing ?? SSEDecoder, emit, {
      ...options,
      turnBlocks: blocksOf(protocol),
    });
  }

  /** True once the `finish` or `abort` has been made (it may still be held by a step). */
  get closed(): boolean {
    return this.#chain.closed;
  }

  /** A promise while a step holds events back, settling once they have gone out; else `undefined`. */
  get held(): PromiseLike<void> | undefined {
    return this.#chain.held;
  }

  /** How many framed messages wait to be decoded. */
  get queued(): number {
    return this.#chain.queued;
  }

  /** Waits until the steps hold nothing back. */
  released(): Promise<void> {
    return this.#chain.released();
  }

  /** Feeds one network chunk, then decodes up to `messages` of the queued messages (all by default). */
  feed(chunk: Uint8Array, messages?: number): void {
    this.#chain.feed(chunk, messages);
  }

  /** Feeds one message framed elsewhere (the framing is skipped), decoding it after those queued. */
  push(message: FramedMessage): void {
    this.#chain.push(message);
  }

  /** Decodes up to `max` queued messages; returns how many are still queued. */
  decode(max?: number): number {
    return this.#chain.decode(max);
  }

  /** The input ended: the framing's last message, the decoder's, then the `finish` (or `abort` when the provider did not finish). */
  end(): void {
    this.#chain.end();
  }

  /**
   * The input failed (a network error, an HTTP error status): first what {@link ToolCallChain.end}
   * gives, as for a body cut there (everything queued, the framing's last message when its payload
   * is complete, what the decoder holds until a later event: a refusal, reasoning fields; a finish
   * held back is dropped, its calls discarded), then an `error` event and an `abort` (reason `provider-error` for `http-error`,
   * `limit-exceeded` for `event-too-large`, else `stream-failed`).
   */
  fail(error: StreamErrorInfo): void {
    this.#chain.end(error);
  }

  /** The consumer stopped it (`signal`): an `abort` of reason `cancelled`, replacing a finish still held. */
  abort(reason: "cancelled" = "cancelled"): void {
    this.#chain.abort(reason);
  }
}

/** The accumulator's options but its `turnBlocks`, which the chain takes from the protocol. */
const { turnBlocks: _, ...ACCUMULATOR_OPTIONS } = ACCUMULATOR_CORE_OPTIONS;
/**
 * Every option of {@link ToolCallChainOptions}, each stage's and the chain's own: typed as its
 * keys, so that one added there and to no stage's table does not compile.
 */
const CHAIN_OPTIONS: Record<keyof ToolCallChainOptions, 0> = {
  ...FRAMING_OPTIONS,
  ...DECODER_LIMITS,
  ...ACCUMULATOR_OPTIONS,
  steps: 0,
  onStop: 0,
};
