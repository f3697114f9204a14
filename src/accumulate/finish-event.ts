import type { FinishEvent } from "../shared/events.ts";
import type { AccumulatorState } from "./accumulator-state.ts";
import { finishOrder } from "./turn-order.ts";

/** Orders calls by choice, then index. */
const byIndex = (a: { index: number; choice?: number }, b: { index: number; choice?: number }): number =>
  (a.choice ?? 0) - (b.choice ?? 0) || a.index - b.index;

/**
 * The `finish` event of an accumulator's state: its fields in their order, the calls sorted by
 * choice and index, and the reason normalized.
 *
 * @example
 * ```ts
 * enqueue(finishEvent(state));
 * ```
 */
export function finishEvent(state: AccumulatorState): FinishEvent {
  const {
    finishSeen: _finishSeen,
    providerErrorSeen: _providerErrorSeen,
    closed: _closed,
    reason = "other",
    order: pieces,
    ...fields
  } = state;
  fields.toolCalls.sort(byIndex);
  fields.invalidToolCalls.sort(byIndex);
  // `tool-calls` says the client has calls to answer: a normal stop with complete calls is one
  // (OpenAI says `stop` when `tool_choice` forces a function, Gemini always says `STOP`); calls the
  // provider ran itself alone (Anthropic's web search, code execution, MCP), even one whose input
  // did not parse, are not: the client has nothing to run or answer.
  const clientCalls = fields.toolCalls.some((call) => !call.providerExecuted);
  const providerCallsOnly =
    !clientCalls &&
    fields.invalidToolCalls.every((call) => call.providerExecuted) &&
    fields.toolCalls.length + fields.invalidToolCalls.length > 0;
  const toolCalls = clientCalls && (reason === "stop" || state.reason === undefined);
  // A turn with approval requests waits on the application's answer, whatever else it holds: a
  // provider ends it as a normal stop (OpenAI's `completed`), which would end a loop unanswered.
  const normalized =
    fields.approvalRequests && (reason === "stop" || reason === "tool-calls" || state.reason === undefined)
      ? "approval"
      : toolCalls
        ? "tool-calls"
        : providerCallsOnly && reason === "tool-calls"
          ? "stop"
          : reason;
  const order = finishOrder(pieces);
  return { type: "finish", reason: normalized, ...fields, ...(order ? { order } : {}) };
}
