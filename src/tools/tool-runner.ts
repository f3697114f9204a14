import { MAX_TIMER_MS, type StandardOutcome } from "../schema/standard-schema.ts";
import type {
  AbortEvent,
  CompletedToolCallEvent,
  InvalidToolCallEvent,
  ToolCall,
  ToolCallEvent,
  ToolCallViolationEvent,
} from "../shared/events.ts";
import type { JsonValue } from "../shared/json.ts";
import { ownValue } from "../shared/values.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import {
  DEFAULT_TOOL_CONCURRENCY,
  DEFAULT_TOOL_TIMEOUT_MS,
  RUNNER_OPTIONS,
  type RunnableTool,
  type ToolRunnerOptions,
} from "./runnable-tool.ts";
import type { ToolApprovalRequestEvent, ToolErrorInfo, ToolRunnerEvent } from "./tool-events.ts";
import { argumentsVerdict, denied, outcomeEvent, resultLimits, type Job } from "./tool-job.ts";
import { callCancelled, describeToolError, describeViolation, toolErrorInfo } from "./tool-outcome.ts";
import { runHandler, type HandlerOutcome, type Room } from "./tool-run.ts";
import { platformTimers } from "../shared/timers.ts";
import { pendingSafetyChecks } from "../providers/openai-responses/openai-responses-computer.ts";

/**
 * The tool-running state machine, free of streams: `push` every accumulated event, and it emits
 * each one through, starts the handler of every complete `tool-call` at once (up to
 * `concurrency` at a time, the rest in arrival order), and emits `tool-result` or `tool-error`
 * as each call finishes (a handler that is an async generator also emits a preliminary
 * `tool-result` per value it yields). `cancelCall(id)` stops one call. `idle()` resolves once
 * every call it took has an outcome. `ToolRunnerStream` is a thin wrapper around it.
 *
 * @example
 * ```ts
 * const runner = new ToolRunner((event) => console.log(event.type), { tools: { add: { run: ({ a, b }) => a + b } } });
 * runner.push(toolCallEvent); // logs "tool-call", then soon "tool-result"
 * await runner.idle();
 * ```
 */
export class ToolRunner {
  readonly #emit: (event: ToolRunnerEvent) => void;
  readonly #options: ToolRunnerOptions;
  readonly #room: Room | undefined;
  readonly #jobs = new Set<Job>();
  readonly #queue: Job[] = [];
  readonly #waiters: (() => void)[] = [];
  #running = 0;
  #stopped = false;
  /** The last `tool-call-violation`: the call an `abort` of reason `schema-violation` stopped. */
  #violation: ToolCallViolationEvent | undefined;
  readonly #onAbort = (): void => this.#cancelAll();

  /**
   * Creates a runner that emits through `emit`. `room`, when given, tells whether the consumer
   * can take another event now (`undefined`) or a promise of when it can: a handler that streams
   * its result is pulled for its next value only then (`ToolRunnerStream` gives its output's). An
   * option it does not know is a `TypeError` naming it.
   */
  constructor(emit: (event: ToolRunnerEvent) => void, options: ToolRunnerOptions, room?: Room) {
    checkOptionNames(options, RUNNER_OPTIONS);
    this.#emit = emit;
    this.#options = options;
    this.#room = room;
    options.signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** Emits `event`, then acts on it when it is a call to run (or one that cannot be run). */
  push(event: ToolCallEvent): void {
    this.#emit(event);
    if (event.type === "tool-call") this.#take(event);
    // A call the provider withdrew is not to be answered at all.
    else if (event.type === "invalid-tool-call" && event.error.code !== "withdrawn") this.#reject(event);
    else if (event.type === "tool-call-violation") this.#violation = event;
    else if (event.type === "abort" && event.reason === "schema-violation") this.#stoppedAtViolation(event);
  }

  /** Runs a call waiting for approval, by id (or by index, for providers without ids). False when none waits. */
  approve(callId: string | number): boolean {
    const job = this.#awaiting(callId);
    if (job) this.#enqueue(job);
    return job !== undefined;
  }

  /** Refuses a call waiting for approval; the model reads `reason`. False when none waits. */
  deny(callId: string | number, reason?: string): boolean {
    const job = this.#awaiting(callId);
    if (job) this.#settle(job, { type: "tool-error", error: denied(reason) });
    return job !== undefined;
  }

  /**
   * Cancels one call, by id (or index): a running handler's signal is aborted, a call waiting
   * for its turn, its validator or an approval is dropped, and the call gives a `cancelled`
   * error (retryable) with `reason` for the model to read; the other calls go on. False when no
   * such call is waiting or running.
   */
  cancelCall(callId: string | number, reason?: string): boolean {
    const job = this.#find(callId);
    if (job)
      this.#settle(
        job,
        { type: "tool-error", error: callCancelled(reason) },
        new DOMException(reason ?? "The call was cancelled.", "AbortError"),
      );
    return job !== undefined;
  }

