/**
 * A provider's protocol whose decoder passes on a run of fragments as one delta: what the Worker
 * reads every model call's body with (when nothing asks for the events one provider event at a
 * time), so that a model streaming a call's arguments a few characters per event costs the
 * accumulator, the events and the answer's steps one delta per network read, not one per event.
 *
 * @module
 */
import {
  type FramedMessage,
  type Framing,
  type FramingOptions,
  type Provider,
  type ProviderDecoder,
  type ProviderDelta,
  type ProviderProtocol,
  providerProtocol,
  SSEDecoder,
  SseOrNdjsonFraming,
} from "../../src/index.ts";

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
 * held back. Not for `partialArguments` or early validation, which read each provider event.
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
  const Inner = inner.framing === undefined || inner.framing === SSEDecoder ? SseOrNdjsonFraming : inner.framing;
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
  protocol = { ...inner, framing: RunFraming, createDecoder: (emit) => new RunDecoder(inner, emit) };
  made.set(provider, protocol);
  return protocol;
}

/** A protocol's decoder that holds a run of joinable deltas (see {@link fragmentRuns}). */
class RunDecoder implements ProviderDecoder {
  readonly #decoder: ProviderDecoder;
  readonly #emit: (delta: ProviderDelta) => void;
  /** The run's first delta, its key (`-1` text, else the call's index) and its pieces. */
  #first: ProviderDelta | undefined;
  #key = 0;
  readonly #pieces: string[] = [];

  constructor(protocol: ProviderProtocol, emit: (delta: ProviderDelta) => void) {
    this.#emit = emit;
    this.#decoder = protocol.createDecoder((delta) => this.#take(delta));
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

  end(): void {
    this.#pass();
    this.#decoder.end();
    this.#pass();
  }

  #take(delta: ProviderDelta): void {
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

  /** Passes the run on, as one delta. */
  #pass(): void {
    const first = this.#first;
    if (first === undefined) return;
    this.#first = undefined;
    const pieces = this.#pieces;
    if (pieces.length > 1) {
      const text = pieces.join("");
      this.#emit(first.type === "tool-call-chunk" ? { ...first, argumentsDelta: text } : { type: "text-delta", text });
    } else this.#emit(first);
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
