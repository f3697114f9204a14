import type { AbortEvent, ErrorEvent, FinishEvent, ToolCallEvent } from "../../../src/index.ts";
import { ToolCallCard } from "./tool-call-card.ts";

/** The page regions a stream is shown in. */
export interface StreamViewElements {
  status: HTMLElement;
  text: HTMLElement;
  reasoning: HTMLElement;
  reasoningBox: HTMLDetailsElement;
  calls: HTMLOListElement;
}

/** Shows the events of one response: text as it arrives, one card per call, a status line. */
export class StreamView {
  readonly #el: StreamViewElements;
  readonly #cards = new Map<string, ToolCallCard>();
  readonly #errors: string[] = [];
  #events = 0;

  constructor(elements: StreamViewElements) {
    this.#el = elements;
    this.#el.text.textContent = "";
    this.#el.reasoning.textContent = "";
    this.#el.reasoningBox.hidden = true;
    this.#el.calls.replaceChildren();
  }

  /** Shows one event. */
  apply(event: ToolCallEvent): void {
    this.#events++;
    switch (event.type) {
      case "text-delta":
        return void this.#el.text.append(event.text);
      case "reasoning-delta":
        this.#el.reasoningBox.hidden = false;
        return void this.#el.reasoning.append(event.text);
      case "tool-call-start":
        return void this.#card(event);
      case "tool-call-delta":
        return this.#card(event).appendArguments(event.argumentsDelta);
      case "tool-call":
        return this.#card(event).complete(event);
      case "invalid-tool-call":
        return this.#card(event).invalid(event);
      case "error":
        return this.#error(event);
      case "finish":
        return this.#finish(event);
      case "abort":
        return this.#abort(event);
    }
  }

  /** The page stopped reading (Stop, or the connection failed): open calls are discarded. */
  stopped(text: string): void {
    for (const card of this.#cards.values()) if (card.open) card.discard();
    this.status(text);
  }

  /** Shows a status line (`Sending…`, an HTTP error). */
  status(text: string): void {
    this.#el.status.textContent = text;
  }

  #card(call: { index: number; choice?: number; id: string | null; name?: string }): ToolCallCard {
    const key = `${call.choice ?? 0}-${call.index}`;
    let card = this.#cards.get(key);
    if (!card) {
      card = new ToolCallCard(key, call.name ?? "(unnamed)", call.id);
      this.#cards.set(key, card);
      this.#el.calls.append(card.element);
    }
    return card;
  }

  #error(event: ErrorEvent): void {
    this.#errors.push(event.error.message);
    this.status(`Error: ${event.error.message}`);
  }

  #finish(event: FinishEvent): void {
    const calls = event.toolCalls.length + event.invalidToolCalls.length;
    const errors = this.#errors.length > 0 ? ` ${this.#errors.length} error(s): ${this.#errors.join(" ")}` : "";
    this.status(`Finished (${event.reason}) with ${calls} tool call(s) after ${this.#events} events.${errors}`);
  }

  #abort(event: AbortEvent): void {
    for (const call of event.discarded) this.#card(call).discard(call);
    const why = event.error ? ` ${event.error.message}` : "";
    this.status(`Stopped (${event.reason}) after ${this.#events} events.${why}`);
  }
}
