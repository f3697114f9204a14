import type { ToolCallEvent } from "../shared/events.ts";

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
 * Given `next` (the function passing an event on), a step returns the function that takes each
 * event. That is the one way steps are put after the accumulator: the `output` of
 * `ToolCallAccumulatorStream`, the `steps` of `ToolCallChain`, and `streamToolCalls` (for its
 * `clock` and `tools`) all compose them with {@link composeSteps}, and read no more input while
 * they hold events.
 *
 * @example
 * ```ts
 * const step: EventStep = toolCallTimings(() => performance.now());
 * const take = step((event) => console.log(event)); // what takes each event
 * ```
 */
export type EventStep = (next: (event: ToolCallEvent) => void) => EventSink;

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
  return make;
}

/**
 * The steps around `emit`, as one function taking each event: the first listed sees each event
 * first. It returns a promise while any step holds events back.
 *
 * @example
 * ```ts
 * const take = composeSteps([toolCallTimings(clock), validateToolCalls(tools)], (event) => controller.enqueue(event));
 * const accumulator = new ToolCallAccumulator((event) => void take(event));
 * ```
 */
export function composeSteps(steps: readonly EventStep[], emit: (event: ToolCallEvent) => void): EventSink {
  // A step's `next` is typed as returning nothing: what the steps after it return (their hold) is
  // still passed back through it, as `eventStep` asks of every step.
  return steps.reduceRight<EventSink>((sink, step) => step(sink as (event: ToolCallEvent) => void), emit);
}

/**
 * Tracks what a sink made by {@link composeSteps} says of the events it takes: `take` records it,
 * `released` waits until nothing is held back.
 *
 * @example
 * ```ts
 * const hold = new StepHold(composeSteps(steps, emit));
 * accumulator = new ToolCallAccumulator(hold.take);
 * await hold.released();
 * ```
 */
export class StepHold {
  /** What the steps said of the last event: a promise while they hold events back. */
  held: PromiseLike<void> | undefined;
  /** Passes one event to the steps. */
  readonly take: (event: ToolCallEvent) => void;

  /** Tracks what `sink` says of each event it takes. */
  constructor(sink: EventSink) {
    this.take = (event) => void (this.held = sink(event) || undefined);
  }

  /** Waits until the steps hold nothing back. */
  async released(): Promise<void> {
    while (this.held) {
      const waiting = this.held;
      await waiting;
      if (this.held === waiting) this.held = undefined;
    }
  }
}
