import type { FramedMessage } from "../../framing/framing.ts";
import { ToolCallStreamError } from "../../shared/errors.ts";
import type { JsonValue } from "../../shared/json.ts";
import { jsonText, type JsonWriter } from "../../shared/json-text.ts";
import { isRecord, nonEmptyString, ownValue } from "../../shared/values.ts";
import { providerError, readJsonObject } from "../payload.ts";
import type { DecoderLimits, Emit } from "../provider-decoder.ts";
import { readUsage } from "../usage.ts";
import type { ConverseCitations } from "./bedrock-citations.ts";
import { BEDROCK_FINISH_REASONS } from "./bedrock-finish-reasons.ts";
import { imageDelta, imageStop } from "./bedrock-images.ts";

/**
 * What the decoder keeps of an open content block: a tool call, a reasoning block's text and
 * signature, a server tool's `toolResult` (its start's fields, its deltas' content), or an image
 * (its start's fields, its deltas' base64 bytes).
 */
interface Block {
  tool?: true;
  text: string;
  signature?: string;
  result?: { [key: string]: JsonValue; content: JsonValue[][] };
  /** The length of the result's deltas so far as JSON text, or of the image's bytes: bounded by `maxArgumentsLength`. */
  resultLength?: number;
  image?: Payload;
  chunks?: string[];
}

type Payload = Record<string, unknown>;

/**
 * Amazon Bedrock ConverseStream events (one per event-stream message, named by `:event-type`) to
 * normalized deltas: the body of {@link BedrockDecoder} for Converse streams.
 *
 * Content blocks are told apart by `contentBlockIndex`, which is the call's index (an event whose
 * index is not a non-negative safe integer is a `malformed-payload` error, skipped). Text and
 * reasoning blocks often start with a delta and no `contentBlockStart`; a tool block starts with
 * `start.toolUse` (its id and name; `type: "server_tool_use"` marks a call the provider runs
 * itself) and streams `delta.toolUse.input` as JSON text fragments; a call with no fragment, or
 * only empty ones, has no arguments and completes as `{}` at its `contentBlockStop`. A server
 * tool's result (`start.toolResult`, then `delta.toolResult` lists of `json` and `text` blocks,
 * Amazon Nova's system tools) is a `block` reasoning part `{toolResult}` at its stop (its start's
 * fields, the deltas' blocks as its `content`), which the next turn sends back after its call; its
 * deltas, as JSON text, are bounded by the accumulator's `maxArgumentsLength` (past it, a
 * `ToolCallStreamError` of code `arguments-too-large` ends the stream). An image the model made
 * (ImageBlockStart's `format`, then ImageBlockDelta's `source.bytes`, base64) is a `block` reasoning
 * part `{image}` (Converse's ImageBlock, which the next turn sends back) at its stop; an image whose
 * bytes pass `maxArgumentsLength` is left out with an `error` of code `arguments-too-large` and the
 * turn goes on (an image is no call: the text and calls around it stand); an image a delta's
 * `error` failed (`data`: `{ image: { error } }`), whose bytes are not base64, or that stops with
 * none, is left out the same way with an `error` of code `block-failed`. A delta for
 * a block that already stopped is ignored. Reasoning (`delta.reasoningContent`) streams as
 * `reasoning-delta`; its signature and redacted content become `reasoning-part`s, as with
 * Anthropic thinking, for the next turn. The signatures, held until their block's stop, are
 * bounded at 4 Mi characters over the response: past it, a `ToolCallStreamError` of code
 * `text-too-large` ends the stream. A text block's `citation` deltas are kept with the
 * `ConverseCitations` plug-in, a `citationsContent` block part at its stop. `messageStop` finishes,
 * with the stop sequence Claude stopped at when the request asked for it (its
 * `additionalModelResponseFields.delta.stop_sequence`, from the path `/delta/stop_sequence`) as the
 * finish's `stopSequence`, as on Anthropic's own stream; `metadata` (usage, metrics)
 * follows it and ends the response. The random `p` padding of every payload is ignored. Events
 * written as JSON objects of one key (`{"contentBlockDelta": {...}}`, as SDKs print them) read
 * the same, for gateways that re-frame Bedrock's stream as text; an exception member
 * (`{"throttlingException": {...}}`) is a `provider-error` whose `data` is that object.
 *
 * @example
 * ```ts
 * const deltas: ProviderDelta[] = [];
 * const decoder = new BedrockConverseDecoder((delta) => deltas.push(delta));
 * decoder.decode({ event: "contentBlockDelta", data: '{"contentBlockIndex":0,"delta":{"text":"Hi"},"p":"abc"}' });
 * // deltas: [{ type: "text-delta", text: "Hi" }]
 * ```
 */
