/**
 * A provider's protocol whose decoder passes on a run of fragments as one delta: what the Worker
 * reads every model call's body with (when nothing asks for the events one provider event at a
 * time), so that a model streaming a call's arguments a few characters per event costs the
 * accumulator, the events and the answer's steps one delta per network read, not one per event.
 *
 * @module
 */
import {
  AwsEventStreamDecoder,
  ChoosingFraming,
  DEFAULT_MAX_ARGUMENTS_LENGTH,
  type FramedMessage,
  type Framing,
  type FramingClass,
  type FramingOptions,
  JsonArrayDecoder,
  NdjsonDecoder,
  type Provider,
  type ProviderDecoder,
  type ProviderDelta,
  type ProviderProtocol,
  providerProtocol,
  SSEDecoder,
  SseOrNdjsonFraming,
  TextFraming,
} from "../../src/index.ts";
import type { DecoderLimits } from "../../src/core.ts";

/** The message a framing of {@link fragmentRuns} adds after each chunk's: the decoder's cue to pass its run on. */
const READ_END: FramedMessage = { data: "" };

const made = new Map<Provider, ProviderProtocol>();

/**
 * `provider`'s protocol (its framing as `streamToolCalls` picks it for the name), with adjacent
 * text deltas, and adjacent argument fragments of one call, decoded from one network chunk passed
 * on as one delta: the events a batch of `streamToolCallBatches` holds, as `joinDeltas` would join
 * them, made without an event per provider event.
 *
 * Only what the accumulator treats alike whole or in pieces is joined: text deltas of the first
 * choice, and fragments that carry nothing but a call's index and text. A fragment that could be
 * the whole call sent again (its first character other than white space is `{` or `[`, which the
 * accumulator drops when it repeats the closed arguments) is passed on alone, and never begins or
 * joins a run, so no run can repeat the arguments either. The run is passed on before any other
 * delta, at the end of the chunk's messages (the framing adds {@link READ_END}, even when it
 * throws), before a message the decoder cannot read, and at the end: nothing before a fault is
 * held back. A run that could take its call past `maxArgumentsLength` (the arguments text taken at
 * its index, the run's included, and of fragments that may join any call, exceeds it) is passed on
 * as its fragments, so that the call the limit discards holds what it holds without runs. Not for
 * `partialArguments` or early validation, which read each provider event.
 *
 * @example
 * ```ts
 * const batches = streamToolCallBatches(body, { provider: fragmentRuns("openai") });
 * ```
 */
export function fragmentRuns(provider: Provider): ProviderProtocol {
  let protocol = made.get(provider);
  if (protocol) return protocol;
  const inner = providerProtocol(provider);
  const Inner = framingOf(inner);
  class RunFraming implements Framing {
    readonly #framing: Framing;
    readonly #onMessage: (message: FramedMessage) => void;
    constructor(onMessage: (message: FramedMessage) => void, options?: FramingOptions) {
      this.#framing = new Inner(onMessage, options);
      this.#onMessage = onMessage;
    }
    feed(chunk: Uint8Array): void {
      try {
        this.#framing.feed(chunk);
      } finally {
        this.#onMessage(READ_END);
      }
    }
    end(): void {
      try {
        this.#framing.end();
      } finally {
        this.#onMessage(READ_END);
      }
    }
  }
  protocol = {
    ...inner,
    framing: RunFraming,
    createDecoder: (emit, limits) => new RunDecoder(inner, emit, limits),
  };
  made.set(provider, protocol);
  return protocol;
}

/**
 * The protocol `/v1/stream` and `/v1/run` read a model call's body with: {@link fragmentRuns}, or,
 * where early validation reads each provider event, the provider's protocol object with the framing
 * the main entry picks for its name (a whole answer's too). Both are objects, which the main entry
 * gives the whole `turnBlocks` plug-in when they name none (a name gets only its own parts), so a
 * finish is the same either way, its `order` included.
 *
 * @example
 * ```ts
 * const events = streamToolCalls(body, { provider: readProtocol("openai", request.earlyValidation) });
 * ```
 */
export function readProtocol(provider: Provider, earlyValidation: boolean | undefined): ProviderProtocol {
  if (!earlyValidation) return fragmentRuns(provider);
  let protocol = framed.get(provider);
  if (!protocol) {
    const inner = providerProtocol(provider);
    protocol = { ...inner, framing: framingOf(inner) };
    framed.set(provider, protocol);
  }
  return protocol;
}

/** Each provider's protocol with its framing as `streamToolCalls` picks it for the name, for early validation. */
const framed = new Map<Provider, ProviderProtocol>();

/**
 * A protocol's framing as the main entry's `streamToolCalls` picks it for a provider's name, so that
 * a whole answer (`application/json`, openUpstream's `onWhole`) is read as one message: an SSE
 * protocol's is `SseOrNdjsonFraming` (SSE; NDJSON; with that content type, a whole answer), Ollama's
 * NDJSON `TextFraming` (with that content type a `{` is one object, pretty-printed or not), Bedrock's
 * event stream the one that takes a first `{` for a whole Converse response ({@link EventStreamOrWhole});
 * any other its own (Gemini's reads SSE, a JSON array or a bare object).
 */
const framingOf = (protocol: ProviderProtocol): FramingClass => {
  const { framing } = protocol;
  if (framing === undefined || framing === SSEDecoder) return SseOrNdjsonFraming;
  if (framing === NdjsonDecoder) return TextFraming;
  return framing === AwsEventStreamDecoder ? EventStreamOrWhole : framing;
};

