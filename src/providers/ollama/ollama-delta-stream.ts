import type { FramedMessage } from "../../framing/framing.ts";
import { jsonText, type JsonWriter } from "../../shared/json-text.ts";
import { arrayOf, isRecord, nonEmptyString, ownValue } from "../../shared/values.ts";
import { providerError, readJsonObject } from "../payload.ts";
import { ProviderDecoderStream, type DecoderLimits, type Emit, type ProviderDecoder } from "../provider-decoder.ts";
import { decoderLimits } from "../decoder-limits.ts";
import { readUsage } from "../usage.ts";
import { OLLAMA_FINISH_REASONS } from "./ollama-finish-reasons.ts";

/** The counts and durations of the final line, kept as the usage's `raw`. */
const METRICS = [
  "prompt_eval_count",
  "eval_count",
  "total_duration",
  "load_duration",
  "prompt_eval_duration",
  "eval_duration",
];

/**
 * Ollama's native chat streams (`POST /api/chat`, NDJSON: one JSON object per line, read by
 * {@link NdjsonDecoderStream}) to normalized deltas.
 *
 * Each line has `message.content` (text), `message.thinking` (reasoning) and `message.tool_calls`.
 * Calls arrive whole, with `function.arguments` an object (not a string), and an `id` only on
 * recent servers: each becomes one complete call at once, numbered in order across lines (several
 * may come on one line or over several). The final `done: true` line has `done_reason` `stop` or
 * `length` and the token counts (`prompt_eval_count`, `eval_count`); its `stop` never says the
 * model called a tool, so the finish event says `tool-calls` when calls were made and keeps the
 * raw `stop`. A line `{"error": "..."}` (sent with status 200 when a stream fails) is a provider
 * error, and a body that ends without `done: true` was cut short: open calls are discarded.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new NdjsonDecoderStream())
 *   .pipeThrough(new OllamaDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class OllamaDeltaStream extends ProviderDecoderStream {
  /**
   * Creates the stage. It takes the provider stages' limits (`new kit.DeltaStream(limits)`), which
   * the accumulator applies: Ollama's decoder keeps no call's text. A name that is none of them is
   * a `TypeError`.
   */
  constructor(limits: DecoderLimits = {}) {
    decoderLimits(limits);
    super((emit) => new OllamaDecoder(emit));
  }
}

/**
 * The pure decoder behind {@link OllamaDeltaStream}: one instance per response.
 *
 * @example
 * ```ts
 * const deltas: ProviderDelta[] = [];
 * const decoder = new OllamaDecoder((delta) => deltas.push(delta));
 * decoder.decode({ data: '{"message":{"role":"assistant","content":"Hi"},"done":false}' });
 * decoder.end();
 * ```
 */
export class OllamaDecoder implements ProviderDecoder {
  readonly #emit: Emit;
  /** How this response's objects are written as JSON text (its messages' own writer, or `jsonText`). */
  #write: JsonWriter = jsonText;
  #calls = 0;

  /** Creates a decoder that reports through `emit`. */
  constructor(emit: Emit) {
    this.#emit = emit;
  }

  /** Decodes one NDJSON line. */
  decode(message: FramedMessage): void {
    this.#write = message.jsonText ?? jsonText;
    const emit = this.#emit;
    const payload = readJsonObject(message, emit);
    if (!payload) return;
    // Ollama's `{"error": ...}` line is the stream's last: nothing after it is read.
    if (payload["error"] !== undefined) {
      emit(providerError(payload));
      return emit({ type: "done" });
    }
    const chat = payload["message"];
    if (isRecord(chat)) {
      const thinking = nonEmptyString(chat["thinking"]);
      if (thinking !== undefined) emit({ type: "reasoning-delta", text: thinking });
      const content = nonEmptyString(chat["content"]);
      if (content !== undefined) emit({ type: "text-delta", text: content });
      for (const call of arrayOf(chat["tool_calls"])) if (isRecord(call)) this.#onCall(call);
    }
    if (payload["done"] !== true) return;
    const metrics = Object.fromEntries(
      METRICS.filter((key) => payload[key] !== undefined).map((key) => [key, payload[key]]),
    );
    const usage = readUsage(metrics, ["prompt_eval_count"], ["eval_count"], []);
    if (usage && (usage.inputTokens !== undefined || usage.outputTokens !== undefined)) emit({ type: "usage", usage });
    const reason = nonEmptyString(payload["done_reason"]) ?? null;
    emit({
      type: "finish",
      rawReason: reason,
      reason: reason === null ? "stop" : (ownValue(OLLAMA_FINISH_REASONS, reason) ?? "other"),
    });
    emit({ type: "done" });
  }

  /** The input ended: nothing is held. */
  end(): void {}

  #onCall(call: Record<string, unknown>): void {
    const fn = isRecord(call["function"]) ? call["function"] : {};
    const args = fn["arguments"];
    const id = nonEmptyString(call["id"]);
    const name = nonEmptyString(fn["name"]);
    const index = this.#calls++;
    this.#emit({
      type: "tool-call-chunk",
      index,
      ...(id !== undefined ? { id } : {}),
      ...(name !== undefined ? { name } : {}),
      // Older servers and some gateways send the arguments as a JSON string, as OpenAI does.
      argumentsDelta: typeof args === "string" ? args : (this.#write(args ?? {}) ?? ""),
    });
    this.#emit({ type: "tool-call-end", index });
  }
}
