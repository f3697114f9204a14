import type { FinishEvent, InvalidToolCall, ToolCall } from "../shared/events.ts";
import { callKey } from "../shared/call-key.ts";
import { eventStep, type EventStep } from "./event-step.ts";

/** When a call's arguments started and completed, by the injected clock. */
interface Times {
  startedAt?: number;
  completedAt: number;
}

/**
 * The step that stamps each call with the times of its arguments, read from `clock` (in
 * milliseconds; inject it, e.g. `() => performance.now()`): `startedAt` when its first argument
 * fragment came (its `tool-call-start`), `completedAt` when it completed, on its `tool-call` or
 * `invalid-tool-call` event and on its entry in the `finish` event. So an application sees the
 * time to the first argument byte and how long the arguments took. A call restored from a
 * snapshot after it started has no `startedAt`. `streamToolCalls` does this for its `clock`
 * option.
 *
 * @example
 * ```ts
 * const events = deltas.pipeThrough(new ToolCallAccumulatorStream({ output: [toolCallTimings(() => performance.now())] }));
 * for await (const event of events) {
 *   if (event.type === "tool-call") console.log(event.name, event.completedAt! - event.startedAt!, "ms of arguments");
 * }
 * ```
 */
export function toolCallTimings(clock: () => number): EventStep {
  return eventStep((next) => {
    const started = new Map<string, number>();
    const done = new Map<string, Times>();
    return (event) => {
      if (event.type === "tool-call-start") {
        started.set(callKey(event), clock());
        return next(event);
      }
      if (event.type === "tool-call" || event.type === "invalid-tool-call") {
        const id = callKey(event);
        const times: Times = { completedAt: clock() };
        const startedAt = started.get(id);
        if (startedAt !== undefined) times.startedAt = startedAt;
        started.delete(id);
        done.set(id, times);
        return next(stamped(event, times));
      }
      if (event.type === "finish") return next(finished(event, done));
      return next(event);
    };
  });
}

/** The finish event with each call's times on its entry. */
function finished(event: FinishEvent, done: ReadonlyMap<string, Times>): FinishEvent {
  const stamp = <T extends ToolCall | InvalidToolCall>(call: T): T => {
    const times = done.get(callKey(call));
    return times ? stamped(call, times) : call;
  };
  return { ...event, toolCalls: event.toolCalls.map(stamp), invalidToolCalls: event.invalidToolCalls.map(stamp) };
}

/** A copy with the times, `startedAt` first as in the event's own order. */
function stamped<T extends object>(target: T, times: Times): T {
  return {
    ...target,
    ...(times.startedAt !== undefined && { startedAt: times.startedAt }),
    completedAt: times.completedAt,
  };
}
