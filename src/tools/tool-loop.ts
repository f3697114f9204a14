import { streamToolCalls } from "../pipeline/stream-tool-calls.ts";
import { assistantMessage, toolResultMessages } from "../providers/messages.ts";
import { callKey } from "../shared/call-key.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import type { LoopFinishEvent, LoopFinishReason, ToolLoopEvent } from "./loop-events.ts";
import { LOOP_OPTIONS, runnerOptions, streamOptions, type ToolLoopOptions } from "./loop-options.ts";
import { refusedTurn, StepRecord, turnCalls } from "./step-record.ts";
import type { ToolRunnerEvent } from "./tool-events.ts";
import { ToolRunnerStream } from "./tool-runner-stream.ts";

/** The stream of {@link runToolLoop}, with the control of each running call. */
export interface ToolLoopStream extends ReadableStream<ToolLoopEvent> {
  /**
   * Cancels one call of the current step, by its id (or its `index` when the provider gives no
   * id): its handler's signal is aborted and it gives a retryable `cancelled` error, which the
   * loop sends the model as that call's result; the other calls go on. False when no such call
   * is waiting or running.
   */
  cancelCall(callId: string | number, reason?: string): boolean;
}

/**
 * Default of {@link ToolLoopOptions.maxSteps}.
 * @example
 * ```ts
 * runToolLoop({ provider, messages, tools, call, maxSteps: DEFAULT_MAX_STEPS * 2 });
 * ```
 */
export const DEFAULT_MAX_STEPS: number = 8;

/**
 * The agent loop: calls the model, streams its events through a {@link ToolRunnerStream} (so
 * each tool starts the moment its call completes), then appends the assistant turn and the tool
 * results in the provider's own shape (`assistantMessage`, `toolResultMessages`) and calls the
 * model again, until a step ends without a call to run (a turn the provider paused, Anthropic's
 * `pause_turn`, is sent back as it is and goes on; `calls-left-out` when `beforeTools` left out
 * every call the model made), a step waits for the application to approve
 * calls the provider would run (OpenAI Responses' MCP approvals: `loop-finish` of reason
 * `approval`, never run nor answered by the loop) or calls of its own that nobody approved
 * (`approval` too: below), a computer call gets no screenshot to send back (`no-screenshot`), or
 * `maxSteps` calls were made.
 *
 * Every event of every step comes out of one stream tagged with its `step` (from 1); each step
 * ends with `step-finish` (the messages it adds) and the loop with one `loop-finish` (why, and the
 * whole conversation). A call to a tool the loop does not have is an `invalid-tool-call` (its
 * tools are a contract); invalid and unknown calls are answered with their `tool-error` so the
 * model can correct itself; a call the `beforeTools` stage leaves out is not the loop's at all
 * (never run, never sent back). With `earlyValidation`, each call is checked against its tool's
 * `parameters` while it streams; with `abortOnViolation` too, a step whose call can no longer
 * match is cut there (the request is cancelled), and the loop at once sends the turn as far as
 * it went (its text, the calls that completed, with their results, and the stopped call, with
 * `{}` as arguments) and that call's `tool-error` (`invalid-arguments`, retryable: where and why
 * it stopped matching, and what the tool expects), and calls the model again: a retry that costs
 * a step. The stream produces only as fast as it is read. Cancelling it (or
 * the `signal`) aborts the request in flight and every running handler; its `cancelCall(id)`
 * stops one call and the loop goes on with that call's `cancelled` error as its result.
 *
 * A call that asks for approval (a `needsApproval` tool's) runs once the `approve` option says yes;
 * when it says no or fails, the model reads a `denied` error. The loop's stream has no
 * `approve(id)`: without the option such a call never runs and never waits, the loop ends
 * (`approval`) with it in `loop-finish.unanswered` and its turn in `messages` without an output
 * (the other calls' outputs are in `loop-finish.results`, to send with its own in one message).
 *
 * A computer call of OpenAI Responses (a call named `computer`, its `computer_call` item in
 * `providerMetadata`) that came with `pending_safety_checks` runs only if the `approve` option,
 * given its `tool-approval-request` with the checks in `safetyChecks`, says yes (have the user
 * confirm them); its `computer_call_output` then sends them back as `acknowledged_safety_checks`.
 * Without `approve`, or when it says no or fails, the call never runs and the loop ends
 * (`approval`, the checks in `unanswered[i].safetyChecks`). Its handler must return a screenshot
 * (a `data:image/` or `https:` URL, `{ image_url }` or `{ file_id }`: never cut at
 * `maxResultBytes`, bounded by `maxScreenshotBytes`), which is all its output can carry: one that
 * fails, returns anything else or a larger screenshot ends the loop (`no-screenshot`). Either way
 * the call is in `loop-finish.unanswered` and `messages` holds its turn without an output for it
 * (nor for the others: `loop-finish.results`). An option name it does not know (from
 * JavaScript, a typo such as `maxStep`) is a `TypeError` at the call naming it.
 *
 * @example
 * ```ts
 * const events = runToolLoop({
 *   provider: "openai",
 *   messages: [{ role: "user", content: "What time is it in Tokyo?" }],
 *   tools: { get_time: { parameters: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] }, run: ({ zone }) => now(zone) } },
 *   call: ({ messages, signal }) =>
 *     fetch(url, { method: "POST", headers, signal, body: JSON.stringify({ model, stream: true, messages, tools: toolDefinitions("openai", tools) }) }),
 * });
 * for await (const event of events) if (event.type === "loop-finish") console.log(event.reason, event.steps);
 * ```
 */
