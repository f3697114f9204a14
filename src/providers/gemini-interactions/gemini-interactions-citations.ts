import type { FramedMessage } from "../../framing/framing.ts";
import { keptCounter } from "../../shared/errors.ts";
import type { JsonValue } from "../../shared/json.ts";
import { utf16Offsets } from "../../shared/utf8-offsets.ts";
import { arrayOf, isRecord, nonEmptyString } from "../../shared/values.ts";
import type { DecoderLimits, Emit, ProviderDecoder, ProviderProtocol } from "../provider-decoder.ts";
import { GeminiInteractionsDecoder } from "./gemini-interactions-delta-stream.ts";
import type { InteractionsEventListener } from "./gemini-interactions-steps.ts";

/** What a step keeps until its end: its text as shown, and its annotations, each once (by its JSON text). */
interface CitedStep {
  text: string;
  kept: Map<string, { url: string; title: string; start: unknown; end: unknown }>;
}

/**
 * A Gemini Interactions decoder that also keeps the citations of each `model_output` step's text
 * (Google Search grounding, Maps): `text_annotation_delta`s ("citation annotations for previously
 * streamed text"), the `annotations` of a `text` content at the step's start or of a `text` delta,
 * and the legacy spelling's `text_annotation` delta. At the step's end (its `step.stop`, the
 * interaction's end, or the input's) its text becomes a `block` reasoning part `{ type: "text",
 * text, annotations }`, as `ChatCitations` keeps Chat's, each `url_citation` (and each
 * `place_citation` with a `url`, its `name` the title) in OpenAI Responses' flat shape `{ type:
 * "url_citation", url, title, start_index, end_index }`, so that the client-protocol encoders pass
 * them on (the AI SDK's own Interactions provider gives both as sources). Interactions counts the
 * positions in UTF-8 bytes of the step's text ("measured in bytes"; proto3 JSON leaves a 0 out):
 * they become UTF-16 code units of that text here, and an annotation whose positions fall inside a
 * character or past the text is left out, as is a `file_citation` (a file search store's document,
 * which no client protocol's annotation names). The next turn sends the text without them. They
 * count against the accumulator's `maxToolCalls`: past it, a `ToolCallStreamError` of code
 * `too-many-tool-calls` ends the stream.
 *
 * A wrapper around the decoder, so that the Interactions stage and
 * `tool-call-stream/gemini-interactions`'s `streamToolCalls` hold none of this: the main entry's
 * `gemini-interactions` protocol (and so the Worker) reads with it; a chain of stages takes it as
 * its decoder stage.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new ProviderDecoderStream((emit) => new InteractionsCitations(emit)))
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class InteractionsCitations implements ProviderDecoder {
  readonly #decoder: ProviderDecoder;
  readonly #emit: Emit;
  readonly #counted: (added: number) => void;
  /** The steps with text open, by their index. */
  readonly #steps = new Map<number, CitedStep>();
  /** The step of the event being read, whose text deltas are its text. */
  #index: number | undefined;

  /**
   * Reports through `emit`, bounded by the accumulator's `maxToolCalls` (1024 by default) and its
   * `maxArgumentsLength` (a server tool's step, as the decoder's), around the Interactions decoder
   * `decoder` makes (a `GeminiInteractionsDecoder` by default), which gives `onEvent` each event
   * before it reads it.
   */
  constructor(
    emit: Emit,
    limits: DecoderLimits = {},
    decoder: (emit: Emit, onEvent: InteractionsEventListener) => ProviderDecoder = (inner, onEvent) =>
      new GeminiInteractionsDecoder(inner, limits, onEvent),
  ) {
    this.#emit = emit;
    this.#counted = keptCounter("annotations", limits.maxToolCalls);
    this.#decoder = decoder(
      (delta) => {
        if (delta.type === "text-delta" && this.#index !== undefined) this.#step(this.#index).text += delta.text;
        emit(delta);
      },
      (type, index, payload) => this.#event(type, index, payload),
    );
  }

  /** Decodes a message; the decoder gives its event to `#event` before its deltas. */
  decode(message: FramedMessage): void {
    this.#decoder.decode(message);
  }

  /** The input ended (or failed: `fault`, passed on): a step cut before its end keeps the annotations that came. */
  end(fault?: unknown): void {
    this.#decoder.end(fault);
    for (const index of [...this.#steps.keys()]) this.#part(index);
  }

  #event(type: string | undefined, index: number | undefined, payload: Record<string, unknown>): void {
    this.#index = index;
    if (type === "interaction.completed" || type === "interaction.complete")
      for (const open of [...this.#steps.keys()]) this.#part(open);
    if (index === undefined) return;
    if (type === "step.stop" || type === "content.stop") return this.#part(index);
    const body = payload["delta"] ?? payload["step"] ?? payload["content"];
    if (!isRecord(body)) return;
    // A delta's or text content's own `annotations`; a step's start, its text contents'.
    for (const content of [body, ...arrayOf(body["content"])])
      if (isRecord(content))
        for (const annotation of arrayOf(content["annotations"])) this.#annotation(index, annotation);
  }

  #step(index: number): CitedStep {
    let step = this.#steps.get(index);
    if (!step) this.#steps.set(index, (step = { text: "", kept: new Map() }));
    return step;
  }

  #annotation(index: number, annotation: unknown): void {
    if (!isRecord(annotation) || !/^(url|place)_citation$/.test(String(annotation["type"]))) return;
    const url = nonEmptyString(annotation["url"]);
    if (url === undefined) return;
    const title = nonEmptyString(annotation["title"]) ?? nonEmptyString(annotation["name"]) ?? "";
    const cited = { url, title, start: annotation["start_index"] ?? 0, end: annotation["end_index"] };
    const key = JSON.stringify(cited);
    const { kept } = this.#step(index);
    if (kept.has(key)) return;
    this.#counted(1);
    kept.set(key, cited);
  }

  /** The step's text with its annotations placed, once, at its end. */
  #part(index: number): void {
    const step = this.#steps.get(index);
    this.#steps.delete(index);
    if (!step?.kept.size || !step.text) return;
    const { text, kept } = step;
    const units = utf16Offsets(
      text,
      text.length,
      [...kept.values()].flatMap(({ start, end }) => [start, end]),
    );
    const annotations = [...kept.values()].flatMap(({ url, title, start, end }): JsonValue[] => {
      const [from, to] = [units.get(start), units.get(end)];
      return from !== undefined && to !== undefined && to > from
        ? [{ type: "url_citation", url, title, start_index: from, end_index: to }]
        : [];
    });
    if (annotations.length)
      this.#emit({ type: "reasoning-part", part: { type: "block", block: { type: "text", text, annotations } } });
  }
}

/**
 * An Interactions protocol (`protocol`'s framing, name and turn blocks) whose decoder also keeps
 * the text annotations ({@link InteractionsCitations}): how the main entry's `gemini-interactions`
 * protocol is made (internal: an app on `tool-call-stream/gemini-interactions` takes
 * `InteractionsCitations` as its decoder stage).
 *
 * @example
 * ```ts
 * const geminiInteractionsProtocol = withInteractionsCitations(interactionsProtocol);
 * ```
 */
export const withInteractionsCitations = (protocol: ProviderProtocol): ProviderProtocol => ({
  ...protocol,
  createDecoder: (emit, limits) => new InteractionsCitations(emit, limits),
});
