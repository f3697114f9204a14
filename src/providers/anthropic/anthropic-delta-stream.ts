import type { SSEMessage } from "../../framing/framing.ts";
import type { ProviderDelta } from "../../shared/deltas.ts";
import type { ExecutionContainer } from "../../shared/finish-details.ts";
import { jsonText, type JsonWriter } from "../../shared/json-text.ts";
import { matchAt, NO_TEXT, textPattern } from "../../shared/kept-text.ts";
import { arrayOf, isRecord, nonEmptyString, ownValue } from "../../shared/values.ts";
import { eventType, providerError, readJsonObject } from "../payload.ts";
import { ProviderDecoderStream, type DecoderLimits, type Emit, type ProviderDecoder } from "../provider-decoder.ts";
import { decoderLimits } from "../decoder-limits.ts";
import { anthropicContainer, anthropicFinish, anthropicUsage } from "./anthropic-finish.ts";
import { AnthropicCitations } from "./anthropic-citations.ts";
import { AnthropicKeptBlocks, callMetadata } from "./anthropic-kept-blocks.ts";
import { FAST_DELTA, fastDeltaText } from "./anthropic-fast-delta.ts";

/** Content blocks that are tool calls: the application runs `tool_use`, the provider the others. */
const TOOL_BLOCKS: Record<string, boolean> = { tool_use: false, server_tool_use: true, mcp_tool_use: true };

/** What the decoder remembers of an open tool block. */
interface ToolBlock {
  /** A non-empty `input` sent whole at the block's start, used when no `partial_json` follows (dropped at one). */
  initialInput: string | undefined;
  /** A server tool's call (`server_tool_use`, `mcp_tool_use`): never withdrawn, its end never held. */
  providerExecuted: boolean;
}

/**
 * Anthropic Messages streaming events to normalized deltas (also Vertex AI and Bedrock when they serve the same SSE).
 *
 * A tool call completes once the model moved on from its block (the next block's start, or the message's end), not
 * at the end of the message, and its index is the block index: a `fallback` block next (server-side fallback to
 * another model after a refusal), or a `refusal` stop, withdraws it instead, since the refusal may have cut it off.
 * A fault withdraws nothing: when the input ends or an `error` arrives instead, the held call is complete, before it.
 * Its `caller` (programmatic tool calling) is kept on its `providerMetadata`. Blocks already in
 * `message_start.message.content` (a programmatic tool calling continuation) are read as if they had streamed. The
 * message's code-execution `container` (at its start, or in its `message_delta`) goes on the finish, a refusal's
 * `stop_details` as its `refusal`. An `event: error` can arrive after HTTP 200 and the connection then closes
 * without `message_stop`: the error is delivered and the accumulator aborts with the open calls discarded, as when
 * another message starts inside the open one (an intermediary's retry spliced into the body) or a tool block gives an
 * id the message gave already (ids are unique per message); a repeat of the open message's `message_start` is ignored.
 * Thinking, redacted thinking, compaction and fallback blocks, server tools' results (`web_search_tool_result`, ...)
 * and text blocks with citations become `reasoning-part`s in block order ({@link AnthropicKeptBlocks}, {@link AnthropicCitations}).
 * An `input_json_delta` of a block that started as no call (a type added later) is dropped.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new AnthropicDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class AnthropicDeltaStream extends ProviderDecoderStream {
  /** Creates the stage; `limits.maxToolCalls` bounds the citations kept (1024 by default); an unknown option is a `TypeError`. */
  constructor(limits: DecoderLimits = {}) {
    decoderLimits(limits);
    super((emit) => new AnthropicDecoder(emit, limits, new AnthropicCitations(limits)));
  }
}

/**
 * The pure decoder behind {@link AnthropicDeltaStream}: one instance per response.
 *
 * @example
 * ```ts
 * const deltas: ProviderDelta[] = [];
 * const decoder = new AnthropicDecoder((delta) => deltas.push(delta));
 * for (const message of messages) decoder.decode(message);
 * decoder.end();
 * ```
 */
export class AnthropicDecoder implements ProviderDecoder {
  #emit: Emit;
  /** How this response's objects are written as JSON text (its messages' own writer, or `jsonText`). */
  #write: JsonWriter = jsonText;
  readonly #toolBlocks = new Map<number, ToolBlock>();
  /** The blocks started that are no call nor kept (text, of a type added later): an `input_json_delta` of one is none's. */
  readonly #notCalls = new Set<number>();
  #inputUsage: Record<string, unknown> = {};
  readonly #kept = new AnthropicKeptBlocks();
  readonly #cited: AnthropicCitations | undefined;
  /** A stopped `tool_use` block, its end held until the next block or the end: a `fallback` next withdraws it. */
  #held: number | undefined;
  /** The `message_start`'s message, whose `stop_reason` a programmatic tool calling continuation carries, until a `message_delta` gives one. */
  #stop: Record<string, unknown> = {};
  /** The message's code-execution container, once it named one. */
  #container: ExecutionContainer | undefined;
  /** The body's message id: another's `message_start` is a retry an intermediary spliced in (vercel/ai 18331). */
  #id: unknown;
  /** The head of the last fast delta read (`textPattern`), its block's index and whether a `text_delta`'s: at first none, so the pattern reads the first. */
  #head = NO_TEXT;
  #headIndex = 0;
  #headText = false;

