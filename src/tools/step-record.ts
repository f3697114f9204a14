// What one step of the tool loop said: its terminal event, each call's outcome, and the turn's calls.
import type { ToolResult } from "../providers/turn.ts";
import { callKey } from "../shared/call-key.ts";
import type {
  AbortEvent,
  FinishEvent,
  InvalidToolCall,
  ToolCall,
  ToolCallEvent,
  ToolCallViolationEvent,
} from "../shared/events.ts";
import { isRefusal } from "../shared/values.ts";
import {
  computerScreenshot,
  isComputerCall,
  pendingSafetyChecks,
} from "../providers/openai-responses/openai-responses-computer.ts";
import type { LoopFinishEvent } from "./loop-events.ts";
import type { ToolApprovalRequestEvent, ToolRunnerEvent } from "./tool-events.ts";

/** What one step's events said: the terminal event and each call's outcome, by choice and index. */
export class StepRecord {
  terminal: FinishEvent | AbortEvent | undefined;
  readonly #outcomes = new Map<string, Omit<ToolResult, "call">>();
  /** The calls denied (never run), and those held for the application to approve (no `approve` option). */
  readonly #denied = new Set<string>();
  readonly #held = new Set<string>();
  /** The calls whose `tool-call` or `invalid-tool-call` the step's events held (past a `beforeTools` stage). */
  readonly #calls = new Set<string>();
  /** The loop's own calls the model made, before a `beforeTools` stage ({@link StepRecord.made}). */
  readonly #made = new Set<string>();
  /** For a turn cut at a schema violation (`earlyValidation` with `abortOnViolation`): what a finish would have listed. */
  readonly #cut:
    | {
        text: string;
        reasoning: string;
        toolCalls: ToolCall[];
        invalidToolCalls: InvalidToolCall[];
        violation?: ToolCallViolationEvent;
      }
    | undefined;

  constructor(cuts: boolean) {
    this.#cut = cuts ? { text: "", reasoning: "", toolCalls: [], invalidToolCalls: [] } : undefined;
  }

  see(event: ToolRunnerEvent): void {
    const cut = this.#cut;
    if (cut && event.type === "text-delta" && event.choice === undefined) cut.text += event.text;
    else if (cut && event.type === "reasoning-delta" && event.choice === undefined) cut.reasoning += event.text;
    else if (cut && (event.type === "tool-call" || event.type === "invalid-tool-call")) {
      if (event.type === "invalid-tool-call" && event.error.code === "withdrawn") return;
      const { type: _type, ...call } = event;
      if ("arguments" in call) cut.toolCalls.push(call);
      else cut.invalidToolCalls.push(call);
    } else if (cut && event.type === "tool-call-violation") cut.violation = event;
    if (event.type === "tool-call" || event.type === "invalid-tool-call") this.#calls.add(callKey(event));
    if (event.type === "finish" || event.type === "abort") this.terminal = event;
    else if (event.type === "tool-result" && !event.preliminary) {
      const { result: output, acknowledgedSafetyChecks } = event;
      this.#outcomes.set(callKey(event), acknowledgedSafetyChecks ? { output, acknowledgedSafetyChecks } : { output });
    } else if (event.type === "tool-error") {
      this.#outcomes.set(callKey(event), { output: event.error.message, isError: true });
      if (event.error.code === "denied") this.#denied.add(callKey(event));
    }
  }

