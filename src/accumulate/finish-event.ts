import type { FinishEvent } from "../shared/events.ts";
import type { TurnBlocks } from "../shared/turn-blocks.ts";
import type { AccumulatorState } from "./accumulator-state.ts";
import { byIndex } from "./tool-call-registry.ts";

/**
 * The `finish` event of a closed accumulator's state: the state's fields in order (its own flags
 * left out), calls sorted, the reason normalized, then the `blocks` plug-in's fields. What the
 * response says once every call is settled, apart from how deltas became calls: the accumulator
 * builds it once, at its end. Not exported by the package.
 *
 * @example
 * ```ts
 * enqueue(finishEvent(state, options.turnBlocks));
 * ```
 */
export function finishEvent(s: AccumulatorState, blocks: TurnBlocks | undefined): FinishEvent {
  const { finishSeen: _f, providerErrorSeen: _p, closed: _c, order: _o, reason: given = "other", ...fields } = s;
  fields.toolCalls.sort(byIndex);
  fields.invalidToolCalls.sort(byIndex);
  // `tool-calls`: calls to answer; a normal stop with complete calls is one (OpenAI's `stop` for a forced function,
  // Gemini's `STOP`), and an end with no finish (`[DONE]`) unless a value was cut short (`invalid-json`). `turnBlocks`
  // tells calls the provider ran apart. A provider's error, or a call a skipped payload cut, fails a turn not refused:
  // set last, so no plug-in's reason overrides it (`approval`: nothing of a failed turn is to be approved).
  const failed = s.providerErrorSeen || fields.invalidToolCalls.some((call) => call.error.code === "malformed-payload");
  const answer =
    fields.toolCalls.some((call) => !call.providerExecuted && !call.choice) &&
    (!s.reason ? !s.invalidToolCalls.some((call) => call.error.code === "invalid-json") : given === "stop");
  const event: FinishEvent = { type: "finish", reason: answer ? "tool-calls" : given, ...fields };
  blocks?.finish(s, event);
  if (failed && given !== "content-filter") event.reason = "error";
  return event;
}
