import type { FinishReason } from "../shared/deltas.ts";
import type { InvalidToolCallEvent } from "../shared/events.ts";
import { type EncodableEvent, withdrawn } from "./protocol-encoder.ts";

/**
 * Holds a response's `invalid-tool-call`s until the next event says whether the finish cut them.
 * The accumulator completes the calls still open at an abnormal finish (`length`, a filter, an
 * error) right before that `finish`, each an `invalid-tool-call`: a call cut short, not one the
 * model wrote wrong, and a protocol whose clients run a call once it is ended (AG-UI's frontend
 * tools at `TOOL_CALL_END`) must never end it. Any other event releases the held calls, to be
 * ended as before. A withdrawn call is never held.
 */
export class HeldCalls {
  #held: InvalidToolCallEvent[] = [];

  /** Holds `event` if it is an `invalid-tool-call` the next event may show cut; false for any other event. */
  hold(event: EncodableEvent): boolean {
    if (event.type !== "invalid-tool-call" || withdrawn(event)) return false;
    this.#held.push(event);
    return true;
  }

  /** Before `event`: the calls held, and the reason of the finish that cut them when `event` is one. */
  release(event: EncodableEvent): Released {
    if (this.#held.length === 0) return NONE;
    const calls = this.#held;
    this.#held = [];
    return event.type === "finish" && CUTTING.has(event.reason) ? { calls, cut: event.reason } : { calls };
  }
}

/** What {@link HeldCalls.release} gives back. */
export interface Released {
  calls: readonly InvalidToolCallEvent[];
  /** The finish that cut them: `length`, `content-filter`, `error` or `other`; absent when they were not cut. */
  cut?: FinishReason;
}

const NONE: Released = { calls: [] };

/** The finishes that leave the calls still open cut short. */
// `other` (Gemini's OTHER, FINISH_REASON_UNSPECIFIED) is no normal finish either: the accumulator cuts what is open.
const CUTTING: ReadonlySet<FinishReason> = new Set<FinishReason>(["length", "content-filter", "error", "other"]);

/** The error of a run whose finish (`length`, `content-filter`) cut a call, for protocols that end such a run failed. */
export const cutCallError = (reason: string): { code: string; message: string } => ({
  code: reason,
  message: `The response stopped (${reason}) before the arguments of a tool call were complete.`,
});
