import type { ToolCall } from "../shared/events.ts";
import type { ToolRunnerEvent } from "./tool-events.ts";

/** One step of a tool loop ended: the messages it adds to the conversation, in the provider's shape. */
export interface StepFinishEvent {
  /** Discriminator. */
  type: "step-finish";
  /** The step, from 1. */
  step: number;
  /** The assistant turn and, when tools ran, their results: what this step appends to the conversation. */
  messages: unknown[];
}

/** Why a tool loop ended. */
export type LoopFinishReason =
  /** A step finished without a call to run: the model answered. */
  | "no-tool-calls"
  /** `maxSteps` steps ran and the last one still had calls (their results are in `messages`, not yet sent). */
  | "max-steps"
  /** A step's stream ended with an `abort` (input ended, failed, limit exceeded, provider error). */
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
   * `messages` holds the turn and their results.
   */
  | "refused"
  /**
   * A step ended waiting for the application to approve or deny calls the provider would run
   * (`finish.approvalRequests`, OpenAI Responses' MCP approvals): `messages` holds that turn (and
   * the results of any calls it ran); add the answers (`approvalResponses`) and run a new loop.
   */
  | "approval"
  /**
   * A call came with safety checks the user did not confirm (an OpenAI Responses `computer_call`'s
   * `pending_safety_checks`, in its `tool-approval-request`'s `safetyChecks`): the `approve` hook
   * said no or failed, or the loop has none. The call never ran, and `messages` holds its turn
   * (and the results of the other calls) but no output for it (`unanswered`): once the user
   * confirms, run the action and add its output with the checks (`toolResultMessages` with
   * `acknowledgedSafetyChecks`), then run a new loop; or send the turn no further.
   */
  | "safety-checks"
  /**
   * A computer call (OpenAI Responses `computer_call`) gave no screenshot: its handler failed (its
   * `tool-error` says why), returned something else than a `data:image/` or `https:` URL,
   * `{ image_url }` or `{ file_id }`, or one over `maxResultBytes`, which was cut. Its
   * `computer_call_output` takes a screenshot and nothing else (no error text), so the loop stops:
   * `messages` holds the turn but no output for the call (`unanswered`); add one (a fresh
   * screenshot) and run a new loop.
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
   * The last step's computer calls that got no output in `messages` (a `computer_call_output` takes
   * only a screenshot): what ended the loop with `safety-checks` or `no-screenshot`.
   */
  unanswered?: ToolCall[];
}

/** The output of `runToolLoop`: each step's events tagged with the step (from 1), a `step-finish` per step, and one `loop-finish` last. */
export type ToolLoopEvent = (ToolRunnerEvent & { step: number }) | StepFinishEvent | LoopFinishEvent;
