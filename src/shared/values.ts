/**
 * Small readers of untrusted JSON values, used by every stage that reads a provider's or a
 * client's data: own-key lookups, shape checks, and the `choice` field of deltas and events.
 *
 * @module
 */
import type { ReasoningPart } from "./deltas.ts";

/**
 * `table[key]` when `key` is one of the table's own keys: a provider value such as `constructor`
 * or `toString` must not find `Object.prototype`'s members in a lookup table.
 */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An array field, or an empty array when absent or not an array. */
export function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A string field, or `undefined` when absent, not a string, or empty. */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Sets `choice` on a new delta or event only when it is not the first, so single-choice ones stay lean. */
export function withChoice<T extends object>(delta: T, choice: number | undefined): T & { choice?: number } {
  if (choice) (delta as { choice?: number }).choice = choice;
  return delta;
}

/** OpenAI's refusal: a `field` part of the turn. */
type RefusalPart = Extract<ReasoningPart, { type: "field" }> & { field: "refusal"; value: string };

/**
 * Whether a part is OpenAI's refusal (`refusal`, a `field` part of the turn, from OpenAI Chat or
 * OpenAI Responses): the OpenAI Chat encoders write its `value` as the message's `refusal`, the
 * Responses encoder as a message's `refusal` content part, the other protocols as text, the only
 * place their clients show what the model said.
 *
 * @example
 * ```ts
 * isRefusal({ type: "field", field: "refusal", value: "I can't help with that." }); // true
 * ```
 */
export const isRefusal = (part: ReasoningPart): part is RefusalPart =>
  part.type === "field" && part.field === "refusal" && typeof part.value === "string";

/**
 * The `phase` of the OpenAI Responses message the text after this part is (`commentary`, a
 * preamble before calls, or `final_answer`), when the part is that message's `{ type: "phase",
 * phase }` block (kept by `ResponsesCitations` at the message's `output_item.added`): the next turn
 * sends it back on that message, as gpt-5.3-codex and later models need, and the Responses
 * encoder ends the message item it has open (two messages back to back stay two) and writes it on
 * the message item it opens next.
 *
 * @example
 * ```ts
 * phaseOf({ type: "block", block: { type: "phase", phase: "commentary" } }); // "commentary"
 * ```
 */
export const phaseOf = (part: ReasoningPart): string | undefined =>
  part.type === "block" && part.block["type"] === "phase" && typeof part.block["phase"] === "string"
    ? part.block["phase"]
    : undefined;
