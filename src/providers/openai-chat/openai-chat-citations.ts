import type { FramedMessage } from "../../framing/framing.ts";
import { heldCounter, keptCounter } from "../../shared/errors.ts";
import type { JsonValue } from "../../shared/json.ts";
import { arrayOf, isRecord } from "../../shared/values.ts";
import type { DecoderLimits, Emit, ProviderDecoder, ProviderProtocol } from "../provider-decoder.ts";
import { OpenAIChatDecoder } from "./openai-chat-delta-stream.ts";
import type { OpenAIChatDecoderOptions } from "./openai-chat-options.ts";
import { FRAGMENTS, TEXT_FIELDS } from "./openai-chat-reasoning.ts";

/**
 * A Chat Completions decoder that also keeps the first choice's `url_citation` annotations (what
 * the search models, `gpt-4o-search-preview`, `gpt-5-search-api`, send with `web_search_options`):
 * `ChatCompletionMessage.annotations` in a whole message, a chunk's `delta.annotations` in a stream
 * (openai's `ChatCompletionChunk` does not declare it; OpenAI sends it, in the chunk of the cited
 * text or a later one, and the same annotation again in later chunks at times, kept once here).
 * At the end of the response (`[DONE]`, or the input's end) the choice's whole text becomes a
 * `block` reasoning part `{ type: "text", text, annotations }`, as `ResponsesCitations` keeps an
 * annotated `output_text` (without its `id`: a Chat message has none the Responses API would take),
 * each annotation in OpenAI Responses' flat shape `{ type: "url_citation", url, title,
 * start_index, end_index }`, its positions counted in that text (the message's `content`, as
 * OpenAI counts them), so that the client-protocol encoders pass them on. Chat's next turn takes
 * no annotations back (`ChatCompletionAssistantMessageParam` has none). They count against the
 * accumulator's `maxToolCalls`: past it, a `ToolCallStreamError` of code `too-many-tool-calls`
 * ends the stream.
 *
 * It also bounds what the decoder holds of the first choice until the reasoning's end (its
 * reasoning fields and refusal, see `ChatReasoningFields`): a refusal streams no delta, so no other
 * limit counts it, and an endless one grew until memory ran out. Their characters over the stream
 * count against `maxTextLength` (4 Mi by default; the main entry's chain gives it): past it, a
 * `ToolCallStreamError` of code `text-too-large` ends the stream, every event before it given. The
 * `reasoning_details` entries opened count against `maxToolCalls` too (`too-many-tool-calls`).
 *
 * A wrapper around the decoder, so that the Chat stage and `tool-call-stream/openai`'s
 * `streamToolCalls` hold none of this: the main entry's `openai` protocol (and so the Worker) reads
 * with it; a chain of stages takes it as its decoder stage.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new ProviderDecoderStream((emit) => new ChatCitations(emit)))
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class ChatCitations implements ProviderDecoder {
  readonly #decoder: ProviderDecoder;
  readonly #emit: Emit;
  readonly #counted: (added: number) => void;
  readonly #held: (added: number) => void;
  readonly #length: (delta: Record<string, unknown>) => number;
  /** The annotations kept, by their JSON text (an annotation sent again is kept once). */
  readonly #kept = new Map<string, JsonValue>();
  #text = "";
  #ended = false;

  /**
   * Reports through `emit`, bounded by the accumulator's `maxToolCalls` (1024 by default) and by
   * `maxTextLength` (4 Mi), around the Chat decoder `decoder` makes (an `OpenAIChatDecoder` by
   * default), which gives `onChunk` each chunk it parses whole: a chunk with annotations, a refusal
   * or reasoning is never one of the plain text or argument deltas its fast path reads unparsed, so
   * no message is read twice.
   */
  constructor(
    emit: Emit,
    limits: DecoderLimits = {},
    decoder: (emit: Emit, onChunk: (chunk: Record<string, unknown>) => void) => ProviderDecoder = (inner, onChunk) =>
      new OpenAIChatDecoder(inner, { onChunk }),
  ) {
    this.#emit = emit;
    this.#counted = keptCounter("annotations", limits.maxToolCalls);
    this.#held = heldCounter("reasoning and refusal", limits.maxTextLength);
    this.#length = heldLength(keptCounter("reasoning_details entries", limits.maxToolCalls));
    this.#decoder = decoder(
      (delta) => {
        // The first choice's text, as the turn holds it; the annotations go out before the end.
        if (delta.type === "text-delta" && !delta.choice) this.#text += delta.text;
        if (delta.type === "done") this.#part();
        emit(delta);
      },
      (chunk) => this.#chunk(chunk),
    );
  }

  /** Decodes a message; the decoder gives its chunk's annotations to `#chunk` before its deltas. */
  decode(message: FramedMessage): void {
    this.#decoder.decode(message);
  }

  /** The input ended (or failed: `fault`, passed on): a response cut before `[DONE]` keeps the annotations that came. */
  end(fault?: unknown): void {
    this.#decoder.end(fault);
    this.#part();
  }

  #chunk(chunk: Record<string, unknown>): void {
    for (const choice of arrayOf(chunk["choices"])) {
      if (!isRecord(choice)) continue;
      const delta = isRecord(choice["delta"]) ? choice["delta"] : choice["message"];
      if (!isRecord(delta)) continue;
      // The first choice, as the decoder reads it (an index that is no number is the first): what it
      // holds of it, and its annotations.
      if (typeof choice["index"] === "number" && choice["index"] !== 0) continue;
      this.#held(this.#length(delta));
      for (const annotation of arrayOf(delta["annotations"])) this.#annotation(annotation);
    }
  }

  #annotation(annotation: unknown): void {
    const cited =
      isRecord(annotation) && annotation["type"] === "url_citation" ? annotation["url_citation"] : undefined;
    if (!isRecord(cited) || typeof cited["url"] !== "string") return;
    const { url, title = "", start_index, end_index } = cited;
    const flat = { type: "url_citation", url, title, start_index, end_index } as JsonValue;
    const key = JSON.stringify(flat);
    if (this.#kept.has(key)) return;
    this.#counted(1);
    this.#kept.set(key, flat);
  }

  /** The annotated text, once: at `[DONE]`, or at the end of a response without it. */
  #part(): void {
    if (this.#ended || this.#kept.size === 0 || this.#text === "") return;
    this.#ended = true;
    const annotations = [...this.#kept.values()];
    this.#emit({
      type: "reasoning-part",
      part: { type: "block", block: { type: "text", text: this.#text, annotations } },
    });
  }
}

