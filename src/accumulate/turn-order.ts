import type { ReasoningPart } from "../shared/deltas.ts";
import type { TurnOrderEntry } from "../shared/turn-order.ts";
import type { AccumulatorState } from "./accumulator-state.ts";

/**
 * Notes a piece of the first choice's turn in `state.order` as it comes: a run of text (adjacent
 * runs joined), a call at its first fragment, a reasoning part (adjacent parts counted together).
 * The entries are as many as the turn's calls and parts, each bounded by its own limit, plus the
 * runs of text between them.
 *
 * @example
 * ```ts
 * noteTurnPiece(state, "text", delta.text.length);
 * ```
 */
export function noteTurnPiece(state: AccumulatorState, type: TurnOrderEntry["type"], value: number): void {
  const order = (state.order ??= []);
  const last = order.at(-1) as Record<string, number> | undefined;
  const key = type === "text" ? "length" : type === "tool-call" ? "index" : "count";
  if (type !== "tool-call" && last?.["type"] === (type as never)) last[key] = (last[key] ?? 0) + value;
  else if (value || type === "tool-call") order.push({ type, [key]: value } as TurnOrderEntry);
}

/**
 * The order for the `finish` event: undefined when it says nothing a turn without one does not
 * (reasoning parts, then text, then the calls by index, the order every next turn used before),
 * so that only a turn whose pieces came otherwise carries it.
 *
 * @example
 * ```ts
 * const order = finishOrder(state.order);
 * ```
 */
export function finishOrder(order: TurnOrderEntry[] | undefined): TurnOrderEntry[] | undefined {
  // The kinds in the order a turn without `order` goes back: parts (0), text (1), calls (2) by
  // index. Adjacent runs of one kind were joined, so a rank that never goes down is that order.
  let [rank, index] = [0, -1];
  for (const entry of order ?? []) {
    const next = entry.type === "text" ? 1 : entry.type === "tool-call" ? 2 : 0;
    if (next < rank || (entry.type === "tool-call" && entry.index < index)) return order;
    if (entry.type === "tool-call") index = entry.index;
    rank = next;
  }
  return undefined;
}

/**
 * A text or reasoning delta of the first choice: the finish carries its text and reasoning, and
 * where its text came.
 *
 * @example
 * ```ts
 * if (!delta.choice) addTurnText(state, delta);
 * ```
 */
export function addTurnText(
  state: AccumulatorState,
  delta: { type: "text-delta" | "reasoning-delta"; text: string },
): void {
  if (delta.type === "reasoning-delta") state.reasoning += delta.text;
  else {
    state.text += delta.text;
    noteTurnPiece(state, "text", delta.text.length);
  }
}

/**
 * A reasoning part: the finish lists it, in its place among the turn's text and calls; false, and
 * nothing kept, when the turn already holds `max` of them.
 *
 * @example
 * ```ts
 * if (!addReasoningPart(state, delta.part, 1024)) throw new Error("too many reasoning parts");
 * ```
 */
export function addReasoningPart(state: AccumulatorState, part: ReasoningPart, max: number): boolean {
  if ((state.reasoningParts ??= []).length >= max) return false;
  state.reasoningParts.push(part);
  noteTurnPiece(state, "reasoning-parts", 1);
  return true;
}