  /** Resolves once every call taken so far has its outcome (calls awaiting approval included). */
  idle(): Promise<void> {
    if (this.#jobs.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /**
   * Stops for good: aborts every running handler's signal with `reason`, drops waiting calls and
   * emits nothing more (the output is gone). After `idle()`, it only lets go of the `signal`.
   */
  abort(reason?: unknown): void {
    this.#stopped = true;
    this.#options.signal?.removeEventListener("abort", this.#onAbort);
    for (const job of this.#jobs) this.#stop(job, reason);
    this.#jobs.clear();
    this.#queue.length = 0;
    this.#wake();
  }

  #take(call: CompletedToolCallEvent): void {
    if (call.providerExecuted) return; // the provider ran it; answering it is not ours to do
    const tool = ownValue(this.#options.tools, call.name);
    if (!tool) return this.#fail(call, toolErrorInfo("unknown-tool", this.#toolNames()));
    const { type: _type, ...plain } = call;
    // A call completed as the response stopped or failed belongs to no turn to answer: never run.
    if (this.#options.signal?.aborted || call.stopped) return this.#fail(call, toolErrorInfo("cancelled"));
    const job: Job = { call: plain, tool, args: call.arguments, state: "validating" };
    this.#jobs.add(job);
    const verdict = argumentsVerdict(call, tool, this.#options);
    if (verdict instanceof Promise) verdict.then((settled) => this.#checked(job, settled));
    else this.#checked(job, verdict);
  }

  #checked(job: Job, verdict: StandardOutcome): void {
    if (!this.#jobs.has(job)) return; // cancelled while its validator ran
    if (!verdict.ok && verdict.timeoutMs !== undefined) {
      const message = `The validator of ${job.call.name} did not settle within ${verdict.timeoutMs} ms.`;
      return this.#settle(job, { type: "tool-error", error: { code: "timeout", message, retryable: true } });
    }
    if (!verdict.ok)
      return this.#settle(job, {
        type: "tool-error",
        error: describeToolError({ code: "schema-mismatch", message: "", issues: verdict.issues }, job.tool),
      });
    job.args = verdict.value;
    job.state = "approval";
    // Checks the provider raised (a computer call's) are the user's to confirm: never run it silently.
    const checks = pendingSafetyChecks(job.call);
    if (checks) job.checks = checks;
    if (job.tool.needsApproval || checks) this.#requestApproval(job);
    else this.#enqueue(job);
  }

  #reject(call: InvalidToolCallEvent): void {
    const tool = ownValue(this.#options.tools, call.name);
    this.#fail(call, tool ? describeToolError(call.error, tool) : toolErrorInfo("unknown-tool", this.#toolNames()));
  }

  /** A call the stream stopped at its schema violation never runs; the model reads where and why, and may call again. */
  #stoppedAtViolation(abort: AbortEvent): void {
    const violation = this.#violation;
    if (
      !violation ||
      !abort.discarded.some((call) => call.index === violation.index && call.choice === violation.choice)
    )
      return;
    const tool = ownValue(this.#options.tools, violation.name);
    this.#fail(
      violation,
      tool ? describeViolation(violation.error, tool) : toolErrorInfo("unknown-tool", this.#toolNames()),
    );
  }

  #requestApproval(job: Job): void {
    const { index, id, name, choice } = job.call;
    const request: ToolApprovalRequestEvent = {
      type: "tool-approval-request",
      index,
      id,
      name,
      arguments: job.args as JsonValue,
      ...(choice !== undefined ? { choice } : {}),
      ...(job.checks ? { safetyChecks: job.checks } : {}),
    };
    this.#emit(request);
    const decide = this.#options.approve;
    if (!decide) return;
    Promise.resolve()
      .then(() => decide(request))
      .then(
        (approved) =>
          approved === true ? this.#enqueue(job) : this.#settle(job, { type: "tool-error", error: denied() }),
        () => this.#settle(job, { type: "tool-error", error: denied() }), // a failing decision is not an approval
      );
  }

  #enqueue(job: Job): void {
    if (!this.#jobs.has(job) || job.state !== "approval") return;
    job.state = "queued";
    this.#queue.push(job);
    this.#drain();
  }

  #drain(): void {
    const concurrency = this.#options.concurrency ?? DEFAULT_TOOL_CONCURRENCY;
    // biome-ignore lint/complexity/useMathMinMax: Math.max(NaN, 1) is NaN, which would never run anything
    const limit = concurrency >= 1 ? concurrency : 1;
    while (this.#running < limit && this.#queue.length > 0) this.#start(this.#queue.shift()!);
  }

  #start(job: Job): void {
    job.state = "running";
    this.#running++;
    const controller = (job.controller = new AbortController());
    const ms = job.tool.timeoutMs ?? this.#options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    const timers = this.#options.timers ?? platformTimers;
    // Platform timers fire at once for a delay past 2^31 - 1 ms; such a limit means none.
    if (ms <= MAX_TIMER_MS) {
      job.timer = timers.setTimeout(() => {
        job.timer = undefined;
        const reason = new DOMException(`The tool did not finish within ${ms} ms.`, "TimeoutError");
        this.#settle(job, { type: "tool-error", error: toolErrorInfo("timeout", [], ms) }, reason);
      }, ms);
    }
    if (this.#options.clock) job.startedAt = this.#options.clock();
    const run = (): ReturnType<RunnableTool["run"]> =>
      job.tool.run(job.args as JsonValue, { signal: controller.signal, call: job.call });
    job.halt = runHandler(
      run,
      resultLimits(job.call, this.#options),
      (outcome, preliminary) => {
        if (!preliminary) this.#settle(job, outcome);
        else if (this.#jobs.has(job)) this.#emit(outcomeEvent(job, { ...outcome, preliminary: true }, this.#options));
      },
      this.#room,
    );
  }

  /** Gives a call its outcome once: the first of result, failure, timeout, denial or cancellation wins. */
  #settle(job: Job, outcome: HandlerOutcome, abortReason?: unknown): void {
    if (!this.#jobs.delete(job)) return;
    if (job.state === "running") this.#running--;
    else if (job.state === "queued") this.#queue.splice(this.#queue.indexOf(job), 1);
    this.#stop(job, abortReason);
    this.#emit(outcomeEvent(job, outcome, this.#options));
    this.#drain();
    this.#wake();
  }

  #fail(call: Pick<ToolCall, "index" | "id" | "name" | "choice">, error: ToolErrorInfo): void {
    const { index, id, name, choice } = call;
    this.#emit({ type: "tool-error", index, id, name, error, ...(choice !== undefined ? { choice } : {}) });
  }

  #stop(job: Job, reason: unknown): void {
    if (job.timer !== undefined) (this.#options.timers ?? platformTimers).clearTimeout(job.timer);
    job.timer = undefined;
    if (reason !== undefined || this.#stopped) job.controller?.abort(reason);
    job.halt?.();
  }

  #cancelAll(): void {
    const reason = this.#options.signal?.reason;
    for (const job of [...this.#jobs])
      this.#settle(job, { type: "tool-error", error: toolErrorInfo("cancelled") }, reason ?? "cancelled");
  }

  #awaiting(callId: string | number): Job | undefined {
    return this.#find(callId, "approval");
  }

  /** A call taken and not settled yet (in `state`, if given) with this id, or index for providers without ids. */
  #find(callId: string | number, state?: Job["state"]): Job | undefined {
    for (const job of this.#jobs) {
      if (state !== undefined && job.state !== state) continue;
      if (typeof callId === "number" ? job.call.index === callId : job.call.id === callId) return job;
    }
    return undefined;
  }

  #toolNames(): string[] {
    return Object.keys(this.#options.tools);
  }

  #wake(): void {
    if (this.#jobs.size > 0 && !this.#stopped) return;
    for (const resolve of this.#waiters.splice(0)) resolve();
  }
}
