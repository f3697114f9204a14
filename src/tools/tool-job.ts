// One call the ToolRunner took: its job, the verdict on its arguments, and the events of its outcome.
import { validatedWith } from "../accumulate/validate-tool-calls.ts";
import { validateWithin, type StandardOutcome } from "../schema/standard-schema.ts";
import { checkToolArguments, type ToolSchema } from "../schema/tool-schema.ts";
import type { CompletedToolCallEvent, ToolCall } from "../shared/events.ts";
import type { SafetyCheck } from "../providers/turn.ts";
import { isComputerCall } from "../providers/openai-responses/openai-responses-computer.ts";
import {
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_MAX_SCREENSHOT_BYTES,
  type RunnableTool,
  type ToolRunnerOptions,
} from "./runnable-tool.ts";
import type { ToolErrorInfo, ToolRunnerEvent } from "./tool-events.ts";
import { toolErrorInfo } from "./tool-outcome.ts";
import type { HandlerOutcome, ResultLimits } from "./tool-run.ts";

/** One call the runner took, from its validation to its outcome. */
export interface Job {
  call: ToolCall;
  tool: RunnableTool;
  /** The handler's arguments: the call's, or its validator's output. */
  args: unknown;
  state: "validating" | "approval" | "queued" | "running";
  controller?: AbortController;
  timer?: unknown;
  /** When the handler started, by the `clock`. */
  startedAt?: number;
  /** Stops a handler that streams its result. */
  halt?: () => void;
  /** The safety checks the provider raised on the call: it runs only once they are approved. */
  checks?: SafetyCheck[];
}

/** The tool's verdict on a call's arguments: its validator's (the event may already carry its output), else its JSON Schema's. */
export function argumentsVerdict(
  call: CompletedToolCallEvent,
  tool: RunnableTool,
  options: ToolRunnerOptions,
): StandardOutcome | Promise<StandardOutcome> {
  if (call.inputFormat === "text") return { ok: true, value: call.arguments };
  if (tool.schema)
    return validatedWith.get(call) === tool.schema
      ? { ok: true, value: call.arguments }
      : validateWithin(tool.schema, call.arguments, options);
  const issues = tool.parameters ? checkToolArguments(call.arguments, tool.parameters as ToolSchema) : [];
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: call.arguments };
}

/**
 * The event of an outcome: the call's index, id, name and choice, with a clock the time since the
 * handler started, and for a result of a call whose safety checks were approved (it ran only so),
 * those checks.
 */
export function outcomeEvent(
  job: Job,
  outcome: HandlerOutcome & { preliminary?: true },
  options: ToolRunnerOptions,
): ToolRunnerEvent {
  const { index, id, name, choice } = job.call;
  const event = { ...outcome, index, id, name, ...(choice !== undefined ? { choice } : {}) } as ToolRunnerEvent & {
    durationMs?: number;
  };
  if (job.startedAt !== undefined) event.durationMs = options.clock!() - job.startedAt;
  if (job.checks && event.type === "tool-result") event.acknowledgedSafetyChecks = job.checks;
  return event;
}

/** The error of a call refused approval; the model reads `reason`. */
export function denied(reason?: string): ToolErrorInfo {
  return toolErrorInfo("denied", [], 0, reason);
}

/** What a call's result is held to: text to `maxResultBytes`; a computer call's screenshot, which is no text, to `maxScreenshotBytes`. */
export function resultLimits(call: ToolCall, options: ToolRunnerOptions): ResultLimits {
  const maxBytes = options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  if (!isComputerCall(call)) return { maxBytes };
  return { maxBytes, maxScreenshotBytes: options.maxScreenshotBytes ?? DEFAULT_MAX_SCREENSHOT_BYTES };
}
