import type { FramedMessage } from "../../framing/framing.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord, nonEmptyString, ownValue } from "../../shared/values.ts";
import { eventType, providerError, readJsonObject } from "../payload.ts";
import { ProviderDecoderStream, type DecoderLimits, type Emit, type ProviderDecoder } from "../provider-decoder.ts";
import { decoderLimits } from "../decoder-limits.ts";
import { readUsage } from "../usage.ts";
import { COHERE_FINISH_REASONS } from "./cohere-finish-reasons.ts";

type Payload = Record<string, unknown>;

/**
 * Cohere v2 chat streams (`POST /v2/chat` with `stream: true`, Server-Sent Events) to normalized
 * deltas.
 *
 * `content-delta` is text, or reasoning when its block is `thinking`; `tool-plan-delta`, the
 * model's plan for its tool use, is reasoning too, never visible text. A call opens at
 * `tool-call-start` (its id, name and usually empty arguments), grows with `tool-call-delta`
 * (arguments only, no id) and completes at `tool-call-end`: all three are correlated by their
 * `index`, never by their position in the stream, so interleaved calls stay apart. A call with no
 * arguments (start, then end) is `{}`. `message-end` carries the finish reason (`COMPLETE`,
 * `STOP_SEQUENCE`, `MAX_TOKENS`, `TOOL_CALL`, `ERROR`; an `error` message next to it becomes a
 * provider error) and the usage (`tokens`, with `billed_units` kept on `raw`). A `citation-start`
 * of the text (RAG documents, tool results) becomes a cited text part, `{ type: "text", text,
 * citations, start, end }` with Cohere's sources as its citations, which the encoders place by its
 * text from `start` on (Cohere's offset in characters, never taken for UTF-16's: the text's first
 * place from there is the one cited; it counts in the block its `content_index` names, whose place in
 * the text is added; `end` moves with it, for the next turn's `citations`); a citation of the thinking (by its type, or by the block it names) or the
 * plan cites no text shown, and is left out. An `event: error`, a payload holding an `error`, and
 * one of no `type` whose `message` is text (Cohere's error object, `{ "message": "..." }`, inside
 * the stream) are provider errors.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new CohereDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class CohereDeltaStream extends ProviderDecoderStream {
  /**
   * Creates the stage. It takes the provider stages' limits (`new kit.DeltaStream(limits)`), which
   * the accumulator applies: Cohere's decoder keeps no call's text. A name that is none of them is
   * a `TypeError`.
   */
  constructor(limits: DecoderLimits = {}) {
    decoderLimits(limits);
    super((emit) => new CohereDecoder(emit));
  }
}

/**
 * The pure decoder behind {@link CohereDeltaStream}: one instance per response.
 *
 * @example
 * ```ts
 * const deltas: ProviderDelta[] = [];
 * const decoder = new CohereDecoder((delta) => deltas.push(delta));
 * for (const message of messages) decoder.decode(message);
 * decoder.end();
 * ```
 */
export class CohereDecoder implements ProviderDecoder {
  readonly #emit: Emit;
  /** Content blocks that are `thinking`, by index. */
  readonly #thinking = new Set<number>();
  /** Where each text block starts in the text shown (UTF-16 units), by index: a citation's `start` counts in its block. */
  readonly #blockStarts = new Map<number, number>();
  /** The text shown so far, in UTF-16 units. */
  #shown = 0;
  /** The text of each thinking block still open, by index: kept whole for the next turn. */
  readonly #held = new Map<number, string[]>();

  /** Creates a decoder that reports through `emit`. */
  constructor(emit: Emit) {
    this.#emit = emit;
  }

