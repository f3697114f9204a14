import type { ProviderDelta } from "../shared/deltas.ts";
import type { ToolCallEvent } from "../shared/events.ts";

/** The transformer of `ToolCallAccumulatorStream`, which an {@link EventStep} wraps. */
export type AccumulatorTransformer = Transformer<ProviderDelta, ToolCallEvent>;

/** What a step does with each event; it returns a promise while it holds events back. */
export type EventSink = (event: ToolCallEvent) => PromiseLike<void> | void;

/**
 * A step that accumulated events pass through on their way out, in order. It may add fields
 * to an event, turn it into another, or hold it back, with every event after it so that the
 * order never changes, until work of its own settles (an asynchronous validation); while it
 * holds events, the function that takes them returns a promise that settles once they have all
 * been passed on. Steps: {@link toolCallTimings}, {@link validateToolCalls}, or your own made
 * with {@link eventStep}.
 *
 * A step is used in one of two ways:
 * - given `next` (a function passing an event on), it returns the function that takes each
 *   event: around a {@link ToolCallAccumulator}'s `enqueue`, or in `streamToolCalls`;
 * - given a transformer, it wraps it: the `output` plug-ins of `ToolCallAccumulatorStream`,
 *   which then reads no more input, and does not close, until held events have passed on.
 */
export interface EventStep {
  /** The step around a function that passes events on. */
  (next: (event: ToolCallEvent) => void): EventSink;
  /** The step around the accumulator stage's transformer. */
  (transformer: AccumulatorTransformer): AccumulatorTransformer;
}

/**
 * Makes an {@link EventStep} of a function that, given `next`, returns what takes each event.
 * The function it returns must return `next`'s result for an event it passes on at once, and a
 * promise while it holds events (settling once it has passed them all on).
 *
 * @example
 * ```ts
 * // Drops reasoning text before it leaves the stage.
 * const withoutReasoning = eventStep((next) => (event) => (event.type === "reasoning-delta" ? undefined : next(event)));
 * const events = deltas.pipeThrough(new ToolCallAccumulatorStream({ output: [withoutReasoning] }));
 * ```
 */
export function eventStep(make: (next: (event: ToolCallEvent) => void) => EventSink): EventStep {
  function step(next: (event: ToolCallEvent) => void): EventSink;
  function step(transformer: AccumulatorTransformer): AccumulatorTransformer;
  function step(target: ((event: ToolCallEvent) => void) | AccumulatorTransformer): EventSink | AccumulatorTransformer {
    return typeof target === "function" ? make(target) : wrap(target, make);
  }
  return step;
}

/**
 * The step as a transformer around `inner`: `inner` is given a controller whose `enqueue` is the
 * step, and `transform`/`flush` wait for what `inner` waits for, then for what the step holds.
 */
function wrap(
  inner: AccumulatorTransformer,
  make: (next: (event: ToolCallEvent) => void) => EventSink,
): AccumulatorTransformer {
  let controller!: TransformStreamDefaultController<ToolCallEvent>;
  const sink = make((event) => controller.enqueue(event));
  /** What the step said of the last event it took: a promise while it holds some. */
  let held: PromiseLike<void> | void;
  const inside: TransformStreamDefaultController<ToolCallEvent> = {
    get desiredSize() {
      return controller.desiredSize;
    },
    enqueue(event: ToolCallEvent) {
      held = sink(event);
    },
    error: (reason?: unknown) => controller.error(reason),
    terminate: () => controller.terminate(),
  };
  const after = (waited: PromiseLike<void> | void): Promise<void> | void => {
    // An earlier step may pass events on to this one while `inner` waits: wait for those then.
    if (waited) return Promise.resolve(waited).then(() => held);
    if (held) return Promise.resolve(held);
  };
  return {
    start(started) {
      controller = started;
      return inner.start?.(inside);
    },
    transform(chunk) {
      held = undefined;
      return after(inner.transform?.(chunk, inside));
    },
    flush() {
      held = undefined;
      return after(inner.flush?.(inside));
    },
  };
}
