import type { ProviderDelta } from "../shared/deltas.ts";
import type { ToolCallEvent } from "../shared/events.ts";
import type { ToolCallAccumulatorOptions } from "./accumulator-options.ts";
import { ACCUMULATOR_CORE_OPTIONS } from "./accumulator-option-names.ts";
import { composeSteps, StepHold, type EventStep } from "./event-step.ts";
import { ToolCallAccumulatorCore } from "./accumulator-core.ts";
import { turnBlocks } from "../shared/turn-blocks.ts";
import { checkOptionNames } from "../shared/option-names.ts";

/**
 * Options of {@link ToolCallAccumulatorStream}: those of the accumulator it wraps (with the
 * `turnBlocks` plug-in by default: the stage does not know which protocol its deltas come from), and
 * the steps after it.
 */
export interface ToolCallAccumulatorStreamOptions extends ToolCallAccumulatorOptions {
  /**
   * Plug-ins: steps every event passes through, in this order, before it leaves the stage:
   * `toolCallTimings(clock)` stamps each call with the times its arguments started and
   * completed; `validateToolCalls(tools)` validates final arguments with the tools' own
   * validators (Standard Schema, sync or async). While a step holds events back (a call waiting
   * for its validation, and the events after it), the stage reads no more input and does not
   * close.
   * @defaultValue none
   */
  output?: readonly EventStep[] | undefined;
}

/** Every option of {@link ToolCallAccumulatorStreamOptions}: typed as its keys, so that one added there and not here does not compile. */
const ACCUMULATOR_OPTIONS: Record<keyof ToolCallAccumulatorStreamOptions, 0> = {
  ...ACCUMULATOR_CORE_OPTIONS,
  output: 0,
};

/**
 * The accumulator inside a stream, for the snapshot functions (accumulator-snapshot.ts) only.
 * Not exported by the package.
 */
export let streamAccumulator: (stream: ToolCallAccumulatorStream) => ToolCallAccumulatorCore;

/**
 * Normalized provider deltas to accumulated events: the last stage of the chain.
 *
 * Emits `text-delta`, `reasoning-delta`, `tool-call-start`, `tool-call-delta`, then `tool-call`
 * or `invalid-tool-call` when a call completes, and ends with one `finish` or one `abort`.
 * When its input ends before the provider finished, open calls are reported in
 * `abort.discarded` and never parsed. When a limit is exceeded it reports `error` and `abort`
 * and then stops, which cancels its input.
 *
 * Used on its own, an error of the input stream errors this stream too, as WHATWG streams do;
 * `streamToolCalls` turns such an error into an `abort` event so that nothing read is lost.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new OpenAIChatDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * for await (const event of events) if (event.type === "tool-call") run(event.name, event.arguments);
 * ```
 *
 * @example Live partial arguments, repair and schema checks are plug-ins, bundled only when passed
 * ```ts
 * import { IncrementalJsonParser, repairJson, toolSchemaValidator } from "tool-call-stream/core";
 *
 * new ToolCallAccumulatorStream({ partialParser: IncrementalJsonParser, repairer: repairJson, validator: toolSchemaValidator(tools) });
 * ```
 *
 * @example Steps after the accumulator: timings, and the tools' own validators (zod, valibot, ...)
 * ```ts
 * import { toolCallTimings, validateToolCalls } from "tool-call-stream/core";
 *
 * new ToolCallAccumulatorStream({ output: [toolCallTimings(() => performance.now()), validateToolCalls([{ name: "get_weather", schema: z.object({ city: z.string() }) }])] });
 * ```
 */
export class ToolCallAccumulatorStream extends TransformStream<ProviderDelta, ToolCallEvent> {
  static {
    streamAccumulator = (stream) => stream.#accumulator;
  }
  readonly #accumulator: ToolCallAccumulatorCore;

  /**
   * Creates the stage; see {@link ToolCallAccumulatorStreamOptions} for the limits and plug-ins.
   * An option it does not know (`maxArgumentLength`) is a `TypeError` naming it and its options.
   */
  constructor(options: ToolCallAccumulatorStreamOptions = {}) {
    checkOptionNames(options, ACCUMULATOR_OPTIONS);
    // Made here, not in `start`: some runtimes (workerd) call `start` only later, and a snapshot
    // may be restored into the stream as soon as it exists.
    let controller: TransformStreamDefaultController<ToolCallEvent>;
    const { output = [], ...own } = options;
    const hold = new StepHold(composeSteps(output, (event) => controller.enqueue(event)));
    // The accumulator gets its own options (`output` is the stage's: the core would refuse it).
    const accumulator = new ToolCallAccumulatorCore(hold.take, { turnBlocks, ...own }, () => controller.terminate());
    // While a step holds events back, the stage reads no more input and does not close.
    super({
      start(started) {
        controller = started;
      },
      transform(delta) {
        accumulator.push(delta);
        return hold.held && hold.released();
      },
      flush() {
        accumulator.end();
        return hold.held && hold.released();
      },
    });
    this.#accumulator = accumulator;
  }
}