/**
 * A Chat Completions protocol (`protocol`'s framing and name) whose decoder is an
 * `OpenAIChatDecoder` with `options` (`jsonText`) that also keeps the annotations
 * ({@link ChatCitations}): how the main entry's `openai` protocol is made (internal: an app on
 * `tool-call-stream/openai` takes `ChatCitations` as its decoder stage).
 *
 * @example
 * ```ts
 * const openAIChatProtocol = withChatCitations(openAIChatProtocolWith(jsonText), { jsonText });
 * ```
 */
export const withChatCitations = (
  protocol: ProviderProtocol,
  options: OpenAIChatDecoderOptions = {},
): ProviderProtocol => ({
  ...protocol,
  createDecoder: (emit, limits) =>
    new ChatCitations(emit, limits, (inner, onChunk) => new OpenAIChatDecoder(inner, { ...options, onChunk })),
});

/**
 * A count of how many characters each first choice's delta adds to what `ChatReasoningFields`
 * holds until the reasoning's end: its text fields' strings; each `reasoning_details` entry's
 * fragments (`text`, `summary`, `data`, joined), and its other strings (`type`, `format`, `id`,
 * `signature`, which replace the entry's own) by how much longer they are than the entry's were, an
 * entry that may open one counted whole with one more. A refusal and the details' encrypted `data`
 * stream no delta of their own, so no other limit counts them: `ChatCitations` bounds the sum by
 * `maxTextLength`. The entries are told apart as `ChatReasoningFields` merges them (by `index`,
 * else by `type` when the last opened had it), so that a `type` and `format` each fragment repeats
 * (OpenRouter's) are counted once, not a legitimate long reasoning several times over. Each entry
 * opened is also given to `opened` (counted against `maxToolCalls`, as annotations are): the
 * decoder looks each detail's entry up among those open, so their number bounds that work.
 *
 * @example
 * ```ts
 * const held = heldLength(keptCounter("reasoning_details entries", limits.maxToolCalls));
 * held({ refusal: "I can't" }); // 7
 * ```
 */
function heldLength(opened: (added: number) => void): (delta: Record<string, unknown>) => number {
  /** The length of each entry's other strings, by its key. */
  const entries = new Map<string, Record<string, number>>();
  let last: string | undefined;
  return (delta) => {
    let length = 0;
    for (const field of TEXT_FIELDS) {
      const text = delta[field];
      if (typeof text === "string") length += text.length;
    }
    for (const detail of arrayOf(delta["reasoning_details"])) {
      if (!isRecord(detail)) continue;
      const index = detail["index"];
      const key = typeof index === "number" ? `#${index}` : `type:${String(detail["type"])}`;
      let sizes = typeof index === "number" || key === last ? entries.get(key) : undefined;
      if (!sizes) {
        entries.set(key, (sizes = {}));
        last = key;
        opened(1);
        length++;
      }
      for (const [name, value] of Object.entries(detail)) {
        if (typeof value !== "string") continue;
        if (FRAGMENTS.includes(name)) length += value.length;
        else if (value.length > (sizes[name] ?? 0)) {
          length += value.length - (sizes[name] ?? 0);
          sizes[name] = value.length;
        }
      }
    }
    return length;
  };
}