export function runToolLoop(options: ToolLoopOptions): ToolLoopStream {
  checkOptionNames(options, LOOP_OPTIONS);
  const { provider, signal: outer } = options;
  const requested = options.maxSteps ?? DEFAULT_MAX_STEPS;
  // biome-ignore lint/complexity/useMathMinMax: Math.max(NaN, 1) is NaN, which would never stop
  const maxSteps = requested >= 1 ? requested : 1;
  const controller = new AbortController();
  const onOuterAbort = (): void => controller.abort(outer?.reason);
  const messages: unknown[] = [...options.messages];
  let step = 0;
  let reader: ReadableStreamDefaultReader<ToolRunnerEvent> | undefined;
  let runner: ToolRunnerStream | undefined;
  const cuts = options.earlyValidation === true && options.abortOnViolation === true;
  let record = new StepRecord(cuts);
  let finished = false;
  /** The container the latest response named (`ToolLoopRequest.container`). */
  let container: string | undefined;
  /** The last step's calls that get no output (`LoopFinishEvent.unanswered`), and the others' (`results`). */
  let unanswered: LoopFinishEvent["unanswered"];
  let ran: LoopFinishEvent["results"];

  const stream = new ReadableStream<ToolLoopEvent>(
    {
      start() {
        if (outer?.aborted) controller.abort(outer.reason);
        else outer?.addEventListener("abort", onOuterAbort, { once: true });
      },
      // A pull that enqueues nothing is not repeated, so each one runs until it has an event.
      async pull(out) {
        while (!finished) {
          if (!reader) {
            if (!(await startStep(out))) return;
            continue;
          }
          const { done, value } = await reader.read();
          if (finished) return;
          if (!done) {
            record.see(value);
            // The loop has no approve(id): without the hook nobody can answer, so the call never
            // runs, and the application answers it once the loop has ended (`approval`).
            if (value.type === "tool-approval-request" && !options.approve) {
              record.hold(value);
              runner?.deny(value.id ?? value.index, NO_APPROVER);
            }
            return out.enqueue({ ...value, step } as ToolLoopEvent);
          }
          reader = undefined;
          return endStep(out);
        }
      },
      async cancel(reason) {
        finished = true;
        outer?.removeEventListener("abort", onOuterAbort);
        controller.abort(reason);
        await reader?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const cancelCall = (callId: string | number, reason?: string): boolean => runner?.cancelCall(callId, reason) ?? false;
  return Object.assign(stream, { cancelCall });

  /** Sends the next request; false when the loop ended instead. */
  async function startStep(out: Output): Promise<boolean> {
    step++;
    record = new StepRecord(cuts);
    let response: Response;
    try {
      response = await untilAborted(
        () =>
          options.call({
            step,
            messages: [...messages],
            signal: controller.signal,
            ...(container === undefined ? {} : { container }),
          }),
        controller.signal,
      );
    } catch (error) {
      if (finished) return false;
      if (controller.signal.aborted) return finish(out, "cancelled");
      // The caller's error message is not passed on (it may carry a key or an internal address): its names are.
      const message = `The request of step ${step} failed before a response${causeOf(error)}.`;
      out.enqueue({ type: "error", step, error: { code: "stream-failed", message } });
      return finish(out, "call-failed");
    }
    if (finished) {
      void response.body?.cancel().catch(() => {});
      return false;
    }
    runner = new ToolRunnerStream(runnerOptions(options, controller.signal));
    const events = streamToolCalls(response, streamOptions(options, controller.signal));
    // The calls the `beforeTools` stage leaves out never reach the runner: they run nowhere.
    const kept = options.beforeTools
      ? events.pipeThrough(record.made()).pipeThrough(options.beforeTools(step))
      : events;
    reader = kept.pipeThrough(runner).getReader();
    return true;
  }

  function endStep(out: Output): void {
    const { terminal } = record;
    const turn = terminal?.type === "finish" ? terminal : controller.signal.aborted ? undefined : record.cutTurn();
    if (!turn) {
      out.enqueue({ type: "step-finish", step, messages: [] }); // a cut-off turn is not one the provider would accept back
      finish(out, controller.signal.aborted ? "cancelled" : "aborted");
      return;
    }
    if (terminal?.type === "finish" && terminal.container) container = terminal.container.id;
    // A call the `beforeTools` stage left out is not sent back: the provider would want its answer.
    const calls = turnCalls(turn).filter((call) => !options.beforeTools || record.passed(call));
    const own = calls.filter((call) => !call.providerExecuted);
    // The reasoning goes back too: Cohere's tool plan and Ollama's thinking belong to the turn with the calls.
    const assistant = assistantMessage(provider, {
      text: turn.text,
      toolCalls: calls,
      reasoning: turn.reasoning,
      reasoningParts: terminal?.type === "finish" ? terminal.reasoningParts : undefined,
      approvalRequests: terminal?.type === "finish" ? terminal.approvalRequests : undefined,
      // In the order the stream gave it (interleaved thinking, text between calls, a server call's result).
      order: terminal?.type === "finish" ? terminal.order : undefined,
    });
    const added: unknown[] = Array.isArray(assistant) ? [...assistant] : [assistant];
    // Calls nobody approved, and computer calls without a screenshot to send back, end the loop.
    const stuck = record.unanswerable(own);
    unanswered = stuck?.calls;
    const skipped = new Set(stuck?.calls.map(callKey));
    const results = record.results(own).filter((result) => !skipped.has(callKey(result.call)));
    // With calls unanswered, the others' outputs wait for theirs (`LoopFinishEvent.results`):
    // Gemini and Bedrock take a turn's results in one message, as many as its calls.
    if (stuck) ran = results;
    else if (results.length > 0) added.push(...toolResultMessages(provider, results));
    messages.push(...added);
    out.enqueue({ type: "step-finish", step, messages: added });
    // A paused turn (Anthropic `pause_turn`) continues when sent back as it is; a refused one never.
    const reason = terminal?.type === "finish" ? terminal.reason : undefined;
    // Calls the provider waits to have approved: only the application can answer them.
    if (reason === "approval") finish(out, "approval");
    else if (terminal?.type === "finish" && refusedTurn(terminal)) finish(out, "refused");
    // The provider ended the turn failed (Gemini's MALFORMED_FUNCTION_CALL, vLLM's abort): no turn to go on from.
    else if (reason === "error") finish(out, "aborted");
    else if (own.length === 0 && reason !== "pause")
      finish(out, record.allLeftOut() ? "calls-left-out" : "no-tool-calls");
    else if (controller.signal.aborted) finish(out, "cancelled");
    else if (stuck) finish(out, stuck.reason);
    else if (step >= maxSteps) finish(out, "max-steps");
  }

  /** Emits `loop-finish` and closes; returns false, for `startStep`. */
  function finish(out: Output, reason: LoopFinishReason): false {
    finished = true;
    outer?.removeEventListener("abort", onOuterAbort);
    out.enqueue({
      type: "loop-finish",
      steps: step,
      reason,
      messages: [...messages],
      ...(unanswered && { unanswered, results: ran ?? [] }),
    });
    out.close();
    return false;
  }
}

type Output = ReadableStreamDefaultController<ToolLoopEvent>;

/** The reason of the `denied` error of a call held for the application (no model reads it). */
const NO_APPROVER = "runToolLoop has no approve option; the application answers it (loop-finish.unanswered).";

/**
 * What a step's request failed with, by name only: the error's `name` and its `code` (or its
 * cause's: Node's fetch fails with a `TypeError` whose cause is `ECONNREFUSED`), each an identifier.
 */
function causeOf(error: unknown): string {
  const { name, code, cause } = (error ?? {}) as { name?: unknown; code?: unknown; cause?: { code?: unknown } };
  const word = (value: unknown): value is string => typeof value === "string" && /^[A-Za-z][\w-]{0,63}$/.test(value);
  const why = word(code) ? code : word(cause?.code) ? cause.code : undefined;
  return word(name) ? `: ${name}${why ? ` (${why})` : ""}` : why ? `: ${why}` : "";
}

/** Runs `start`, settling with it, or rejecting as soon as `signal` aborts; a response that arrives after that is cancelled. */
function untilAborted(start: () => Promise<Response>, signal: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    let pending: Promise<Response>;
    try {
      pending = Promise.resolve(start());
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (response) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) void response.body?.cancel().catch(() => {});
        resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
