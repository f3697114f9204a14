import { arrayOf, isRecord } from "../../shared/values.ts";
import type { Emit } from "../provider-decoder.ts";

/**
 * A message's text that no `response.output_text.delta` streamed: some servers put it only in the
 * events that end it (`response.output_text.done`'s `text`, the message of `output_item.done`, or
 * `response.completed`'s `output`), as gateways in front of Gemini and OpenRouter do (TanStack/ai
 * #937, gemini-web2api #57). Read from the first of them that carries it, once per message (known
 * by its id and by its place, since a server may name it anew at its end or not at all), and only
 * while no delta streamed in the response: a server that changes an item's id between its events
 * (vLLM, mistral.rs) never gets its text twice. Only in a stream that opened with the response
 * (`response.created`): one resumed after a cut (`starting_after`) ends text it did not stream. One
 * per response.
 *
 * @example
 * ```ts
 * const final = new ResponsesFinalText();
 * final.open(); // at `response.created`
 * final.done({ item_id: "msg_1", content_index: 0, text: "4" }, emit); // emits { type: "text-delta", text: "4" }
 * final.item({ type: "message", id: "msg_1", content: [{ type: "output_text", text: "4" }] }, 0, emit); // given: nothing
 * ```
 */
export class ResponsesFinalText {
  /** Whether a text delta streamed: the events that end a message then repeat it. */
  #streamed = false;
  /**
   * Whether the stream opened with the response (`response.created`, `response.in_progress`): one
   * resumed after a cut (`starting_after`) opens past them, and its `.done` events end text the
   * client already has (review 77).
   */
  #opened = false;
  /** The messages (and a message's parts, at their `.done`) whose text was given. */
  readonly #given = new Set<string>();

  /** The response opened in this stream: what ends its messages may hold text no delta gave. */
  open(): void {
    this.#opened = true;
  }

  /** A text delta streamed: emitted, and the events that end its message hold nothing more. */
  delta(text: string, emit: Emit): void {
    this.#streamed = true;
    emit({ type: "text-delta", text });
  }

  /** A `response.output_text.done`: its `text`, when no delta streamed. */
  done(event: Record<string, unknown>, emit: Emit): void {
    const text = event["text"];
    const keys = keysOf(event["item_id"], event["output_index"]);
    const part = `${keys[0]} ${String(event["content_index"])}`;
    if (this.#streamed || !this.#opened || typeof text !== "string" || this.#given.has(part)) return;
    this.#given.add(part);
    for (const key of keys) this.#given.add(key);
    if (text !== "") emit({ type: "text-delta", text });
  }

  /** A `message` item at its end (`output_item.done`, `response.completed`): its `output_text` parts' text, when nothing gave it. */
  item(item: Record<string, unknown>, index: number | undefined, emit: Emit): void {
    const keys = keysOf(item["id"], index);
    // Given under its id or its place: a server may name the message anew at its end, or not at all (review 77).
    if (this.#streamed || !this.#opened || keys.some((key) => this.#given.has(key))) return;
    for (const key of keys) this.#given.add(key);
    let text = "";
    for (const part of arrayOf(item["content"]))
      if (isRecord(part) && part["type"] === "output_text" && typeof part["text"] === "string") text += part["text"];
    if (text !== "") emit({ type: "text-delta", text });
  }
}

/** A message's keys: its id (if any) and its place in the output; never a key two messages without ids share (review 77). */
const keysOf = (id: unknown, index: unknown): string[] =>
  typeof id === "string" && id !== "" ? [id, `#${String(index)}`] : [`#${String(index)}`];
