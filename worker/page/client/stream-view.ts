import type {
  AbortEvent,
  ErrorEvent,
  FinishEvent,
  LoopFinishReason,
  StepFinishEvent,
  ToolApprovalRequestEvent,
  ToolCallEvent,
  ToolErrorEvent,
  ToolResultEvent,
} from "../../../src/index.ts";
import { ToolCallCard } from "./tool-call-card.ts";

/** What `POST /v1/run` sends: the events of each step tagged with it, `step-finish`s and a last `loop-finish`. */
export type RunEvent =
  | ((ToolCallEvent | ToolResultEvent | ToolErrorEvent | ToolApprovalRequestEvent) & { step: number })
  | StepFinishEvent
  | { type: "loop-finish"; steps: number; reason: LoopFinishReason };

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
  #step = 0;

  constructor(elements: StreamViewElements) {
    this.#el = elements;
    this.#el.text.textContent = "";
    this.#el.reasoning.textContent = "";
    this.#el.reasoningBox.hidden = true;
    this.#el.calls.replaceChildren();
  }

  /** Shows one event of `/v1/run`: the stream's own, tagged with their step, and the tools' outcomes. */
  applyRun(event: RunEvent): void {
    if (event.type === "loop-finish") {
      const errors = this.#errors.length > 0 ? ` ${this.#errors.length} error(s): ${this.#errors.join(" ")}` : "";
      return this.status(
        `Run finished (${event.reason}) after ${event.steps} step(s) and ${this.#events} events.${errors}`,
      );
    }
    if (event.type === "step-finish")
      return this.status(`Step ${event.step} finished; ${event.messages.length} message(s) go back to the model.`);
    // Each step's text is a new paragraph of the answer.
    if (event.type === "text-delta" && event.step !== this.#step && this.#el.text.textContent !== "")
      this.#el.text.append("\n\n");
    this.#step = event.step;
    switch (event.type) {
      case "tool-result":
        this.#events++;
        // A streaming tool's result so far: each one replaces the last, until the final one.
        return this.#card(event).result(event.result, event.truncated === true, event.preliminary === true);
      case "tool-error":
        this.#events++;
        return this.#card(event).failed(event.error);
      case "tool-approval-request":
        this.#events++;
        return this.status(`Step ${event.step}: ${event.name} waits for an approval this page cannot give.`);
      default:
        return this.apply(event);
    }
  }

  /** Shows one event. In run mode, cards are per step: call indices start again at 0 in each. */
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
      case "tool-call-violation":
        return this.#card(event).violated(event.error);
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
    const key = `${this.#step}-${call.choice ?? 0}-${call.index}`;
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
    if (this.#step > 0)
      return this.status(
        `Step ${this.#step}: the model finished (${event.reason}) with ${event.toolCalls.length + event.invalidToolCalls.length} tool call(s); running them…`,
      );
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
