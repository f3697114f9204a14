import type { ToolCallAccumulatorOptions } from "../accumulate/accumulator-options.ts";
import { ACCUMULATOR_CORE_OPTIONS } from "../accumulate/accumulator-option-names.ts";
import { composeSteps, StepHold, type EventStep } from "../accumulate/event-step.ts";
import { ToolCallAccumulatorCore } from "../accumulate/accumulator-core.ts";
import type { FramedMessage, Framing, FramingClass, FramingOptions } from "../framing/framing.ts";
import { FRAMING_OPTIONS } from "../framing/framing-options.ts";
import { DECODER_LIMITS } from "../providers/decoder-limits.ts";
import type { DecoderLimits, Emit, ProviderDecoder, ProviderProtocol } from "../providers/provider-decoder.ts";
import { pickOptions } from "../shared/option-names.ts";
import { isInstance, toErrorInfo, ToolCallStreamError, type StreamErrorInfo } from "../shared/errors.ts";
import type { DiscardedToolCall, ToolCallEvent } from "../shared/events.ts";
import { withChoice } from "../shared/values.ts";

/** Options of {@link ToolCallChain}: each stage's own, given to it alone. */
export interface ToolCallChainOptions extends Omit<ToolCallAccumulatorOptions, "turnBlocks"> {
  /**
   * The framing's limit: largest message it holds while waiting for its end, in characters (in
   * bytes for the AWS event stream, a binary framing; see `FramingOptions`).
   * @defaultValue 4194304
   */
  maxEventLength?: number | undefined;
  /** The body's content type, for a framing that reads several formats (`DetectingFraming`). */
  contentType?: string | undefined;
  /**
   * The decoder's limit on what it holds until its end that no delta carries (a refusal; OpenAI
   * Chat's reasoning fields), as `DecoderLimits.maxTextLength`: the chain gives it the decoder and
   * does not bound the turn's text by it.
   * @defaultValue 4194304
   */
  maxTextLength?: number | undefined;
  /**
   * Steps after the accumulator, in this order (the first listed sees each event first):
   * `toolCallTimings`, `validateToolCalls`, or your own made with `eventStep`.
   * @defaultValue none
   */
  steps?: readonly EventStep[] | undefined;
  /**
   * Called once when the chain stops before its input ended (the framing could not read the
   * bytes, a limit was exceeded, a call violated its schema with `abortOnViolation`): the place
   * to cancel the input. The chain has emitted its `abort` by then.
   * @defaultValue none
   */
  onStop?: ((reason: unknown) => void) | undefined;
}

/**
 * What the main entry's protocol wrappers (`withKeptBounds`, `withProviderHint`) read of the
 * chain's options besides the decoder's limits: given as a third argument of `createDecoder`,
 * which a protocol's own decoder never sees (its limits are {@link DecoderLimits} alone, which it
 * checks). Not exported by the package.
 */
export interface ChainContext {
  /** The accumulator's `maxDepth`, which bounds what the turn keeps whole. */
  maxDepth?: number | undefined;
  /** The body's content type, which tells a body of another framing. */
  contentType?: string | undefined;
}

/** A protocol whose decoder factory may read the {@link ChainContext} (every {@link ProviderProtocol} is one). */
export interface ChainProtocol extends ProviderProtocol {
  /** Creates the decoder; `chain`: what a wrapper of the main entry reads besides the limits. */
  createDecoder(emit: Emit, limits?: DecoderLimits, chain?: ChainContext): ProviderDecoder;
}

/**
 * {@link ToolCallChain} with its framing given (no default): what `streamToolCalls` runs, so that
 * a provider's bundle holds its own framing alone (Bedrock's no SSE). Not exported by the package.
 */