export class BedrockConverseDecoder {
  readonly #emit: Emit;
  /** How this response's objects are written as JSON text (its messages' own writer, or `jsonText`). */
  #write: JsonWriter = jsonText;
  readonly #blocks = new Map<number, Block>();
  readonly #stopped = new Set<number>();
  #finished = false;
  readonly #maxResultLength: number;
  readonly #cited: ConverseCitations | undefined;
  /**
   * The characters of the reasoning signatures held over the response (bounded at 4 Mi): no delta
   * carries them until their block's stop, so no other limit counts them.
   */
  #held = 0;

  /**
   * Creates a decoder that reports through `emit`, bounded by the accumulator's `limits`, keeping
   * the text blocks' citations with `cited` (`ConverseCitations`; none: they are left out).
   */
  constructor(emit: Emit, limits: DecoderLimits = {}, cited?: typeof ConverseCitations) {
    this.#emit = emit;
    this.#maxResultLength = limits.maxArgumentsLength ?? 4194304;
    this.#cited = cited && new cited(limits);
  }

  /** Decodes one event. */
  decode(message: FramedMessage): void {
    this.#write = message.jsonText ?? jsonText;
    let payload: unknown = readJsonObject(message, this.#emit);
    let event = message.event;
    if (event === undefined && payload) {
      // The same events written as JSON objects of one key, its name (as AWS SDKs and gateways print them).
      event = Object.keys(payload)[0] ?? "";
      payload = (payload as Payload)[event];
    }
    // An exception member (`throttlingException`, ...), an SDK's or a gateway's: the binary stream's exception message.
    if (event?.endsWith("Exception")) {
      this.#emit(providerError({ [event]: payload }, `The provider reported ${event} inside the stream.`));
      return this.#emit({ type: "done" }); // an exception is the stream's last message
    }
    if (!isRecord(payload)) return;
    switch (event) {
      case "contentBlockDelta":
        return this.#onDelta(payload);
      case "contentBlockStart":
        return this.#onStart(payload);
      case "contentBlockStop":
        return this.#onStop(payload);
      case "messageStop":
        return this.#onMessageStop(payload);
      case "metadata":
        return this.#onMetadata(payload);
    }
    // messageStart (the role only) and event types added later carry nothing to accumulate.
  }

  /**
   * The message's block, by its index (opened at its first message); an index that is not a
   * non-negative safe integer is reported, never routed, and a block that stopped is done.
   */
  #block(payload: Payload): [number, Block] | undefined {
    const index = payload["contentBlockIndex"] as number;
    if (!Number.isSafeInteger(index) || index < 0)
      return void this.#emit({
        type: "error",
        error: { code: "malformed-payload", message: "A payload's contentBlockIndex is not valid; it was skipped." },
      });
    if (this.#stopped.has(index)) return undefined;
    let block = this.#blocks.get(index);
    if (!block) this.#blocks.set(index, (block = { text: "" }));
    return [index, block];
  }

  #onStart(payload: Payload): void {
    const start = payload["start"];
    const found = isRecord(start) && this.#block(payload);
    if (!found) return;
    const [index, block] = found;
    const { toolUse, toolResult, image } = start as Payload;
    if (isRecord(toolResult)) return void (block.result = { ...(toolResult as Block["result"])!, content: [] });
    if (isRecord(image)) {
      block.image = image;
      block.chunks = [];
      return;
    }
    if (!isRecord(toolUse)) return;
    block.tool = true;
    const id = nonEmptyString(toolUse["toolUseId"]);
    const name = nonEmptyString(toolUse["name"]);
    this.#emit({
      type: "tool-call-chunk",
      index,
      ...(id && { id }),
      ...(name && { name }),
      ...(toolUse["type"] === "server_tool_use" && { providerExecuted: true as const }),
    });
  }

  #onDelta(payload: Payload): void {
    const delta = payload["delta"] as Payload;
    const found = isRecord(delta) && this.#block(payload);
    if (!found) return;
    const [index, block] = found;
    const emit = this.#emit;
    this.#cited?.delta(index, delta);
    const text = nonEmptyString(delta["text"]);
    if (text) emit({ type: "text-delta", text });
    const toolUse = delta["toolUse"];
    // A fragment before its block's start is passed on, never dropped: the call its start names, else one of no name.
    if (isRecord(toolUse)) {
      const input = toolUse["input"];
      const fragment = typeof input === "string" ? input : isRecord(input) && this.#write(input);
      if (fragment) emit({ type: "tool-call-chunk", index, argumentsDelta: fragment });
    }
    const result = delta["toolResult"];
    // Each delta's list, flattened at the stop (a spread of a long list would overflow the stack).
    // An array's JSON text is always written (a writer gives undefined only for undefined).
    if (Array.isArray(result) && block.result && this.#kept(block, this.#write(result)!))
      block.result.content.push(result as JsonValue[]);
    const image = delta["image"];
    // An image's deltas come after its start, which says its format.
    if (isRecord(image)) imageDelta(block, image, this.#maxResultLength, emit);
    const reasoning = delta["reasoningContent"];
    if (!isRecord(reasoning)) return;
    const thought = nonEmptyString(reasoning["text"]);
    if (thought) {
      block.text += thought;
      emit({ type: "reasoning-delta", text: thought });
    }
    const signature = nonEmptyString(reasoning["signature"]);
    if (signature) {
      if ((this.#held += signature.length) > 4194304)
        throw new ToolCallStreamError({
          code: "text-too-large",
          message: "The signatures held exceeded the limit of 4194304 characters.",
        });
      block.signature = `${block.signature ?? ""}${signature}`;
    }
    // ReasoningContentBlockDelta is text, signature or redactedContent (base64 on the wire).
    const redacted = nonEmptyString(reasoning["redactedContent"]);
    if (redacted) emit({ type: "reasoning-part", part: { type: "redacted", data: redacted } });
  }

  /**
   * A server tool's output, kept whole for the next turn: bounded as a call's arguments are, by the
   * length of its deltas (`text`, their JSON text).
   */
  #kept(block: Block, text: string): true {
    if ((block.resultLength = (block.resultLength ?? 0) + text.length) > this.#maxResultLength)
      throw new ToolCallStreamError({
        code: "arguments-too-large",
        message: `A server tool's result is over maxArgumentsLength (${this.#maxResultLength}).`,
      });
    return true;
  }

  #onStop(payload: Payload): void {
    const found = this.#block(payload);
    if (!found) return;
    const [index, block] = found;
    this.#stopped.add(index);
    this.#cited?.stop(index, this.#emit);
    this.#blocks.delete(index);
    const result = block.result;
    if (result)
      this.#emit({
        type: "reasoning-part",
        part: { type: "block", block: { toolResult: { ...result, content: result.content.flat() } } },
      });
    else if (block.chunks) imageStop(block, this.#emit);
    else if (block.tool) this.#emit({ type: "tool-call-end", index });
    else if (block.signature)
      this.#emit({ type: "reasoning-part", part: { type: "signed", text: block.text, signature: block.signature } });
  }

  #onMessageStop(payload: Payload): void {
    const reason = nonEmptyString(payload["stopReason"]);
    if (!reason) return;
    this.#finished = true;
    // Claude's stop sequence, when the request asked for its Anthropic event's field
    // (`additionalModelResponseFieldPaths: ["/delta/stop_sequence"]`, as the AI SDK's provider does).
    const fields = payload["additionalModelResponseFields"] as { delta?: Payload } | undefined;
    const stopSequence = nonEmptyString(fields?.delta?.["stop_sequence"]);
    this.#emit({
      type: "finish",
      rawReason: reason,
      reason: ownValue(BEDROCK_FINISH_REASONS, reason) ?? "other",
      ...(stopSequence && { stopSequence }),
    });
  }

  #onMetadata(payload: Payload): void {
    const usage = readUsage(payload["usage"], ["inputTokens"], ["outputTokens"], ["totalTokens"], {
      cacheRead: ["cacheReadInputTokens"],
      cacheWrite: ["cacheWriteInputTokens"],
      cacheApart: true,
    });
    if (usage) this.#emit({ type: "usage", usage });
    // The last event of a response: after the stop, nothing more is coming.
    if (this.#finished) this.#emit({ type: "done" });
  }
}
