/**
 * The accumulated events: what the accumulator (and `streamToolCalls`) produces, and runners, encoders and apps read.
 * @module
 */
import type { ApprovalRequest, FinishReason, ReasoningPart, Usage } from "./deltas.ts";
import type { StreamErrorInfo } from "./errors.ts";
import type { ExecutionContainer, ModerationResults, RefusalDetails } from "./finish-details.ts";
import type { JsonRepair, JsonValue } from "./json.ts";
import type { TurnOrderEntry } from "./turn-order.ts";

/** A tool call whose arguments completed and parsed. */
export interface ToolCall {
  /** The call's index: the provider's own (OpenAI `index`, Anthropic block index, Responses output index) when no other call of the choice has it, else the next free one. Unique per choice. */
  index: number;
  /** The provider's call id, or `null` when the provider gives none (Gemini). */
  id: string | null;
  /** The function name. */
  name: string;
  /** The parsed arguments; empty or missing arguments are `{}`. For a tool given by a validator (`{ name, schema }`), the validator's output (defaults, coercions, transforms applied). */
  arguments: JsonValue;
  /** The arguments text exactly as received. */
  rawArguments: string;
  /** The choice the call belongs to, when the provider streams several. */
  choice?: number;
  /** Per-call provider data to send back on the next turn (e.g. Gemini thought signatures). */
  providerMetadata?: Record<string, unknown>;
  /** Repairs applied to the arguments text before it parsed (`trailing-commas`, `single-quotes`, ...). */
  repairs?: JsonRepair[];
  /** The provider ran this call itself (Anthropic web search): do not run it, do not answer it. */
  providerExecuted?: true;
  /** `text` for free-text input (Responses `custom_tool_call`): `arguments` is then the raw string. */
  inputFormat?: "text";
  /** With a clock (`clock` option, `toolCallTimings`): when the first argument fragment came, in the clock's milliseconds. */
  startedAt?: number;
  /** With a clock: when the arguments completed. */
  completedAt?: number;
}

/** A tool call that completed but whose arguments could not be used. */
export interface InvalidToolCall {
  /** The call's index, as in {@link ToolCall.index}. */
  index: number;
  /** The provider's call id, or `null` when the provider gives none (Gemini). */
  id: string | null;
  /** The function name. */
  name: string;
  /** The arguments text exactly as received. */
  rawArguments: string;
  /** Why the call is invalid (`invalid-json` with a `position`, `missing-name`, ...). */
  error: StreamErrorInfo;
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
  /** Per-call provider data to send back on the next turn (e.g. Gemini thought signatures). */
  providerMetadata?: Record<string, unknown>;
  /** The provider ran this call itself (a server tool whose input did not parse): the client neither runs nor answers it. */
  providerExecuted?: true;
  /** `text` for free-text input (a custom tool's call), as its `tool-call-start` said. */
  inputFormat?: "text";
  /** With a clock: when the first argument fragment came. */
  startedAt?: number;
  /** With a clock: when the arguments completed. */
  completedAt?: number;
}

/** A call that was still open when the input ended or was cancelled: never parsed. */
export interface DiscardedToolCall {
  /** The call's index, as in {@link ToolCall.index}. */
  index: number;
  /** The provider's call id, or `null` when the provider gives none (Gemini). */
  id: string | null;
  /** The function name. */
  name: string;
  /** The partial arguments text received before the stop. */
  rawArguments: string;
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
}

/** Why an `abort` event ended the stream. */
export type AbortReason =
  /** The input ended before the provider's finish. */
  | "input-ended"
  /** The caller cancelled: the `signal` fired or the reader was cancelled. */
  | "cancelled"
  /** The input stream failed (a network error, an upstream stage that errored). */
  | "stream-failed"
  /** The input ended after a provider error, without a finish. */
  | "provider-error"
  /** A configured limit was exceeded (`maxEventLength`, `maxArgumentsLength`, `maxToolCalls`). */
  | "limit-exceeded"
  /** With `abortOnViolation`, a call's arguments stopped matching its tool's schema (`tool-call-violation`). */
  | "schema-violation";

/** An accumulated event: the output of {@link ToolCallAccumulatorStream} and `streamToolCalls`. */
export type ToolCallEvent =
  | TextDeltaEvent
  | ReasoningDeltaEvent
  | ReasoningPartEvent
  | ToolCallStartEvent
  | ToolCallDeltaEvent
  | CompletedToolCallEvent
  | InvalidToolCallEvent
  | ToolCallViolationEvent
  | ApprovalRequestEvent
  | UsageEvent
  | FinishEvent
  | ErrorEvent
  | AbortEvent;

