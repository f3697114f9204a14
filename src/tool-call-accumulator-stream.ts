import type { AccumulatorSnapshot } from "./accumulator-snapshot.ts";
import { checkPlugins, ToolCallAccumulator, type ToolCallAccumulatorOptions } from "./tool-call-accumulator.ts";
import type { ProviderDelta, ToolCallEvent } from "./types.ts";

/** Options of {@link ToolCallAccumulatorStream}. */
export interface ToolCallAccumulatorStreamOptions extends ToolCallAccumulatorOptions {
  /** Continue from a snapshot taken with {@link ToolCallAccumulatorStream.snapshot} instead of starting empty. */
  restoreFrom?: AccumulatorSnapshot;
}

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
 * new ToolCallAccumulatorStream({ partialArguments: IncrementalJsonParser, repair: repairJson, validate: toolSchemaValidator(tools) });
 * ```
 */
export class ToolCallAccumulatorStream extends TransformStream<ProviderDelta, ToolCallEvent> {
  readonly #accumulator: () => ToolCallAccumulator;

  /** Creates the stage; see {@link ToolCallAccumulatorStreamOptions} for the limits and `restoreFrom`. */
  constructor(options: ToolCallAccumulatorStreamOptions = {}) {
    // Here, not only in `start`: some runtimes (workerd) turn a throw in `start` into an errored stream.
    checkPlugins(options);
    let accumulator: ToolCallAccumulator;
    super({
      start(controller) {
        const enqueue = (event: ToolCallEvent): void => controller.enqueue(event);
        const terminate = (): void => controller.terminate();
        accumulator = options.restoreFrom
          ? ToolCallAccumulator.restore(options.restoreFrom, enqueue, options, terminate)
          : new ToolCallAccumulator(enqueue, options, terminate);
      },
      transform(delta) {
        accumulator.push(delta);
      },
      flush() {
        accumulator.end();
      },
    });
    this.#accumulator = () => accumulator;
  }

  /**
   * The accumulator's state as plain JSON, valid between two deltas (after a write resolved):
   * a new stream with `{ restoreFrom: snapshot }` fed the remaining deltas continues exactly here.
   */
  snapshot(): AccumulatorSnapshot {
    return this.#accumulator().snapshot();
  }
}
