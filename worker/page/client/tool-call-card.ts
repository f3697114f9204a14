import type {
  DiscardedToolCall,
  InvalidToolCall,
  JsonValue,
  SchemaViolation,
  ToolCall,
  ToolErrorInfo,
} from "../../../src/index.ts";

/** Where a call stands, shown on its card as a badge and as `data-state`. */
export type CardState = "streaming" | "complete" | "invalid" | "discarded";

const LABELS: Record<CardState, string> = {
  streaming: "streaming…",
  complete: "complete",
  invalid: "invalid",
  discarded: "discarded",
};

/**
 * One tool call on the page: its name, id and a state badge, and the arguments, which fill in
 * as fragments arrive and are replaced by the parsed, indented JSON once the call completes.
 * Text goes in through `textContent` only: model output is never parsed as HTML.
 */
export class ToolCallCard {
  readonly element: HTMLLIElement;
  readonly #badge: HTMLSpanElement;
  readonly #id: HTMLElement;
  readonly #args: HTMLElement;
  readonly #note: HTMLParagraphElement;
  readonly #article: HTMLElement;
  /** What early validation said, once the arguments could no longer match the tool's schema. */
  #violation: string | undefined;

  constructor(key: string, name: string, id: string | null) {
    this.element = document.createElement("li");
    this.element.className = "card";
    const article = document.createElement("article");
    const header = document.createElement("header");
    const title = document.createElement("h4");
    title.id = `call-${key.replace(/\W/g, "-")}`;
    title.textContent = name;
    article.setAttribute("aria-labelledby", title.id);
    this.#id = document.createElement("code");
    this.#id.className = "call-id";
    this.#id.textContent = id ?? "no id";
    this.#badge = document.createElement("span");
    this.#badge.className = "badge";
    header.append(title, this.#id, this.#badge);
    const pre = document.createElement("pre");
    pre.setAttribute("aria-label", `Arguments of ${name}`);
    this.#args = document.createElement("code");
    pre.append(this.#args);
    this.#note = document.createElement("p");
    this.#note.className = "note";
    this.#note.hidden = true;
    article.append(header, pre, this.#note);
    this.#article = article;
    this.element.append(article);
    this.#setState("streaming");
  }

  /** Appends a fragment of the arguments text. */
  appendArguments(fragment: string): void {
    this.#args.textContent += fragment;
  }

  /** The call completed with parsed arguments. */
  complete(call: ToolCall): void {
    if (call.id !== null) this.#id.textContent = call.id;
    this.#args.textContent = JSON.stringify(call.arguments, null, 2);
    this.#setState("complete");
  }

  /** The call completed, but its arguments could not be used. */
  invalid(call: InvalidToolCall): void {
    this.#args.textContent = call.rawArguments;
    this.#showNote(this.#violation ? `${this.#violation} ${call.error.message}` : call.error.message);
    this.#setState("invalid");
  }

  /**
   * Early validation found that the arguments can no longer match the tool's schema: the card is
   * invalid from this moment, while the rest of the arguments may still stream in.
   */
  violated(error: SchemaViolation): void {
    this.#violation = `Can no longer match the tool's schema, at ${error.path === "" ? "the top level" : error.path}: ${error.message}`;
    this.#showNote(this.#violation);
    this.#setState("invalid");
  }

  /** The stream stopped while the call was open (without `call`: the page itself stopped it). */
  discard(call?: DiscardedToolCall): void {
    if (call) this.#args.textContent = call.rawArguments;
    if (this.#violation) return this.#showNote(`${this.#violation} The stream was stopped there.`);
    this.#showNote("The stream ended before this call completed; its arguments were not used.");
    this.#setState("discarded");
  }

  /**
   * The Worker ran the call (run mode): its result goes under the arguments. A `preliminary` one
   * (a tool that streams its result) is shown as the result so far, replaced by the next.
   */
  result(value: JsonValue, truncated: boolean, preliminary = false): void {
    const remark = truncated ? "Cut to the size limit." : undefined;
    this.#outcome(
      preliminary ? "Result so far…" : "Result",
      "result",
      typeof value === "string" ? value : JSON.stringify(value, null, 2),
      remark,
    );
    const outcome = this.#article.querySelector<HTMLElement>(".outcome");
    if (outcome) outcome.dataset["state"] = preliminary ? "growing" : "final";
  }

  /** The call gave no result (run mode): what the model is told, under the arguments. */
  failed(error: ToolErrorInfo): void {
    this.#outcome(`Tool error (${error.code})`, "error", error.message);
  }

  /** True while the call is still streaming. */
  get open(): boolean {
    return this.element.dataset["state"] === "streaming";
  }

  #setState(state: CardState): void {
    this.element.dataset["state"] = state;
    this.#badge.textContent = LABELS[state];
  }

  /** A section under the arguments, made only when there is an outcome (stream mode has none). */
  #outcome(title: string, kind: "result" | "error", text: string, remark?: string): void {
    const section = document.createElement("section");
    section.className = `outcome ${kind}`;
    const heading = document.createElement("h5");
    heading.textContent = title;
    const body = document.createElement("pre");
    body.setAttribute("aria-label", `${title} of ${this.element.querySelector("h4")?.textContent ?? "the call"}`);
    body.textContent = text;
    section.append(heading, body);
    if (remark) {
      const note = document.createElement("p");
      note.className = "note";
      note.textContent = remark;
      section.append(note);
    }
    this.#article.querySelector(".outcome")?.remove();
    this.#article.append(section);
  }

  #showNote(text: string): void {
    this.#note.textContent = text;
    this.#note.hidden = false;
  }
}
