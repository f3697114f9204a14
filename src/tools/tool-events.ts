import type { ToolCallEvent } from "../shared/events.ts";
import type { JsonValue } from "../shared/json.ts";
import type { SafetyCheck } from "../providers/turn.ts";

/** Why a tool call gave no result: what a `tool-error` event carries, and what the model reads. */
export type ToolErrorCode =
  /** No handler is registered under the call's name; the message lists the tools that exist. */
  | "unknown-tool"
  /** The arguments are not valid JSON or do not match the tool's parameters; the message says what is expected. */
  | "invalid-arguments"
  /** The handler threw or rejected (its message reaches the model only through a `ToolHandlerError`). */
  | "handler-failed"
  /** The handler did not settle within its timeout; its signal was aborted. */
  | "timeout"
  /** The caller did not approve a call that needs approval (or did not confirm its safety checks). */
  | "denied"
  /** The run was cancelled (the `signal` fired), or this call was (`cancelCall`), before it finished. */
  | "cancelled";

/** What went wrong with one tool call, written for the model to read and correct itself. */
export interface ToolErrorInfo {
  /** What went wrong, as a code to switch on. */
  code: ToolErrorCode;
  /** What was wrong and what is expected; never the arguments or a handler's internal error text. */
  message: string;
  /** The same call may succeed if it is made again (a timeout, a cancelled run). */
  retryable: boolean;
}

/** A handler finished: its result, as JSON. */
export interface ToolResultEvent {
  /** Discriminator. */
  type: "tool-result";
  /** The call's index, as on its `tool-call` event. */
  index: number;
  /** The call's id, or `null` when the provider gives none (Gemini). */
  id: string | null;
  /** The tool's name, as the model called it. */
  name: string;
  /** What the handler returned, as plain JSON; over `maxResultBytes`, a string cut short with a marker. */
  result: JsonValue;
  /** The result was over `maxResultBytes` and was cut short (the marker says so in `result` too). */
  truncated?: true;
  /** The choice the call belongs to, when the provider streams several. */
  choice?: number;
  /** A result so far, from a handler that streams its result (an async generator): the next `tool-result` of the call replaces it. */
  preliminary?: true;
  /** With a `clock`: the time since the handler started, in its milliseconds. */
  durationMs?: number;
  /**
   * The safety checks the approval confirmed before the handler ran (those of its
   * `tool-approval-request`): send them with the result (`ToolResult.acknowledgedSafetyChecks`), as
   * `runToolLoop` does.
   */
  acknowledgedSafetyChecks?: SafetyCheck[];
}

/** A call gave no result: unknown tool, invalid arguments, a handler failure, a timeout, a denial or a cancellation. */
export interface ToolErrorEvent {
  /** Discriminator. */
  type: "tool-error";
  /** The call's index, as on its `tool-call` event. */
  index: number;
  /** The call's id, or `null` when the provider gives none (Gemini). */
  id: string | null;
  /** The tool's name, as the model called it. */
  name: string;
  /** What went wrong, for the model to read. */
  error: ToolErrorInfo;
  /** The choice the call belongs to, when the provider streams several. */
  choice?: number;
  /** With a `clock`, for a handler that ran: the time from its start to this error, in its milliseconds. */
  durationMs?: number;
}

/**
 * A call waits for the caller to approve or deny it: a call to a tool marked `needsApproval`, or
 * one the provider raised safety checks on (an OpenAI Responses `computer_call` with
 * `pending_safety_checks`), which never runs unless approved.
 */
export interface ToolApprovalRequestEvent {
  /** Discriminator. */
  type: "tool-approval-request";
  /** The call's index, as on its `tool-call` event. */
  index: number;
  /** The call's id, or `null` when the provider gives none (Gemini). */
  id: string | null;
  /** The tool's name, as the model called it. */
  name: string;
  /** The parsed arguments the handler would be given. */
  arguments: JsonValue;
  /** The choice the call belongs to, when the provider streams several. */
  choice?: number;
  /**
   * The checks the provider asks the user to confirm before the call runs (OpenAI Responses
   * `computer_call.pending_safety_checks`: show their `message`): approving confirms them all, and
   * the call's `tool-result` then carries them as `acknowledgedSafetyChecks`.
   */
  safetyChecks?: SafetyCheck[];
}

/** The output of {@link ToolRunnerStream}: every input event, plus the outcome of each call it runs. */
export type ToolRunnerEvent = ToolCallEvent | ToolResultEvent | ToolErrorEvent | ToolApprovalRequestEvent;
