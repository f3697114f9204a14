import type { FinishEvent } from "../shared/events.ts";
import type { AccumulatorState } from "./accumulator-state.ts";
import type { TurnBlocks } from "../shared/turn-blocks.ts";

/** Orders calls by choice, then index. */
const byIndex = (a: { index: number; choice?: number }, b: { index: number; choice?: number }): number =>
  (a.choice ?? 0) - (b.choice ?? 0) || a.index - b.index;

/**
 * The `finish` event of an accumulator's state: its fields in their order, the calls sorted by
 * choice and index, the reason normalized, then completed by the `turnBlocks` plug-in, if given.
 *
 * @example
 * ```ts
 * enqueue(finishEvent(state));
 * ```
 */
export function finishEvent(state: AccumulatorState, turnBlocks?: TurnBlocks): FinishEvent {
  const {
    finishSeen: _finishSeen,
    providerErrorSeen: _providerErrorSeen,
    closed: _closed,
    reason = "other",
    order: _order,
    ...fields
  } = state;
  fields.toolCalls.sort(byIndex);
  fields.invalidToolCalls.sort(byIndex);
  // `tool-calls` says the client has calls to answer: a normal stop with complete calls is one
  // (OpenAI says `stop` when `tool_choice` forces a function, Gemini always says `STOP`). Calls the
  // provider ran itself come in turns of blocks: the `turnBlocks` plug-in tells them apart.
  const toolCalls =
    fields.toolCalls.some((call) => !call.providerExecuted) && (reason === "stop" || state.reason === undefined);
  const event: FinishEvent = { type: "finish", reason: toolCalls ? "tool-calls" : reason, ...fields };
  turnBlocks?.finish(state, event);
  return event;
}