/** Visible assistant text as it arrives. */
export interface TextDeltaEvent {
  /** The kind of event: always `text-delta`. */
  type: "text-delta";
  /** The text fragment. */
  text: string;
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
}

/** Reasoning text as it arrives (DeepSeek `reasoning_content`, Anthropic thinking, ...). */
export interface ReasoningDeltaEvent {
  /** The kind of event: always `reasoning-delta`. */
  type: "reasoning-delta";
  /** The text fragment. */
  text: string;
  /** Which text of an OpenAI Responses reasoning item it is, its summary or its raw reasoning; absent for a provider with one kind. */
  field?: "summary" | "content";
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
}

/** A reasoning block completed, with what the provider needs back on the next turn (Anthropic's signature or redacted data, a Responses reasoning item's id, encrypted content and raw reasoning), emitted where the provider ended the block: after its text's `reasoning-delta`s and before what follows, so that another protocol's encoder can close the block with its signature in place (the `finish` lists the same parts again, for the next turn's messages). */
export interface ReasoningPartEvent {
  /** The kind of event: always `reasoning-part`. */
  type: "reasoning-part";
  /** The block, as the provider gave it. */
  part: ReasoningPart;
}

/** A call began: emitted once per call, when its name is known. */
export interface ToolCallStartEvent {
  /** The kind of event: always `tool-call-start`. */
  type: "tool-call-start";
  /** The call's index, as in {@link ToolCall.index}. */
  index: number;
  /** The provider's call id, or `null` when the provider gives none (Gemini). */
  id: string | null;
  /** The function name. */
  name: string;
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
  /** The provider runs this call itself. */
  providerExecuted?: true;
  /** `text` for free-text input (Responses `custom_tool_call`). */
  inputFormat?: "text";
  /** Per-call provider data that came before the arguments (Anthropic's `caller`, a Gemini signature), so that an encoder can open the call with it; the `tool-call` has it all. */
  providerMetadata?: Record<string, unknown>;
}

/** A fragment of a call's arguments text. */
export interface ToolCallDeltaEvent {
  /** The kind of event: always `tool-call-delta`. */
  type: "tool-call-delta";
  /** The call's index, as in {@link ToolCall.index}. */
  index: number;
  /** The provider's call id, or `null` when the provider gives none (Gemini). */
  id: string | null;
  /** The fragment; a call's fragments concatenate to its `rawArguments`. */
  argumentsDelta: string;
  /**
   * The arguments so far are one closed JSON value. A hint to prepare a tool early: the call is
   * complete only at its `tool-call` event.
   */
  closed: boolean;
  /**
   * The arguments parsed so far, with the `partialArguments` option: a live value, valid until
   * the next event of this call (copy it to keep it).
   */
  partialArguments?: JsonValue | undefined;
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
}

/** A complete call with parsed arguments. */
export interface CompletedToolCallEvent extends ToolCall {
  /** The kind of event: always `tool-call`. */
  type: "tool-call";
  /** Completed as the response stopped or failed (a limit, a cut, the signal, a provider's error): whole, but of a failed turn, so runners never run it (a `cancelled` error). */
  stopped?: true;
}

/** A complete call whose arguments are not valid JSON; the raw text is kept. */
export interface InvalidToolCallEvent extends InvalidToolCall {
  /** The kind of event: always `invalid-tool-call`. */
  type: "invalid-tool-call";
}

/** The provider waits for the application to approve a call it would run itself (OpenAI's MCP approvals): never a `tool-call`. */
export type ApprovalRequestEvent = ApprovalRequest & { /** Always `approval-request`. */ type: "approval-request" };

/** Why a call's arguments can no longer match its tool's schema, found while they streamed: what a `tool-call-violation` event carries (and the `error` of an `abort` of reason `schema-violation`). */
export interface SchemaViolation {
  /** Always `schema-mismatch`, the code of the `invalid-tool-call` the call ends with. */
  code: "schema-mismatch";
  /** What is wrong, from the schema's side (it never quotes the arguments). */
  message: string;
  /** Where, as a JSON Pointer (RFC 6901) into the arguments: `""` for the whole value, `/unit`, `/items/3/qty`. */
  path: string;
}

/**
 * With early validation, a call's arguments can no longer match its tool's schema, whatever follows: emitted once per call, right
 * after the `tool-call-delta` whose fragment made it so. It goes on and ends as an `invalid-tool-call` (unless `abortOnViolation` ended the stream here).
 */