/**
 * The AWS event stream, or a whole Converse response read as one message by the JSON array framing
 * when the first byte is `{` (the top byte of an event-stream message's length, which no message
 * under 2 GB has), as the main entry reads Bedrock's bodies.
 */
class EventStreamOrWhole extends ChoosingFraming {
  /** `{` is a whole response, anything else the event stream. */
  protected detect(_contentType: string | undefined, firstByte: number): FramingClass {
    return firstByte === 0x7b ? JsonArrayDecoder : AwsEventStreamDecoder;
  }
}

/** A protocol's decoder that holds a run of joinable deltas (see {@link fragmentRuns}). */
class RunDecoder implements ProviderDecoder {
  readonly #decoder: ProviderDecoder;
  readonly #emit: (delta: ProviderDelta) => void;
  /** The run's first delta, its key (`-1` text, else the call's index) and its pieces. */
  #first: ProviderDelta | undefined;
  #key = 0;
  readonly #pieces: string[] = [];
  /** The accumulator's `maxArgumentsLength`. */
  readonly #max: number;
  /**
   * Arguments text taken so far, by call index (a final text that replaces a call's fragments too),
   * and apart (`#loose`) that of fragments the accumulator may join to a call at another index
   * (one with an id, or without an index): a call's arguments are at most its index's and these.
   */
  readonly #byIndex: number[] = [];
  #loose = 0;

  constructor(protocol: ProviderProtocol, emit: (delta: ProviderDelta) => void, limits: DecoderLimits = {}) {
    this.#emit = emit;
    this.#max = limits.maxArgumentsLength ?? DEFAULT_MAX_ARGUMENTS_LENGTH;
    this.#decoder = protocol.createDecoder((delta) => this.#take(delta), limits);
  }

  decode(message: FramedMessage): void {
    if (message === READ_END) return this.#pass();
    try {
      this.#decoder.decode(message);
    } catch (error) {
      // What came before a message that cannot be read is delivered before its fault.
      this.#pass();
      throw error;
    }
  }

  /** The input ended; `fault` (it failed) goes on to the protocol's decoder, which drops what only waits to prove itself. */
  end(fault?: unknown): void {
    this.#pass();
    this.#decoder.end(fault);
    this.#pass();
  }

  #take(delta: ProviderDelta): void {
    this.#count(delta);
    const key = keyOf(delta);
    const piece = key === undefined ? "" : pieceOf(delta);
    // Text is never dropped as a repeat: only a call's fragments are looked at.
    const call = key !== undefined && key >= 0;
    if (key !== undefined && this.#first !== undefined && key === this.#key && !(call && mayRepeat(piece, false))) {
      this.#pieces.push(piece);
      return;
    }
    this.#pass();
    if (key === undefined || (call && mayRepeat(piece, true))) return this.#emit(delta);
    this.#first = delta;
    this.#key = key;
    this.#pieces.push(piece);
  }

  /** Counts a delta's arguments text where it may go (see `#byIndex`). */
  #count(delta: ProviderDelta): void {
    const text =
      delta.type === "tool-call-chunk" ? delta.argumentsDelta : delta.type === "tool-call-end" ? delta.arguments : "";
    if (!text) return;
    const index = (delta as { index?: number }).index;
    if (index === undefined || !(index >= 0) || (delta as { id?: string }).id !== undefined) this.#loose += text.length;
    else this.#byIndex[index] = (this.#byIndex[index] ?? 0) + text.length;
  }

  /** Passes the run on, as one delta (or as its fragments, near the limit). */
  #pass(): void {
    const first = this.#first;
    if (first === undefined) return;
    this.#first = undefined;
    const pieces = this.#pieces;
    if (pieces.length === 1) this.#emit(first);
    else if (first.type !== "tool-call-chunk") this.#emit({ type: "text-delta", text: pieces.join("") });
    // Joined only when its call cannot pass the limit inside the run, which would discard it whole.
    else if ((this.#byIndex[this.#key] ?? 0) + this.#loose <= this.#max)
      this.#emit({ ...first, argumentsDelta: pieces.join("") });
    else for (const piece of pieces) this.#emit({ ...first, argumentsDelta: piece });
    pieces.length = 0;
  }
}

/** The run a delta may join: `-1` for a text delta of the first choice, a call's index for a bare fragment; else none. */
function keyOf(delta: ProviderDelta): number | undefined {
  if (delta.type === "text-delta") return delta.choice === undefined ? -1 : undefined;
  if (delta.type !== "tool-call-chunk" || typeof delta.argumentsDelta !== "string" || delta.argumentsDelta === "")
    return undefined;
  const { index, id, name, choice, providerMetadata, providerExecuted, inputFormat } = delta;
  return typeof index === "number" &&
    index >= 0 &&
    id === undefined &&
    name === undefined &&
    choice === undefined &&
    providerMetadata === undefined &&
    providerExecuted === undefined &&
    inputFormat === undefined
    ? index
    : undefined;
}

function pieceOf(delta: ProviderDelta): string {
  return delta.type === "text-delta" ? delta.text : (delta as { argumentsDelta: string }).argumentsDelta;
}

/**
 * A fragment that could be a call's whole arguments sent again: its first character other than
 * white space is `{` or `[` (closed arguments begin so). `first`: it would begin a run, which a
 * fragment of white space alone must not either (the run's first such character is then another's).
 */
function mayRepeat(piece: string, first: boolean): boolean {
  for (let i = 0; i < piece.length; i++) {
    const code = piece.charCodeAt(i);
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) continue;
    return code === 0x7b || code === 0x5b;
  }
  return first;
}
