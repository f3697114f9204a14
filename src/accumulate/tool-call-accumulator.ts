import type { ToolCallEvent } from "../shared/events.ts";
import { turnBlocks } from "../shared/turn-blocks.ts";
import { ToolCallAccumulatorCore } from "./accumulator-core.ts";
import type { ToolCallAccumulatorOptions } from "./accumulator-options.ts";

export { ToolCallAccumulatorCore } from "./accumulator-core.ts";

/**
 * The accumulation state machine, free of streams: feed it {@link ProviderDelta}s with `push`,
 * then `end()` (input over) or `abort()`, and it calls `enqueue` with {@link ToolCallEvent}s.
 * {@link ToolCallAccumulatorStream} and `streamToolCalls` are thin wrappers around it.
 *
 * Its core is lean (correlation, limits, completion, `closed`, one `JSON.parse` per call); live
 * partial values, repair, schema checks and unwrapping are plug-ins passed as options, so a
 * bundle holds only those it uses. A call completes only on an explicit signal: the provider's
 * end of that call, a finish reason, the end of the response, or the end of input after a
 * finish. (OpenAI Chat's decoder gives, at a cut before the finish, the end of each call a later
 * index followed: Chat sends parallel calls one after another, so such a call was whole.) Past a limit it reports an `error` and an `abort`, then calls `onTerminate` so the
 * wrapper stops reading the input. It does not know the protocol of its deltas, so it keeps
 * what a turn of blocks holds (the `turnBlocks` plug-in: the turn's `order`, approval requests,
 * withdrawn calls) unless `turnBlocks: undefined` is passed.
 *
 * @example
 * ```ts
 * const events: ToolCallEvent[] = [];
 * const accumulator = new ToolCallAccumulator((event) => events.push(event), { repairer: repairJson });
 * accumulator.push({ type: "tool-call-chunk", index: 0, id: "call_1", name: "get_weather", argumentsDelta: '{"city":' });
 * accumulator.push({ type: "tool-call-chunk", index: 0, argumentsDelta: ' "Paris"}' });
 * accumulator.push({ type: "finish", rawReason: "tool_calls" });
 * accumulator.end(); // events end with tool-call { name: "get_weather", arguments: { city: "Paris" } }, then finish
 * ```
 */
export class ToolCallAccumulator extends ToolCallAccumulatorCore {
  /** Creates an accumulator that reports events through `enqueue`; an option it does not know is a `TypeError` naming it. */
  constructor(
    enqueue: (event: ToolCallEvent) => void,
    options: ToolCallAccumulatorOptions = {},
    onTerminate: () => void = () => {},
  ) {
    super(enqueue, { turnBlocks, ...options }, onTerminate);
  }
}
