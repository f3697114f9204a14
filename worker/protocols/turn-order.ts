/**
 * Where an assistant turn's text, calls and reasoning came in a client's history (Codex's input
 * items, Claude Code's content blocks), as the `/v1/stream` message's `order` (the library's
 * `TurnOrderEntry`s, each call placed by its `index`), so that the provider gets the turn back in
 * the order it streamed it: OpenAI Responses refuses a reasoning item without the item that
 * followed it, and Anthropic's blocks go back in block order.
 *
 * @module
 */
import type { TurnOrderEntry } from "../../src/index.ts";
import type { WireMessage } from "./client-request.ts";

type Assistant = Extract<WireMessage, { role: "assistant" }>;

/** What the conversation's last assistant message held before an item was read. */
export interface TurnMark {
  readonly message: Assistant | undefined;
  readonly text: number;
  readonly calls: number;
  readonly parts: number;
}

/**
 * What the last message holds, before a client's item or block is read into it.
 *
 * @example
 * ```ts
 * const mark = turnMark(messages);
 * addItem(messages, item);
 * noteTurn(messages, mark);
 * ```
 */
export function turnMark(messages: readonly WireMessage[]): TurnMark {
  const last = messages.at(-1);
  return last?.role === "assistant"
    ? {
        message: last,
        text: last.content.length,
        calls: last.tool_calls.length,
        parts: last.reasoning_parts?.length ?? 0,
      }
    : { message: undefined, text: 0, calls: 0, parts: 0 };
}

/**
 * Notes in the last assistant message's `order` what one item or block added to it since `mark`:
 * its reasoning parts, its text, its calls (each given its place in `tool_calls` as its `index`).
 *
 * @example
 * ```ts
 * noteTurn(messages, mark);
 * ```
 */
export function noteTurn(messages: readonly WireMessage[], mark: TurnMark): void {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return;
  const from = mark.message === last ? mark : { text: 0, calls: 0, parts: 0 };
  const order = (last.order ??= []);
  add(order, "reasoning-parts", (last.reasoning_parts?.length ?? 0) - from.parts);
  add(order, "text", last.content.length - from.text);
  for (let j = from.calls; j < last.tool_calls.length; j++) {
    last.tool_calls[j]!.index = j;
    order.push({ type: "tool-call", index: j });
  }
}

/** Adds a run of text or of parts, joined to the last entry when it is of the same kind. */
function add(order: TurnOrderEntry[], type: "text" | "reasoning-parts", n: number): void {
  if (n <= 0) return;
  const last = order.at(-1);
  if (type === "text") {
    if (last?.type === "text") last.length += n;
    else order.push({ type, length: n });
  } else if (last?.type === "reasoning-parts") last.count += n;
  else order.push({ type, count: n });
}

/**
 * The `order` of one assistant message read block by block (Claude Code's content blocks): call
 * `note` before each block and once after the last, with the text, calls and parts read so far;
 * within a block, its text comes before its parts (a cited text block's citations) and its calls.
 * A call taken back (the `tool_use` a `fallback` block withdrew) loses its entry.
 *
 * @example
 * ```ts
 * const notes = new TurnNotes();
 * blocks.forEach((block) => { notes.note(text, toolCalls, parts); read(block); });
 * notes.note(text, toolCalls, parts);
 * ```
 */
export class TurnNotes {
  /** The entries so far. */
  readonly order: TurnOrderEntry[] = [];
  #text = 0;
  #calls = 0;
  #parts = 0;

  /** Notes what was read since the last call. */
  note(text: readonly string[], calls: { index?: number }[], parts: readonly unknown[]): void {
    for (const said of text.slice(this.#text)) add(this.order, "text", said.length);
    add(this.order, "reasoning-parts", parts.length - this.#parts);
    if (calls.length < this.#calls)
      for (let at = this.order.length - 1; at >= 0; at--)
        if (this.order[at]!.type === "tool-call") {
          this.order.splice(at, 1);
          break;
        }
    for (let j = this.#calls; j < calls.length; j++) {
      calls[j]!.index = j;
      this.order.push({ type: "tool-call", index: j });
    }
    [this.#text, this.#calls, this.#parts] = [text.length, calls.length, parts.length];
  }
}
