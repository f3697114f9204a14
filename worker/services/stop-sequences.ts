/**
 * Stop sequences where the provider has no field for them (OpenAI Responses; OpenAI Chat's gpt-5
 * and o-series models, which refuse `stop`): the Worker cuts the answer's text before the first
 * itself, as a gateway does, and ends the answer there as the provider would have.
 *
 * @module
 */
import type { DecoderLimits } from "../../src/core.ts";
import type {
  FramedMessage,
  ProviderDecoder,
  ProviderDelta,
  ProviderProtocol,
  ToolCallEvent,
} from "../../src/index.ts";
import { mapChunks } from "../http/batch-map.ts";
import { StopMatcher } from "./stop-matcher.ts";

/** What a model call's stop sequences came to: the one that ended its text, once one did. */
export interface StopState {
  /** The stop sequence the text was cut at. */
  matched?: string;
}

/**
 * `protocol` with its text cut before the first of `stops` ({@link StopMatcher}): the first
 * choice's text deltas are held back only as long as they may begin one; once one is complete,
 * the text before it goes on, then a `finish` of reason `stop` (`rawReason` `stop_sequence`, as
 * Anthropic and Bedrock name theirs) and the end of the response, nothing after them is decoded,
 * and `onStop` is called with the stop sequence (it ends the provider request: no more tokens are
 * made, nor billed). Each response read with the protocol (a tool loop's steps) is cut apart.
 * Calls complete before the stop are kept; the reasoning is not cut, as providers apply stop
 * sequences to the output text alone. What is held goes on before anything else the decoder
 * gives (a call, reasoning, the finish) but usage, and at the end.
 *
 * @example
 * ```ts
 * const protocol = withStopSequences(readProtocol("openai-responses", false), ["</block>"], () => void body.return?.());
 * const events = streamToolCalls(body, { provider: protocol });
 * ```
 */
export function withStopSequences(
  protocol: ProviderProtocol,
  stops: readonly string[],
  onStop: (stop: string) => void,
): ProviderProtocol {
  return {
    ...protocol,
    createDecoder: (emit, limits) => new StopDecoder(protocol, stops, onStop, emit, limits),
  };
}

/**
 * The events of a model call with the stop sequence it stopped at on its `finish` (`stopSequence`,
 * the Messages API's `stop_sequence`), when the finish says it stopped at one (`rawReason`
 * `stop_sequence`) and `state` knows which: where {@link withStopSequences} cut the text, or the
 * one stop sequence the provider was sent.
 *
 * @example
 * ```ts
 * const answer = withStopSequence(batches, state);
 * ```
 */
export function withStopSequence(
  batches: ReadableStream<ToolCallEvent[]>,
  state: StopState,
): ReadableStream<ToolCallEvent[]> {
  return mapChunks(batches, (batch) => {
    const stop = state.matched;
    if (stop === undefined) return batch;
    return batch.map((event) =>
      event.type === "finish" && event.rawReason === "stop_sequence" ? { ...event, stopSequence: stop } : event,
    );
  });
}

/** A protocol's decoder whose first choice's text stops at a stop sequence (see {@link withStopSequences}). */
class StopDecoder implements ProviderDecoder {
  readonly #decoder: ProviderDecoder;
  readonly #emit: (delta: ProviderDelta) => void;
  readonly #matcher: StopMatcher;
  readonly #onStop: (stop: string) => void;
  /** A stop sequence ended the text: nothing more is decoded. */
  #stopped = false;

  constructor(
    protocol: ProviderProtocol,
    stops: readonly string[],
    onStop: (stop: string) => void,
    emit: (delta: ProviderDelta) => void,
    limits?: DecoderLimits,
  ) {
    this.#emit = emit;
    this.#matcher = new StopMatcher(stops);
    this.#onStop = onStop;
    this.#decoder = protocol.createDecoder((delta) => this.#take(delta), limits);
  }

  decode(message: FramedMessage): void {
    if (this.#stopped) return;
    try {
      this.#decoder.decode(message);
    } catch (error) {
      // What came before a message that cannot be read is delivered before its fault.
      this.#release();
      throw error;
    }
  }

  end(fault?: unknown): void {
    if (this.#stopped) return;
    this.#decoder.end(fault);
    if (!this.#stopped) this.#release();
  }

  #take(delta: ProviderDelta): void {
    if (this.#stopped) return;
    if (delta.type === "text-delta" && !delta.choice) {
      const { text, stop } = this.#matcher.push(delta.text);
      if (text !== "") this.#emit({ type: "text-delta", text });
      if (stop !== undefined) this.#stop(stop);
      return;
    }
    if (delta.type !== "usage") this.#release();
    this.#emit(delta);
  }

  #release(): void {
    const text = this.#matcher.flush();
    if (text !== "") this.#emit({ type: "text-delta", text });
  }

  #stop(stop: string): void {
    this.#stopped = true;
    this.#emit({ type: "finish", reason: "stop", rawReason: "stop_sequence" });
    this.#emit({ type: "done" });
    this.#onStop(stop);
  }
}
