import type { SafetyCheck, ToolResult } from "../providers/turn.ts";
import type { ToolCall } from "../shared/events.ts";
import type { ToolRunnerEvent } from "./tool-events.ts";

/** One step of a tool loop ended: the messages it adds to the conversation, in the provider's shape. */
export interface StepFinishEvent {
  /** Discriminator. */
  type: "step-finish";
  /** The step, from 1. */
  step: number;
  /**
   * The assistant turn and, when tools ran, their results: what this step appends to the
   * conversation (the results not when the loop ends with calls unanswered: `loop-finish.results`).
   */
  messages: unknown[];
}

/** Why a tool loop ended. */
export type LoopFinishReason =
  /** A step finished without a call to run: the model answered. */
  | "no-tool-calls"
  /**
   * A step's calls were all left out by the `beforeTools` stage (a server holding the model to
   * its `tool_choice`: a call of a tool not allowed), so none ran and the model was not asked
   * again: it called, but not what it was allowed to (`messages` holds its turn without them).
   */
  | "calls-left-out"
  /** `maxSteps` steps ran and the last one still had calls (their results are in `messages`, not yet sent). */
  | "max-steps"
  /**
   * A step's stream ended with an `abort` (input ended, failed, limit exceeded, provider error),
   * or with a `finish` of reason `error` (the provider ended the turn failed, or sent an error in
   * it, even after its finish reason).
   */
  | "aborted"
  /** The `call` for a step threw or rejected. */
  | "call-failed"
  /** The `signal` fired. */
  | "cancelled"
  /**
   * The provider refused the turn (its finish reason is `content-filter`: Anthropic's `refusal`,
   * OpenAI's `content_filter`; or it carries an OpenAI refusal, Chat's `refusal` field or a
   * Responses `refusal` part, which finishes `stop`): the loop does not send it back for more, as
   * the providers' guides ask the application to change or drop the refused request first. Calls
   * that completed before the refusal ran (a call the refusal may have cut off never runs);
   * `messages` holds the turn and their results (in `results` instead when a call of the turn is
   * `unanswered`: one that asked for an approval nobody gave).
   */
  | "refused"
  /**
   * A step ended waiting for approvals the loop cannot give, and the turn goes no further until
   * the application answers them: calls the provider would run (`finish.approvalRequests`, OpenAI
   * Responses' MCP approvals: add the answers, `approvalResponses`), or calls of the loop's own
   * that asked for approval (`unanswered`): a `needsApproval` tool's call when the loop has no
   * `approve` option, or a call with safety checks (an OpenAI Responses computer call's
   * `pending_safety_checks`, in `unanswered[i].safetyChecks`) that no `approve` option confirmed (it
   * said no or failed, or there is none; a computer call's output is a screenshot and nothing
   * else, so no denial can be sent). Those calls never ran; `messages` holds their turn but no
   * output (the outputs of the calls that ran are in `results`): run or refuse each, send all the
   * outputs in one `toolResultMessages(provider, [...results, ...yours])` (a computer call's
   * confirmed checks as its result's `acknowledgedSafetyChecks`) and run a new loop; or send the
   * turn no further.
   * (When the `approve` option refuses a call that is not a computer call, the model reads the
   * refusal, a `denied` error, and the loop goes on.)
   */
  | "approval"
  /**
   * A computer call (OpenAI Responses `computer_call`) gave no screenshot: its handler failed (its
   * `tool-error` says why), returned something else than a `data:image/` or `https:` URL,
   * `{ image_url }` or `{ file_id }`, or a screenshot over `maxScreenshotBytes` (never cut: its
   * `tool-error` names both sizes). Its `computer_call_output` takes a screenshot and nothing else
   * (no error text), so the loop stops: `messages` holds the turn but no output (`unanswered`
   * lists the call, `results` the others' outputs); add them with one (a fresh screenshot) and run
   * a new loop.
   */
  | "no-screenshot";

/** The last event of a tool loop. */
export interface LoopFinishEvent {
  /** Discriminator. */
  type: "loop-finish";
  /** How many steps ran. */
  steps: number;
  /** Why the loop ended. */
  reason: LoopFinishReason;
  /** The whole conversation: the initial messages and every step's messages. */
  messages: unknown[];
  /**
   * The last step's calls that got no output in `messages`, which the application must answer
   * before the turn goes on: those waiting for an approval (`approval`) and computer calls without
   * a screenshot (`no-screenshot`). A call the provider raised safety checks on (an OpenAI
   * Responses computer call's `pending_safety_checks`) carries them as `safetyChecks`: have the
   * user confirm them before it runs, then send them back as its result's `acknowledgedSafetyChecks`.
   */
  unanswered?: (ToolCall & { safetyChecks?: SafetyCheck[] })[];
  /**
   * With `unanswered`: the outputs of the step's other calls (those that ran, and their errors),
   * which are not in `messages` either, as Gemini and Bedrock take a turn's results only all in one
   * message: send them with the outputs of the unanswered calls,
   * `toolResultMessages(provider, [...results, ...outputs])`.
   */
  results?: ToolResult[];
}

/** The output of `runToolLoop`: each step's events tagged with the step (from 1), a `step-finish` per step, and one `loop-finish` last. */
export type ToolLoopEvent = (ToolRunnerEvent & { step: number }) | StepFinishEvent | LoopFinishEvent;
