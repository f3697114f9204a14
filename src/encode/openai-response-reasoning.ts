import type { OpenAIResponsesOutputItem } from "./openai-responses-wire.ts";

type Send = (type: string, fields: Record<string, unknown>) => void;
type ReasoningItem = Extract<OpenAIResponsesOutputItem, { type: "reasoning" }>;

/**
 * The texts of the reasoning item being written (one item is open at a time): the summary
 * (`reasoning_summary_*` events, the item's `summary_text` part) and the raw reasoning
 * (`reasoning_text` events, the item's `reasoning_text` content part, gpt-oss's), each one part.
 * A reasoning fragment is raw when its `reasoning-delta` said `field: "content"`; the block
 * sequencer writes reasoning fragments in the order they came (each goes to the last block), so
 * their fields wait here in that order.
 */
export class ResponsesReasoningTexts {
  readonly #raw: boolean[] = [];
  #summary = "";
  #content = "";

  /** A reasoning fragment came (written now or later, in this order). */
  came(text: string, field: "summary" | "content" | undefined): void {
    if (text !== "") this.#raw.push(field === "content");
  }

  /** Writes the next reasoning fragment of the open item. */
  delta(at: { item_id: string; output_index: number }, delta: string, send: Send): void {
    if (this.#raw.shift()) {
      if (this.#content === "") send("response.content_part.added", { ...at, content_index: 0, part: raw("") });
      this.#content += delta;
      return send("response.reasoning_text.delta", { ...at, content_index: 0, delta });
    }
    if (this.#summary === "")
      send("response.reasoning_summary_part.added", { ...at, summary_index: 0, part: summary("") });
    this.#summary += delta;
    send("response.reasoning_summary_text.delta", { ...at, summary_index: 0, delta });
  }

  /** Ends the open item's parts, and puts them in the item. */
  close(item: ReasoningItem, at: { item_id: string; output_index: number }, send: Send): void {
    const text = this.#summary;
    const content = this.#content;
    this.#summary = this.#content = "";
    if (text !== "") {
      send("response.reasoning_summary_text.done", { ...at, summary_index: 0, text });
      send("response.reasoning_summary_part.done", { ...at, summary_index: 0, part: summary(text) });
      item.summary = [summary(text)];
    }
    if (content !== "") {
      send("response.reasoning_text.done", { ...at, content_index: 0, text: content });
      send("response.content_part.done", { ...at, content_index: 0, part: raw(content) });
      item.content = [raw(content)];
    }
  }
}

const summary = (text: string): { type: "summary_text"; text: string } => ({ type: "summary_text", text });
const raw = (text: string): { type: "reasoning_text"; text: string } => ({ type: "reasoning_text", text });