  /** Decodes one SSE message. */
  decode(message: FramedMessage): void {
    const payload = readJsonObject(message, this.#emit);
    if (!payload) return;
    const message_ =
      isRecord(payload["delta"]) && isRecord(payload["delta"]["message"]) ? payload["delta"]["message"] : {};
    const index = typeof payload["index"] === "number" ? payload["index"] : undefined;
    // The payload's `type` is authoritative: some gateways drop or rename the SSE `event:` line. One of no type
    // whose `message` is text is Cohere's error object (`{ message }`, its error responses' shape), sent in the stream.
    const type = payload["type"] ?? message.event ?? (typeof payload["message"] === "string" ? "error" : undefined);
    switch (eventType(type, payload)) {
      case "content-delta":
      case "content-start":
        return this.#onContent(message_, index, payload["type"] === "content-start");
      case "content-end":
        return this.#endThinking(index);
      case "tool-plan-delta": {
        const plan = nonEmptyString(message_["tool_plan"]);
        if (plan !== undefined) this.#emit({ type: "reasoning-delta", text: plan });
        return;
      }
      case "tool-call-start":
      case "tool-call-delta":
        return this.#onCall(message_, index);
      case "tool-call-end":
        if (index !== undefined) this.#emit({ type: "tool-call-end", index });
        return;
      case "citation-start":
        return this.#onCitations(message_["citations"]);
      case "message-end":
        return this.#onEnd(payload);
      case "error": // the stream's last, as its error response's body is: a body held open after it is not waited on
        this.#emit(providerError(payload));
        return this.#emit({ type: "done" });
    }
    // message-start, citation-end, debug and later types carry nothing to accumulate.
  }

  /** The input ended: a thinking block still open is complete as far as it came. */
  end(): void {
    this.#endThinking(undefined);
  }

  #onContent(message: Payload, index: number | undefined, start: boolean): void {
    const content = message["content"];
    if (!isRecord(content)) return;
    if (start && content["type"] === "thinking" && index !== undefined) {
      this.#thinking.add(index);
      this.#held.set(index, []);
    }
    const held = index !== undefined ? this.#held.get(index) : undefined;
    const thinking = nonEmptyString(content["thinking"]);
    const text = nonEmptyString(content["text"]);
    if (thinking !== undefined) {
      this.#emit({ type: "reasoning-delta", text: thinking });
      held?.push(thinking);
    }
    const shown = index === undefined || !this.#thinking.has(index);
    if (shown && index !== undefined && !this.#blockStarts.has(index)) this.#blockStarts.set(index, this.#shown);
    if (text === undefined) return;
    if (shown) this.#shown += text.length;
    else held?.push(text);
    this.#emit({ type: shown ? "text-delta" : "reasoning-delta", text });
  }

  /**
   * A thinking block ended (`content-end` of its index; every open one when `index` is undefined):
   * its text becomes a `thinking` part, which Cohere takes back as a content item of the turn,
   * apart from its `tool_plan` (both stream as reasoning text).
   */
  #endThinking(index: number | undefined): void {
    for (const [at, texts] of this.#held) {
      if (index !== undefined && at !== index) continue;
      this.#held.delete(at);
      if (texts.length > 0) this.#emit({ type: "reasoning-part", part: { type: "thinking", text: texts.join("") } });
    }
  }

  /**
   * The citations of a `citation-start` (one, or an array of them, as the SDK types allow). One names its block
   * (`content_index`) and counts its `start` in that block's text: moved to where the block starts in the text shown.
   */
  #onCitations(citations: unknown): void {
    for (const citation of Array.isArray(citations) ? citations : [citations]) {
      if (!isRecord(citation) || (citation["type"] ?? "TEXT_CONTENT") !== "TEXT_CONTENT") continue;
      const block = citation["content_index"];
      if (typeof block === "number" && this.#thinking.has(block)) continue; // a thinking's, though it names no type
      const text = nonEmptyString(citation["text"]);
      const from = typeof block === "number" ? (this.#blockStarts.get(block) ?? 0) : 0;
      const start = citation["start"];
      const end = citation["end"];
      // Both moved alike, so the next turn's citation spans what Cohere cited (`cohereCitations`).
      const at: Record<string, JsonValue> =
        typeof start === "number"
          ? { start: start + from, ...(typeof end === "number" && end >= start && { end: end + from }) }
          : {};
      const sources = Array.isArray(citation["sources"]) ? (citation["sources"] as JsonValue[]) : [];
      if (text !== undefined && sources.length > 0)
        this.#emit({
          type: "reasoning-part",
          part: { type: "block", block: { type: "text", text, citations: sources, ...at } },
        });
    }
  }

  #onCall(message: Payload, index: number | undefined): void {
    const call = message["tool_calls"];
    if (!isRecord(call) || index === undefined) return;
    const fn = isRecord(call["function"]) ? call["function"] : {};
    const id = nonEmptyString(call["id"]);
    const name = nonEmptyString(fn["name"]);
    const args = nonEmptyString(fn["arguments"]);
    if (id === undefined && name === undefined && args === undefined) return;
    this.#emit({
      type: "tool-call-chunk",
      index,
      ...(id !== undefined ? { id } : {}),
      ...(name !== undefined ? { name } : {}),
      ...(args !== undefined ? { argumentsDelta: args } : {}),
    });
  }

  #onEnd(payload: Payload): void {
    this.#endThinking(undefined);
    const delta = isRecord(payload["delta"]) ? payload["delta"] : {};
    const error = nonEmptyString(delta["error"]);
    if (error !== undefined) this.#emit(providerError({ error }));
    const raw = isRecord(delta["usage"]) ? delta["usage"] : undefined;
    const usage = readUsage(
      raw && isRecord(raw["tokens"]) ? raw["tokens"] : undefined,
      ["input_tokens"],
      ["output_tokens"],
      [],
    );
    // The prompt tokens served from Cohere's cache sit beside `tokens`, a part of its input count.
    const cached = raw?.["cached_tokens"];
    if (usage && typeof cached === "number" && cached >= 0) usage.cacheReadTokens = cached;
    if (usage) this.#emit({ type: "usage", usage: { ...usage, raw } });
    const reason = nonEmptyString(delta["finish_reason"]);
    if (reason !== undefined)
      this.#emit({ type: "finish", rawReason: reason, reason: ownValue(COHERE_FINISH_REASONS, reason) ?? "other" });
    this.#emit({ type: "done" });
  }
}
