/**
 * The AG-UI encoder's reasoning: a span and a message per stretch of reasoning, and each block's
 * provider state as `REASONING_ENCRYPTED_VALUE` on its message.
 *
 * @module
 */
import type { ReasoningPart } from "../shared/deltas.ts";
import { sseData } from "./protocol-encoder.ts";

/**
 * The reasoning span and message open in an AG-UI answer, as `@ag-ui/client` keeps them: a
 * message of role `reasoning` in the agent's history, sent back on the next run with the
 * `encryptedValue` a `REASONING_ENCRYPTED_VALUE` event set on it.
 *
 * @example
 * ```ts
 * const reasoning = new AGUIReasoning(() => `msg_${crypto.randomUUID()}`, true, undefined);
 * const out: string[] = [];
 * reasoning.delta("Let me think.", out);
 * reasoning.close(out); // REASONING_START, REASONING_MESSAGE_START, _CONTENT, _END, REASONING_END
 * ```
 */
export class AGUIReasoning {
  readonly #newId: () => string;
  readonly #on: boolean;
  readonly #encryptedValue: ((part: ReasoningPart) => string | undefined) | undefined;
  #ids: { span: string; message: string } | undefined;

  /** Reasoning with ids from `newId`, none sent unless `on`, each block's state from `encryptedValue`. */
  constructor(
    newId: () => string,
    on: boolean,
    encryptedValue: ((part: ReasoningPart) => string | undefined) | undefined,
  ) {
    this.#newId = newId;
    this.#on = on;
    this.#encryptedValue = encryptedValue;
  }

  /** A fragment of reasoning text, in the open message (opened when none is). */
  delta(delta: string, out: string[]): void {
    if (delta === "" || !this.#on) return;
    out.push(sseData({ type: "REASONING_MESSAGE_CONTENT", messageId: this.#open(out), delta }));
  }

  /**
   * A block's end: its provider state on its reasoning message (one of no text, a redacted
   * block's, opened for it), which then ends, so that the next block's message keeps its own.
   */
  part(part: ReasoningPart, out: string[]): void {
    const encryptedValue = this.#on ? this.#encryptedValue?.(part) : undefined;
    if (encryptedValue === undefined) return;
    const entityId = this.#open(out);
    out.push(sseData({ type: "REASONING_ENCRYPTED_VALUE", subtype: "message", entityId, encryptedValue }));
    this.close(out);
  }

  /** Ends the open message and its span, if any (when text or a call begins, or the answer ends). */
  close(out: string[]): void {
    if (!this.#ids) return;
    out.push(sseData({ type: "REASONING_MESSAGE_END", messageId: this.#ids.message }));
    out.push(sseData({ type: "REASONING_END", messageId: this.#ids.span }));
    this.#ids = undefined;
  }

  #open(out: string[]): string {
    if (!this.#ids) {
      this.#ids = { span: this.#newId(), message: this.#newId() };
      out.push(sseData({ type: "REASONING_START", messageId: this.#ids.span }));
      out.push(sseData({ type: "REASONING_MESSAGE_START", messageId: this.#ids.message, role: "reasoning" }));
    }
    return this.#ids.message;
  }
}