export class FramedChain {
  readonly #framing: Framing;
  readonly #decoder: ProviderDecoder;
  readonly #accumulator: ToolCallAccumulatorCore;
  readonly #hold: StepHold;
  readonly #onStop: ((reason: unknown) => void) | undefined;
  /** Messages framed and not decoded yet; `#next` is the first not decoded. */
  readonly #messages: FramedMessage[] = [];
  #next = 0;
  #stopped = false;
  /**
   * A delta is with the accumulator and the steps: what throws then was thrown after the decoder
   * (left set by a throw, which `#failDecoding` reads).
   */
  #emitting = false;
  /** The complete call a step threw on, for the `abort` to list. */
  #lost: DiscardedToolCall | undefined;

  /**
   * Creates the chain of `protocol` read with `Framing` (`turnBlocks`: the protocol's, which its
   * callers pass). `options` hold every stage's (and `streamToolCalls`' own): each stage is given
   * its own alone, and checks their names.
   */
  constructor(
    protocol: ChainProtocol,
    Framing: FramingClass,
    emit: (event: ToolCallEvent) => void,
    options: ToolCallChainOptions & Pick<ToolCallAccumulatorOptions, "turnBlocks"> = {},
  ) {
    const { steps = [], onStop } = options;
    this.#onStop = onStop;
    this.#hold = new StepHold(composeSteps(steps, emit));
    const take = steps.length === 0 ? this.#hold.take : (event: ToolCallEvent) => this.#take(event);
    this.#accumulator = new ToolCallAccumulatorCore(
      take,
      pickOptions<ToolCallAccumulatorOptions>(options, ACCUMULATOR_CORE_OPTIONS),
      () => this.#stop("the accumulator stopped the stream"),
    );
    const accumulator = this.#accumulator;
    const framing = pickOptions<FramingOptions>(options, FRAMING_OPTIONS);
    this.#decoder = protocol.createDecoder(
      (delta) => {
        this.#emitting = true;
        accumulator.push(delta);
        this.#emitting = false;
      },
      pickOptions<DecoderLimits>(options, DECODER_LIMITS),
      { maxDepth: options.maxDepth, contentType: framing.contentType },
    );
    this.#framing = new Framing((message) => void this.#messages.push(message), framing);
  }

  /**
   * Passes an event to the steps. A complete call a step threw on (an application's clock or
   * step) never reached the reader: the `abort` that follows lists it as discarded, not lost.
   */
  #take(event: ToolCallEvent): void {
    if (event.type === "abort" && this.#lost) event.discarded.unshift(this.#lost);
    try {
      this.#hold.take(event);
    } catch (error) {
      if (event.type === "tool-call") {
        const { index, id, name, rawArguments } = event;
        this.#lost = withChoice({ index, id, name, rawArguments }, event.choice);
      }
      throw error;
    }
  }

  /** True once the `finish` or `abort` has been made (it may still be held by a step). */
  get closed(): boolean {
    return this.#accumulator.closed;
  }

  /** A promise while a step holds events back, settling once they have gone out; else `undefined`. */
  get held(): PromiseLike<void> | undefined {
    return this.#hold.held;
  }

  /** How many framed messages wait to be decoded. */
  get queued(): number {
    return this.#messages.length - this.#next;
  }

  /** Waits until the steps hold nothing back. */
  released(): Promise<void> {
    return this.#hold.released();
  }

  /** Feeds one network chunk, then decodes up to `messages` of the queued messages (all by default). */
  feed(chunk: Uint8Array, messages: number = Infinity): void {
    if (this.#stopped) return;
    try {
      this.#framing.feed(chunk);
    } catch (error) {
      return this.#failFraming(error);
    }
    this.decode(messages);
  }

  /** Feeds one message framed elsewhere (the framing is skipped), decoding it after those queued. */
  push(message: FramedMessage): void {
    if (this.#stopped) return;
    this.#messages.push(message);
    this.decode();
  }

  /** Decodes up to `max` queued messages; returns how many are still queued. */
  decode(max: number = Infinity): number {
    const messages = this.#messages;
    const until = Math.min(messages.length, this.#next + max);
    try {
      while (this.#next < until) this.#decoder.decode(messages[this.#next++]!);
    } catch (error) {
      this.#failDecoding(error);
      return 0;
    }
    if (this.#next === messages.length) messages.length = this.#next = 0;
    return messages.length - this.#next;
  }

  /**
   * The input ended: the framing's last message, the decoder's, then the `finish` (or `abort` when
   * the provider did not finish). With `error`, the input failed (a network error, an HTTP error
   * status): what its end gives comes first all the same (the framing's last message, used when
   * its payload is complete, and what the decoder holds until a later event: a refusal or reasoning
   * fields, events held for their order; not what only waits to prove itself, such as OpenAI
   * Chat's finish held after a call), as for a body cut there, then an
   * `error` event and an `abort` (reason `provider-error` for `http-error`, `limit-exceeded` for
   * `event-too-large`, else `stream-failed`).
   */
  end(error?: StreamErrorInfo): void {
    if (this.#stopped) return;
    try {
      this.#framing.end();
    } catch (cut) {
      if (!error) return this.#failFraming(cut);
      // A message the failure cut in half that the framing cannot use (an event stream's): said, before the failure.
      this.#accumulator.push({ type: "error", error: toErrorInfo(cut) });
    }
    if (this.#release(error)) error ? this.#abort(error) : this.#accumulator.end();
  }

  /** The consumer stopped it (`signal`): an `abort` of reason `cancelled`, replacing a finish still held. */
  abort(reason: "cancelled" = "cancelled"): void {
    this.#stopped = true;
    if (!this.#accumulator.closed) this.#accumulator.abort(reason);
    // The finish may be made already and wait behind a validator: the abort replaces it.
    else if (this.#hold.held) this.#hold.take({ type: "abort", reason, discarded: [] });
  }

  /**
   * Decodes what is queued, then ends the decoder (what it holds goes out; with `fault`, the input
   * failed, and what waits to prove itself is dropped): false once the chain has stopped.
   */
  #release(fault?: unknown): boolean {
    this.decode();
    if (!this.#stopped)
      try {
        this.#decoder.end(fault);
      } catch (error) {
        this.#failDecoding(error);
      }
    return !this.#stopped;
  }

  /** The chain ends at a fault: the calls known whole, an `error` event, then the `abort` (its reason after the error's code). */
  #abort(error: StreamErrorInfo): void {
    const reason =
      error.code === "http-error"
        ? "provider-error"
        : // `event-too-large`, or a decoder's `too-many-tool-calls` or `arguments-too-large`.
          error.code.includes("too-")
          ? "limit-exceeded"
          : "stream-failed";
    // The calls known whole go out before the `error`: they came before the fault.
    this.#accumulator.abort(reason, error, true);
    this.#stopped = true;
  }

  /** The framing could not read the bytes: what came before and what the decoder holds still go out, then the chain ends. */
  #failFraming(error: unknown): void {
    // What it released may have ended the chain, and called `onStop`, itself.
    if (this.#release(error)) {
      this.#abort(toErrorInfo(error));
      this.#stop(error);
    }
  }

  /**
   * A message could not be decoded: an SDK's object whose getter or Proxy trap threw, arguments
   * that are not JSON data (a cycle, a BigInt), or a step after the decoder that threw. The
   * messages after it are dropped, the chain ends as for bytes it cannot frame (the decoder not
   * asked for what it holds), and the input is cancelled (an SDK's iterator returned, which aborts
   * its request). The thrown error's message is never passed on: it may quote the data.
   */
  #failDecoding(error: unknown): void {
    const after = this.#emitting;
    this.#emitting = false;
    this.#messages.length = this.#next = 0;
    this.#abort(
      isInstance(error, ToolCallStreamError)
        ? error.info
        : after
          ? { code: "stream-failed", message: "A step after the decoder threw; the stream ended." }
          : { code: "malformed-payload", message: "A provider message could not be read; the stream ended." },
    );
    this.#stop(error);
  }

  #stop(reason: unknown): void {
    this.#stopped = true;
    this.#onStop?.(reason);
  }
}
