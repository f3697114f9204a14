import type { ReasoningPart } from "../shared/deltas.ts";
import { DEFAULT_MAX_TOOL_CALLS, type ToolCallAccumulatorOptions } from "./accumulator-options.ts";
import type { AccumulatorState } from "./accumulator-state.ts";

/**
 * A text or reasoning delta of the first choice: the finish carries its text and reasoning, and
 * (with the `turnBlocks` plug-in) where its text came.
 *
 * @example
 * ```ts
 * if (!delta.choice) addTurnText(state, delta, options);
 * ```
 */
export function addTurnText(
  state: AccumulatorState,
  delta: { type: "text-delta" | "reasoning-delta"; text: string },
  { turnBlocks }: ToolCallAccumulatorOptions,
): void {
  if (delta.type === "reasoning-delta") state.reasoning += delta.text;
  else {
    state.text += delta.text;
    turnBlocks?.note(state, "text", delta.text.length);
  }
}

/**
 * A reasoning part: the finish lists it (with the `turnBlocks` plug-in, in its place among the
 * turn's text and calls); false, and nothing kept, when the turn already holds `maxToolCalls` of them.
 *
 * @example
 * ```ts
 * if (!addReasoningPart(state, delta.part, options)) throw new Error("too many reasoning parts");
 * ```
 */
export function addReasoningPart(
  state: AccumulatorState,
  part: ReasoningPart,
  { maxToolCalls = DEFAULT_MAX_TOOL_CALLS, turnBlocks }: ToolCallAccumulatorOptions,
): boolean {
  if ((state.reasoningParts ??= []).length >= maxToolCalls) return false;
  state.reasoningParts.push(part);
  turnBlocks?.note(state, "reasoning-parts", 1);
  return true;
}