  /**
   * Creates a decoder for one response that reports through `emit`, keeping text blocks' citations with `cited` (a
   * plug-in, to keep Bedrock's chain small: {@link AnthropicCitingDecoder} gives one). The `limits` bound only them;
   * a name that is no limit (another stage's option) is a `TypeError`.
   */
  constructor(emit: Emit, limits: DecoderLimits = {}, cited?: AnthropicCitations) {
    decoderLimits(limits);
    this.#emit = emit;
    this.#cited = cited;
  }

  /** Decodes one SSE message. */
  decode(message: SSEMessage): void {
    this.#write = message.jsonText ?? jsonText;
    const emit = this.#emit;
    const event = message.event;
    if ((event === undefined || event === "content_block_delta") && this.#onFastDelta(message.data, emit)) return;
    const payload = readJsonObject(message, message.truncated ? this.#fail : emit);
    if (!payload) return;
    switch (eventType(message.event ?? payload["type"], payload)) {
      case "content_block_delta": // the most frequent event first
        return this.#onBlockDelta(payload, emit);
      case "message_start":
        return this.#onMessageStart(payload, emit);
      case "content_block_start":
        return this.#onBlockStart(payload, emit);
      case "content_block_stop":
        return this.#onBlockStop(payload, emit);
      case "message_delta":
        return this.#onMessageDelta(payload, emit);
      case "message_stop":
        return this.#onMessageStop(emit);
      case "error": // Anthropic's `error` event ends the stream: nothing after it is read
        this.#fail(providerError(payload));
        return this.#emit({ type: "done" });
    }
    // `ping` and event types added later are ignored, as Anthropic's versioning policy asks.
  }

  /** The input ended (a fault or not): the held call is complete, nothing withdrew it; an open block is the accumulator's. */
  end(): void {
    this.#release();
  }

  /** A fault (an `error` event, a final event cut short): the held call goes out complete first, as a fault withdraws nothing; `last`: a body not one message's, nothing after it is read. */
  #fail = (error: ProviderDelta, last?: boolean): void => {
    this.#release();
    this.#emit(error);
    if (last) this.#emit = () => {};
  };

  /** The held call's end, now that the model moved on; withdrawn (`withdraw`: a `fallback` block started, or a refusal stopped the message), with every call still open, as it may have cut them off. */
  #release(withdraw?: boolean): void {
    const emit = this.#emit;
    if (this.#held !== undefined)
      emit({ type: "tool-call-end", index: this.#held, ...(withdraw && { withdrawn: true }) });
    this.#held = undefined;
    if (withdraw)
      for (const [index, block] of this.#toolBlocks)
        if (!block.providerExecuted) {
          this.#toolBlocks.delete(index);
          emit({ type: "tool-call-end", index, withdrawn: true });
        }
  }

  /**
   * The message's usage, and the blocks it already holds: a programmatic tool calling continuation comes as a
   * `message_start` whose `content` holds the `tool_use` (with its `caller`) and whose `stop_reason` is set, then
   * `message_stop`. Each block is read as if it had streamed whole at its position, before any that streams after it.
   */
  #onMessageStart(payload: Record<string, unknown>, emit: Emit): void {
    const message = payload["message"];
    if (!isRecord(message)) return;
    // Another id: a retry spliced in, the first call cut off: the body fails. The same id: a duplicate, ignored.
    if (this.#id) {
      if (message["id"] !== this.#id)
        this.#fail(providerError(payload, "A second message started inside the open one (a retry spliced in)."), true);
      return;
    }
    this.#id = message["id"];
    const usage = message["usage"];
    if (isRecord(usage)) emit({ type: "usage", usage: anthropicUsage((this.#inputUsage = usage)) });
    for (const [index, block] of arrayOf(message["content"]).entries()) {
      this.#onBlockStart({ index, content_block: block }, this.#emit); // muted once a block fails the body
      this.#onBlockStop({ index }, this.#emit);
    }
    this.#stop = message;
    this.#container = anthropicContainer(message["container"]);
  }

  /** The end of the body's message: the finish a continuation's `message_start` carried, if no `message_delta` did. */
  #onMessageStop(emit: Emit): void {
    this.#release();
    const finish = anthropicFinish(this.#stop, this.#container);
    if (finish) emit(finish);
    emit({ type: "done" });
  }

  #onBlockStart(payload: Record<string, unknown>, emit: Emit): void {
    const index = payload["index"];
    const block = payload["content_block"];
    if (typeof index !== "number" || !isRecord(block)) return;
    this.#release(block["type"] === "fallback");
    const text = nonEmptyString(block["text"]);
    if (block["type"] === "text" && text !== undefined) emit({ type: "text-delta", text });
    this.#cited?.start(index, block);
    if (this.#kept.start(index, block, emit)) return;
    const providerExecuted = ownValue(TOOL_BLOCKS, String(block["type"]));
    if (providerExecuted === undefined) return void this.#notCalls.add(index);
    const input = block["input"];
    const id = nonEmptyString(block["id"]);
    const name = nonEmptyString(block["name"]);
    this.#toolBlocks.set(index, {
      initialInput: isRecord(input) && Object.keys(input).length > 0 ? this.#write(input) : undefined,
      providerExecuted,
    });
    emit({
      type: "tool-call-chunk",
      index,
      ...(id && { id }),
      ...(name && { name }),
      ...(providerExecuted && { providerExecuted }),
      ...callMetadata(block, providerExecuted),
    });
  }

  #onBlockDelta(payload: Record<string, unknown>, emit: Emit): void {
    const index = payload["index"];
    const delta = payload["delta"];
    if (typeof index !== "number" || !isRecord(delta) || this.#kept.delta(index, delta, emit)) return;
    if (this.#cited?.delta(index, delta)) return; // a citation: kept for the block's stop
    const text = nonEmptyString(delta["text"]) ?? nonEmptyString(delta["partial_json"]);
    if (text === undefined) return;
    if (delta["type"] === "text_delta") emit({ type: "text-delta", text });
    else if (delta["type"] === "input_json_delta") this.#onInput(index, text, emit);
  }

  /** A fragment of an open tool block's input; of a block that is no call (a type added later), none's. */
  #onInput(index: number, text: string, emit: Emit): void {
    if (this.#notCalls.has(index)) return;
    const block = this.#toolBlocks.get(index);
    if (block) block.initialInput = undefined;
    else this.#release(); // a fragment of no open block (before its start, or stray): passed on, never dropped
    emit({ type: "tool-call-chunk", index, argumentsDelta: text });
  }

  /**
   * The most frequent events, read without building their payload object: when the data is exactly
   * Anthropic's serialization of an `input_json_delta` or a `text_delta` (`FAST_DELTA`; padded as
   * Anthropic pads them), only the string is read (the head before it, which a block's deltas share,
   * matched by the pattern of the last one, `textPattern`) as {@link AnthropicDecoder.decode} would
   * read it. Otherwise false, doing nothing.
   */
  #onFastDelta(data: string, emit: Emit): boolean {
    let at = matchAt(this.#head, data, 0);
    if (at < 0) {
      const match = FAST_DELTA.exec(data);
      if (!match) return false;
      this.#head = textPattern(match[0]);
      this.#headIndex = +match[1]!;
      this.#headText = match[2]!.charCodeAt(0) === 0x74; // "text_delta"
      at = match[0].length;
    }
    // The head, kept or matched, ends with the literal's quote.
    const text = fastDeltaText(data, at - 1);
    if (text === undefined) return false;
    if (!this.#headText) {
      if (text !== "") this.#onInput(this.#headIndex, text, emit);
    } else if (!this.#cited?.delta(this.#headIndex, { type: "text_delta", text }) && text !== "")
      emit({ type: "text-delta", text }); // a cited block's text is kept for its stop too
    return true;
  }

  #onBlockStop(payload: Record<string, unknown>, emit: Emit): void {
    const index = payload["index"];
    if (typeof index !== "number") return;
    this.#kept.stop(index, emit);
    this.#cited?.stop(index, emit);
    const block = this.#toolBlocks.get(index);
    if (!block) return;
    this.#toolBlocks.delete(index);
    if (block.initialInput) emit({ type: "tool-call-chunk", index, argumentsDelta: block.initialInput });
    this.#release(); // a call stopped before this one (two blocks open at once) ends: only the last is held
    if (block.providerExecuted) emit({ type: "tool-call-end", index });
    else this.#held = index;
  }

  #onMessageDelta(payload: Record<string, unknown>, emit: Emit): void {
    const delta = isRecord(payload["delta"]) ? payload["delta"] : {};
    this.#container = anthropicContainer(delta["container"]) ?? this.#container;
    // Output usage comes here; the input side came with message_start, so the two are merged.
    const usage = payload["usage"];
    if (isRecord(usage)) {
      // `null` counts are ones the delta does not update: those keep the start's values.
      const updated = Object.entries(usage).filter(([, value]) => value !== null);
      emit({ type: "usage", usage: anthropicUsage({ ...this.#inputUsage, ...Object.fromEntries(updated) }) });
    }
    // A refusal may have cut the call right before it off, as a fallback block's may: the SDK's
    // tool runner never runs it (it releases a stopped call at the next block or a `tool_use` stop).
    this.#release(delta["stop_reason"] === "refusal");
    const finish = anthropicFinish(delta, this.#container);
    if (!finish) return;
    this.#stop = {};
    emit(finish);
  }
}
