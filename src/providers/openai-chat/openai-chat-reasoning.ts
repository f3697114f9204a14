import type { ReasoningPart } from "../../shared/deltas.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord, nonEmptyString } from "../../shared/values.ts";
import type { Emit } from "../provider-decoder.ts";

/** The fields of a delta that stream text, in the order their parts go out (before `reasoning_details`). */
export const TEXT_FIELDS = ["reasoning_content", "reasoning", "refusal"] as const;

/** The fields of a detail that stream in fragments; the others (`type`, `id`, `format`, `signature`, `index`) are kept as they come. */
export const FRAGMENTS: readonly string[] = ["text", "summary", "data"];

/**
 * What a Chat Completions stream's first choice reasoned, kept in the field it came in: a
 * thinking model takes it back in the same field of the assistant message on the next request
 * (DeepSeek: "the reasoning_content must be fully passed back to the API in all subsequent
 * requests", else a 400; Kimi, GLM and Qwen the same `reasoning_content`; MiniMax and OpenRouter
 * `reasoning_details`, whose entries carry signatures; Groq and OpenRouter `reasoning`). Only the
 * fields the stream used go back: a strict server (OpenAI, Groq) refuses the others. An empty
 * `reasoning_content` in the message's first chunk (the one with its `role`: a thinking model's)
 * counts as the field used: DeepSeek refuses a call's turn sent back without the field even when
 * the model reasoned nothing. At the
 * reasoning's end (the choice's first text or call, its finish, or `[DONE]`) each
 * field becomes a `reasoning-part` of type `field`: the text whole, the details with each one's
 * fragments joined (merged by their `index`, or by their `type` when they have none).
 *
 * @example
 * ```ts
 * const reasoning = new ChatReasoningFields((delta) => deltas.push(delta));
 * reasoning.add({ reasoning_content: "The user wants " });
 * reasoning.add({ reasoning_content: "the weather." });
 * reasoning.flush(); // one reasoning-part: { type: "field", field: "reasoning_content", value: "The user wants the weather." }
 * ```
 */
export class ChatReasoningFields {
  readonly #emit: Emit;
  #texts: Partial<Record<(typeof TEXT_FIELDS)[number], string[]>> = {};
  #details: Record<string, JsonValue>[] | undefined;
  /** The key of each merged detail, by its position in `#details`. */
  #keys: string[] = [];
  /** A field streamed since the last flush. */
  #held = false;
  /** The model the chunks named, once one did. */
  #model: string | undefined;

  /** Reports through `emit`. */
  constructor(emit: Emit) {
    this.#emit = emit;
  }

  /**
   * Takes the model a chunk names (every chunk of a stream names the same); gives the one named
   * before, `""` when none was, `undefined` for the stream's first chunk.
   */
  model(model: unknown): string | undefined {
    const named = this.#model;
    this.#model = nonEmptyString(model) ?? named ?? "";
    return named;
  }

  /** Takes a delta's reasoning fields. */
  add(delta: Record<string, unknown>): void {
    for (const field of TEXT_FIELDS) {
      const text = delta[field];
      // An empty `reasoning_content` holds the field in the first chunk only: some servers send one in every chunk.
      if (typeof text === "string" && (text || (field === "reasoning_content" && delta["role"])))
        this.#text(field, text);
    }
    const details = delta["reasoning_details"];
    if (Array.isArray(details)) for (const detail of details) if (isRecord(detail)) this.#detail(detail);
  }

  /** The reasoning ended: one part per field that streamed, and nothing held. */
  flush(): void {
    // Called at every text delta and call fragment: nothing to do unless reasoning came.
    if (!this.#held) return;
    this.#held = false;
    // One part per field, in this order: `reasoning_content`, `reasoning`, `refusal`, `reasoning_details`.
    const parts: Extract<ReasoningPart, { type: "field" }>[] = [];
    for (const field of TEXT_FIELDS) {
      const text = this.#texts[field];
      if (text) parts.push({ type: "field", field, value: text.join("") });
    }
    if (this.#details) parts.push({ type: "field", field: "reasoning_details", value: this.#details });
    this.#texts = {};
    this.#details = undefined;
    this.#keys = [];
    for (const part of parts)
      this.#emit({ type: "reasoning-part", part: this.#model ? { ...part, model: this.#model } : part });
  }

  #text(field: (typeof TEXT_FIELDS)[number], text: string): void {
    this.#held = true;
    (this.#texts[field] ??= []).push(text);
  }

  #detail(detail: Record<string, unknown>): void {
    this.#held = true;
    const details = (this.#details ??= []);
    const index = detail["index"];
    const key = typeof index === "number" ? `#${index}` : `type:${String(detail["type"])}`;
    const at = this.#keys.lastIndexOf(key);
    const same = at !== -1 && (typeof index === "number" || at === details.length - 1);
    const target: Record<string, JsonValue> = same ? details[at]! : {};
    if (!same) {
      details.push(target);
      this.#keys.push(key);
    }
    for (const [name, value] of Object.entries(detail)) {
      if (value == null) continue;
      const previous = target[name];
      target[name] =
        FRAGMENTS.includes(name) && typeof value === "string" && typeof previous === "string"
          ? previous + value
          : (value as JsonValue);
    }
  }
}

/**
 * The names of model families that take a reasoning field back, each with the marks a model's
 * name carries (an `org/` prefix and a version aside): a field goes back to its own family only.
 */
const FAMILIES: readonly (readonly [string, ...string[]])[] = [
  ["deepseek"],
  ["kimi", "moonshot"],
  ["glm", "zhipu"],
  ["qwen", "qwq"],
  ["minimax"],
  ["gpt-oss"],
  ["grok"],
];

/**
 * The family of a model, for a reasoning field's way back: a known family's name (DeepSeek's
 * `deepseek-reasoner` and `deepseek-chat` are one), else the name itself without its `org/`
 * prefix and its snapshot date (the same model only: OpenAI streams `gpt-4o-2024-08-06` for a
 * request of `gpt-4o`, whose refusal goes back to `gpt-4o`).
 *
 * @example
 * ```ts
 * reasoningFamily("deepseek-reasoner") === reasoningFamily("deepseek-chat"); // true
 * reasoningFamily("moonshotai/kimi-k2-thinking"); // "kimi"
 * reasoningFamily("gpt-4o-2024-08-06"); // "gpt-4o"
 * ```
 */
export function reasoningFamily(model: string): string {
  const name = model
    .toLowerCase()
    .slice(model.lastIndexOf("/") + 1)
    .replace(/-\d{4}-\d\d-\d\d$/, "");
  return FAMILIES.find((marks) => marks.some((mark) => name.includes(mark)))?.[0] ?? name;
}