export interface ToolCallViolationEvent {
  /** The kind of event: always `tool-call-violation`. */
  type: "tool-call-violation";
  /** The call's index, as in {@link ToolCall.index}. */
  index: number;
  /** The provider's call id, or `null` when the provider gives none (Gemini). */
  id: string | null;
  /** The function name. */
  name: string;
  /** What is wrong and where. */
  error: SchemaViolation;
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
}

/**
 * The provider's first report of token usage, as soon as it came: Anthropic (in `message_start`) and Gemini (on each
 * chunk) report the input tokens before any output, so a server can pass them on at once (the Messages encoder puts
 * them in `message_start`); OpenAI, Bedrock, Ollama and Cohere report usage only at the end. Emitted at most once per
 * response, before the `finish`, whose `usage` holds the final counts (later reports only update those).
 */
export interface UsageEvent {
  /** The kind of event: always `usage`. */
  type: "usage";
  /** The counts the provider reported so far (an early report may lack the output tokens). */
  usage: Usage;
}

/** The response finished normally. */
export interface FinishEvent {
  /** The kind of event: always `finish`. */
  type: "finish";
  /** Normalized reason, with several choices (`n > 1`) the first's, as `rawReason` and its finish's other fields; `stop` with complete calls of its own is reported as `tool-calls`. */
  reason: FinishReason;
  /** The provider's own value (`null` when the provider never sent one). */
  rawReason: string | null;
  /** Every complete call, in index order. */
  toolCalls: ToolCall[];
  /** Every call whose arguments could not be used, in index order. */
  invalidToolCalls: InvalidToolCall[];
  /** The calls the provider withdrew (error `withdrawn`), when any: each came as an `invalid-tool-call`, is in neither list above, and is not to be run, answered or sent back. */
  withdrawnToolCalls?: InvalidToolCall[];
  /** The calls the provider waits for the application to approve or deny (reason `approval`): answer each (`approvalResponses`). */
  approvalRequests?: ApprovalRequest[];
  /** The visible text of the first choice. */
  text: string;
  /** The reasoning text of the first choice. */
  reasoning: string;
  /** Token usage, when the provider reported it. */
  usage?: Usage;
  /** The reasoning blocks to send back, in order, when the provider sent any (Anthropic signed and redacted thinking, OpenAI Responses reasoning items): they go back first in the assistant turn. */
  reasoningParts?: ReasoningPart[];
  /** The code-execution container the response ran in (Anthropic's `container`): send its `id` as the next request's `container`. */
  container?: ExecutionContainer;
  /** The provider's moderation of the input and the answer, when the request asked for it (OpenAI's moderated completions), as it sent it. */
  moderation?: ModerationResults;
  /** The stop sequence that ended the text (`rawReason` `stop_sequence`), when the stage that made the finish knows it (Anthropic's `stop_sequence`, Claude's on Bedrock InvokeModel; a server that applies stop sequences itself). */
  stopSequence?: string;
  /** Why the provider declined (Anthropic's `stop_details`), when it said: with `reason` `content-filter`; show its `explanation`. */
  refusal?: RefusalDetails;
  /** With `reason` `length`, when the provider can go on from where its per-request limit cut the answer, the next response continuing the output: Gemini's `CONTINUATION` finish (send the same request again with this token as its `continuationToken`), or the Interactions API's `requires_continuation` (send it as `continuation_token`; for a stored interaction also its `id` as `previous_interaction_id`, with no `input`; under `store: false` the same `input`). */
  continuationToken?: string;
  /** The first choice's text, calls and reasoning parts in the order they came, unless reasoning, text, calls: the next turn follows it. */
  order?: TurnOrderEntry[];
}

/** A provider error inside the stream, or a payload that could not be read. The stream goes on. */
export interface ErrorEvent {
  /** The kind of event: always `error`. */
  type: "error";
  /** What went wrong: a `code`, a message that never quotes model output, and optional `data`. */
  error: StreamErrorInfo;
}

/** The stream ended before the provider's finish; open calls are discarded, never parsed. */
export interface AbortEvent {
  /** The kind of event: always `abort`. */
  type: "abort";
  /** Why the stream stopped. */
  reason: AbortReason;
  /** Calls still open at the stop. */
  discarded: DiscardedToolCall[];
  /** What stopped the stream, when it was an error. */
  error?: StreamErrorInfo;
}
