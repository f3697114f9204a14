import type { ReasoningPart } from "../shared/deltas.ts";

/** OpenAI Chat's refusal: a `field` part of the turn. */
type RefusalPart = Extract<ReasoningPart, { type: "field" }> & { field: "refusal"; value: string };

/**
 * Whether a part is OpenAI Chat's refusal (`refusal`, a `field` part of the turn): the OpenAI Chat
 * encoders write its `value` as the message's `refusal`, the other protocols as text, the only
 * place their clients show what the model said.
 *
 * @example
 * ```ts
 * isRefusal({ type: "field", field: "refusal", value: "I can't help with that." }); // true
 * ```
 */
export const isRefusal = (part: ReasoningPart): part is RefusalPart =>
  part.type === "field" && part.field === "refusal" && typeof part.value === "string";
