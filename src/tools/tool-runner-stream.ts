import type { ToolCallEvent } from "../shared/events.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import { RUNNER_OPTIONS, type ToolRunnerOptions } from "./runnable-tool.ts";
import type { ToolRunnerEvent } from "./tool-events.ts";
import { ToolRunner } from "./tool-runner.ts";

/**
 * Accumulated events in, the same events out plus the outcome of every call it runs: the stage
 * after `ToolCallAccumulatorStream` (or `streamToolCalls`) that runs tools at the edge.
 *
 * Each `tool-call` whose name has a handler starts the moment it arrives, not at the end of the
 * response, with its parsed arguments and an `AbortSignal`; up to `concurrency` run at once.
 * Each call then gives one `tool-result` or `tool-error`, in the order they finish (a handler
 * that is an async generator gives a preliminary `tool-result` per value it yields before its
 * final one); `cancelCall(id)` stops one call, which gives a `cancelled` error. Unknown tools,
 * `invalid-tool-call`s and arguments that do not match the tool's `parameters` give a
 * `tool-error` whose message tells the model what was wrong and what is expected. A tool marked
 * `needsApproval`, or a call with safety checks (an OpenAI Responses computer call's
 * `pending_safety_checks`, in the request's `safetyChecks`), emits `tool-approval-request` and runs
 * once `approve(id)` (or the `approve` option) says so, its `tool-result` then carrying the checks
 * as `acknowledgedSafetyChecks`; `deny(id, reason)` gives a `denied` error. Calls the provider ran itself
 * (`providerExecuted`) pass through and are never run.
 *
 * The output closes only once every call has its outcome, so results may follow the `finish`
 * event. Without the `approve` option, a call waiting for approval waits for the application by
 * design: until `approve(id)`, `deny(id)` or `cancelCall(id)`, or until the output is cancelled or
 * the `signal` aborts, the output stays open and its reader waits. Answer every
 * `tool-approval-request` (`runToolLoop`, whose stream has no `approve(id)`, ends instead). Cancelling the output aborts every running handler's signal and cancels the input.
 * A handler that ignores its signal past its timeout still frees its place: its call has given
 * its `timeout` error and whatever it returns later is dropped.
 *
 * @example
 * ```ts
 * const runner = new ToolRunnerStream({ tools: { get_time: { run: ({ zone }) => new Date().toLocaleString("en", { timeZone: String(zone) }) } } });
 * const events = streamToolCalls(response, { provider: "openai" }).pipeThrough(runner);
 * for await (const event of events) {
 *   if (event.type === "tool-approval-request") runner.approve(event.id ?? event.index);
 *   if (event.type === "tool-result") console.log(event.name, event.result);
 * }
 * ```
 */
export class ToolRunnerStream extends TransformStream<ToolCallEvent, ToolRunnerEvent> {
  readonly #runner: () => ToolRunner;

  /**
   * Creates the stage; see {@link ToolRunnerOptions} for the tools, limits and approval. An option
   * it does not know (`maxResultLength`) is a `TypeError` naming it and its options.
   */
  constructor(options: ToolRunnerOptions) {
    checkOptionNames(options, RUNNER_OPTIONS);
    let runner: ToolRunner;
    // Resolved when the reader asks for the next event: a streaming handler waits for that.
    const waiting: (() => void)[] = [];
    // `cancel` is in the Streams standard but not in TypeScript's DOM types (nor called by Chromium: see below).
    const transformer: Transformer<ToolCallEvent, ToolRunnerEvent> & { cancel(reason: unknown): void } = {
      start(controller) {
        const emit = (event: ToolRunnerEvent): void => {
          try {
            controller.enqueue(event);
          } catch (error) {
            // The output failed before this stage heard of it (a handler settled in between): stop.
            runner.abort(error);
          }
        };
        const room = (): Promise<void> | undefined =>
          (controller.desiredSize ?? 1) > 0 ? undefined : new Promise((resolve) => waiting.push(resolve));
        runner = new ToolRunner(emit, options, room);
      },
      transform(event) {
        runner.push(event);
      },
      async flush() {
        await runner.idle();
        runner.abort(); // nothing runs any more: this only lets go of the signal
      },
      // Both a cancelled output and an aborted input end here, where the runtime calls it.
      cancel(reason) {
        runner.abort(reason);
      },
    };
    super(transformer);
    this.#runner = () => runner;
    // Chromium does not call a transformer's `cancel` yet, so the readable is wrapped to see a
    // cancel (and a failed input) itself: running handlers must be aborted in every runtime.
    const inner = super.readable.getReader();
    const readable = new ReadableStream<ToolRunnerEvent>(
      {
        async pull(controller) {
          for (const resolve of waiting.splice(0)) resolve();
          try {
            const { done, value } = await inner.read();
            if (done) controller.close();
            else controller.enqueue(value);
          } catch (error) {
            runner.abort(error);
            throw error;
          }
        },
        cancel(reason) {
          runner.abort(reason);
          return inner.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
    Object.defineProperty(this, "readable", { value: readable, enumerable: true });
  }

  /** Runs a call waiting for approval, by its id (or its `index` when the provider gives no id). False when no such call waits. */
  approve(callId: string | number): boolean {
    return this.#runner().approve(callId);
  }

  /** Refuses a call waiting for approval; the model reads `reason` in the `denied` error. False when no such call waits. */
  deny(callId: string | number, reason?: string): boolean {
    return this.#runner().deny(callId, reason);
  }

  /**
   * Cancels one call, by its id (or its `index` when the provider gives no id): its handler's
   * signal is aborted (or, not started yet, it never runs) and it gives a retryable `cancelled`
   * error, with `reason` for the model to read; the other calls go on. False when no such call
   * is waiting or running.
   */
  cancelCall(callId: string | number, reason?: string): boolean {
    return this.#runner().cancelCall(callId, reason);
  }
}