  /**
   * The turn of a step the stream stopped at a schema violation (`abortOnViolation`), as the
   * finish it did not reach: its text, the calls that completed, and the stopped call (answered by
   * the runner with what was wrong). Other calls still open are left out: they have no answer.
   */
  cutTurn(): Pick<FinishEvent, "text" | "reasoning" | "toolCalls" | "invalidToolCalls"> | undefined {
    const { terminal } = this;
    if (!this.#cut || terminal?.type !== "abort" || terminal.reason !== "schema-violation") return undefined;
    const { violation, ...turn } = this.#cut;
    if (!violation) return undefined;
    const stopped = terminal.discarded.find((call) => callKey(call) === callKey(violation));
    if (!stopped) return undefined;
    return { ...turn, invalidToolCalls: [...turn.invalidToolCalls, { ...stopped, error: violation.error }] };
  }

  /** The step's events as they pass, noting the loop's own calls the model made, before a `beforeTools` stage may leave some out. */
  made(): TransformStream<ToolCallEvent, ToolCallEvent> {
    const made = this.#made;
    return new TransformStream({
      transform(event, out) {
        const own = (event.type === "tool-call" || event.type === "invalid-tool-call") && !event.providerExecuted;
        if (own && !(event.type === "invalid-tool-call" && event.error.code === "withdrawn")) made.add(callKey(event));
        out.enqueue(event);
      },
    });
  }

  /** The model made calls of the loop's own and a `beforeTools` stage left every one out. */
  allLeftOut(): boolean {
    return this.#made.size > 0 && [...this.#made].every((key) => !this.#calls.has(key));
  }

  /** The step's events held this call (a `beforeTools` stage may leave calls out). */
  passed(call: ToolCall): boolean {
    return this.#calls.has(callKey(call));
  }

  /** A call that asked for approval when nobody can give it (the loop has no `approve` option): the application answers it. */
  hold(request: ToolApprovalRequestEvent): void {
    this.#held.add(callKey(request));
  }

  /**
   * The calls among `calls` that get no output, and why: those waiting for an approval
   * (`approval`): held, or a computer call denied (its output is a screenshot: it has no room for
   * a denial); and computer calls whose handler failed or gave no screenshot (`no-screenshot`).
   */
  unanswerable(calls: readonly ToolCall[]): Unanswerable | undefined {
    const waiting = (call: ToolCall): boolean =>
      this.#held.has(callKey(call)) || (isComputerCall(call) && this.#denied.has(callKey(call)));
    const blank = (call: ToolCall): boolean => {
      const outcome = isComputerCall(call) ? this.#outcomes.get(callKey(call)) : undefined;
      return outcome !== undefined && !computerScreenshot(outcome);
    };
    const stuck = calls.filter((call) => waiting(call) || blank(call));
    if (stuck.length === 0) return undefined;
    return {
      calls: stuck.map((call) => {
        const safetyChecks = pendingSafetyChecks(call);
        return safetyChecks ? { ...call, safetyChecks } : call;
      }),
      reason: stuck.some(waiting) ? "approval" : "no-screenshot",
    };
  }

  /** The outcomes of `calls`, in their order; a call with none (never run) is left out. */
  results(calls: readonly ToolCall[]): (ToolResult & { call: ToolCall })[] {
    const results: (ToolResult & { call: ToolCall })[] = [];
    for (const call of calls) {
      const outcome = this.#outcomes.get(callKey(call));
      if (outcome) results.push({ call, ...outcome });
    }
    return results;
  }
}

/** Why a step's calls cannot all be answered, and which: the loop's `approval` or `no-screenshot`. */
export type Unanswerable = { calls: NonNullable<LoopFinishEvent["unanswered"]>; reason: "approval" | "no-screenshot" };

/** The turn's calls in index order, invalid ones included (with `{}` arguments) so that their errors have a call to answer. */
export function turnCalls(finish: Pick<FinishEvent, "toolCalls" | "invalidToolCalls">): ToolCall[] {
  const invalid = finish.invalidToolCalls.map(({ error: _error, ...call }): ToolCall => ({ ...call, arguments: {} }));
  return [...finish.toolCalls, ...invalid].sort((a, b) => a.index - b.index);
}

/**
 * The turn was refused: its finish reason is `content-filter` (Anthropic's `refusal`, OpenAI's
 * `content_filter`), or it carries an OpenAI refusal (Chat's `refusal` field, a Responses
 * `refusal` part), which finishes `stop`.
 */
export function refusedTurn(finish: Pick<FinishEvent, "reason" | "reasoningParts">): boolean {
  return finish.reason === "content-filter" || !!finish.reasoningParts?.some(isRefusal);
}
