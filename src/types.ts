/**
 * Shared types of tool-call-stream: the normalized provider deltas that flow between the
 * provider stages and the accumulator, and the accumulated events that users read.
 *
 * @module
 */

import type { JsonRepair } from "./json-repair.ts";

/** A JSON value as produced by `JSON.parse`. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/**
 * One Server-Sent Event as produced by {@link SSEDecoderStream}.
 *
 * `truncated` is set only on a final event that the body ended without its terminating blank
 * line (some gateways end that way): the provider stage delivers it when its payload is
 * complete and reports it as a truncated event otherwise.
 */
export interface SSEMessage {
  /** The `event:` field, or `undefined` when the server sent none. */
  event?: string | undefined;
  /** The `id:` field, or `undefined` when the server sent none. */
  id?: string | undefined;
  /** The `data:` lines joined by `\n`. */
  data: string;
  /** The body ended before the blank line that terminates this event. */
  truncated?: true;
}

/** Machine-readable error codes of tool-call-stream. */
export type ErrorCode =
  /** The provider sent an error inside the stream (an `error` event or an `error` member). */
  | "provider-error"
  /** A data payload that is not valid JSON, or not of the provider's shape. */
  | "malformed-payload"
  /** The body ended in the middle of a final event whose payload is incomplete. */
  | "truncated-event"
  /** The upstream answered with a non-2xx HTTP status. */
  | "http-error"
  /** The input stream failed (network error, or an upstream stage errored). */
  | "stream-failed"
  /** One SSE event or line exceeded `maxEventBytes`. */
  | "event-too-large"
  /** One call's arguments exceeded `maxArgumentsBytes`. */
  | "arguments-too-large"
  /** More calls than `maxToolCalls` in one response. */
  | "too-many-tool-calls"
  /** Tool arguments that are not valid JSON. */
  | "invalid-json"
  /** A call that completed without a function name. */
  | "missing-name"
  /** The provider could not be told from the option or the first event. */
  | "unknown-provider"
  /** A `sequence_number` never arrived within the reorder window (Responses API). */
  | "sequence-gap"
  /** Tool arguments that continue after a complete JSON value. */
  | "trailing-data"
  /** Tool arguments nested deeper than `maxDepth`. */
  | "too-deep"
  /** A snapshot of another format version, or restored into an accumulator whose state is no longer new. */
  | "invalid-snapshot"
  /** Tool arguments that do not match the tool's schema, or a name that is not a tool (`issues` says why). */
  | "schema-mismatch";

/**
 * A plain, serializable description of an error carried by an `error`, `abort` or
 * `invalid-tool-call` event. The message never embeds provider payloads; the provider's own
 * error object, where there is one, is on `data`.
 */
export interface StreamErrorInfo {
  /** What went wrong, as a code to switch on. */
  code: ErrorCode;
  /** A human-readable sentence that never includes model output or prompts. */
  message: string;
  /** The provider's error payload, verbatim (for `provider-error`). */
  data?: unknown;
  /** HTTP status (for `http-error`). */
  status?: number;
  /** Character offset in the raw arguments where parsing failed (for `invalid-json`). */
  position?: number;
  /** Readable reasons (for `schema-mismatch`). */
  issues?: string[];
}

/** Token usage normalized across providers. The provider's object is kept on `raw`. */
export interface Usage {
  /** Prompt / input tokens. */
  inputTokens?: number;
  /** Completion / output tokens. */
  outputTokens?: number;
  /** Total tokens, as reported or as input + output. */
  totalTokens?: number;
  /** The provider's usage object, verbatim. */
  raw: unknown;
}

/** Normalized reason a response finished. The provider's value is kept as `rawReason`. */
export type FinishReason = "stop" | "tool-calls" | "length" | "content-filter" | "error" | "other";

/**
 * A normalized provider delta: what every provider stage produces and the
 * {@link ToolCallAccumulatorStream} consumes. Provider wire formats never reach the accumulator.
 *
 * `choice` is the choice index for providers that stream several (`n > 1`); absent means 0.
 */
export type ProviderDelta =
  | TextDelta
  | ReasoningDelta
  | ReasoningPartDelta
  | ToolCallChunkDelta
  | ToolCallEndDelta
  | FinishDelta
  | UsageDelta
  | ErrorDelta
  | DoneDelta;

/** Visible assistant text. */
export interface TextDelta {
  /** The kind of delta: always `text-delta`. */
  type: "text-delta";
  /** The text fragment. */
  text: string;
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
}

/** Reasoning / thinking text (never part of the visible text). */
export interface ReasoningDelta {
  /** The kind of delta: always `reasoning-delta`. */
  type: "reasoning-delta";
  /** The text fragment. */
  text: string;
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
}

/**
 * One reasoning block of a turn as the provider must get it back on the next request: with
 * Anthropic extended thinking and tools, a signed block (its text with the provider's signature)
 * or a redacted block (only its opaque data); with OpenAI Responses, a reasoning item (its id,
 * summary and, when requested, encrypted content), which must precede the turn's function calls
 * when the conversation is passed back manually. A `finish` event lists them in the order they
 * streamed; each provider's message builder uses only its own kinds.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "anthropic" })) {
 *   if (event.type === "finish") console.log(event.reasoningParts?.map((part) => part.type)); // ["signed", "redacted"]
 * }
 * ```
 */
export type ReasoningPart =
  | {
      /** The kind of part: a reasoning block with a signature. */
      type: "signed";
      /** The block's whole reasoning text. */
      text: string;
      /** The provider's signature of the text, sent back unchanged. */
      signature: string;
    }
  | {
      /** The kind of part: a reasoning block the provider encrypted. */
      type: "redacted";
      /** The provider's opaque data, sent back unchanged. */
      data: string;
    }
  | {
      /** The kind of part: a reasoning output item (OpenAI Responses). */
      type: "item";
      /** The item's id (`rs_...`). */
      id: string;
      /** The item's encrypted reasoning, when it was requested (`include: ["reasoning.encrypted_content"]`, needed with `store: false`). */
      encryptedContent?: string;
      /** The item's summary parts, verbatim. */
      summary?: JsonValue[];
    };

/**
 * One reasoning block completed, with what the provider needs back (a signature, redacted data, or a reasoning item's id and encrypted content).
 *
 * @example
 * ```ts
 * accumulator.push({ type: "reasoning-part", part: { type: "signed", text: "Let me check.", signature: "EqQBCg..." } });
 * accumulator.push({ type: "reasoning-part", part: { type: "item", id: "rs_0050...", encryptedContent: "gAAAAABo...", summary: [] } });
 * ```
 */
export interface ReasoningPartDelta {
  /** The kind of delta: always `reasoning-part`. */
  type: "reasoning-part";
  /** The block; its text, if any, already came as `reasoning-delta`s. */
  part: ReasoningPart;
}

/**
 * A fragment of one tool call, with whatever the provider put in it. The accumulator decides
 * which call it belongs to (by `index`, by `id`, else the most recent open call).
 */
export interface ToolCallChunkDelta {
  /** The kind of delta: always `tool-call-chunk`. */
  type: "tool-call-chunk";
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
  /** The provider's index of the call (OpenAI `index`, Anthropic block index, ...). */
  index?: number;
  /** The provider's call id; empty strings are dropped by the provider stage. */
  id?: string;
  /** A fragment of, or the whole, function name. */
  name?: string;
  /** A fragment of the JSON arguments text. */
  argumentsDelta?: string;
  /** Per-call data that must go back to the provider on the next turn. */
  providerMetadata?: Record<string, unknown>;
  /** The provider runs this call itself (Anthropic `server_tool_use`): the application must not. */
  providerExecuted?: true;
  /** `text`: the call's input is free text (Responses `custom_tool_call`), kept as a string, never parsed. */
  inputFormat?: "text";
}

/** The provider's explicit end of one call (Anthropic `content_block_stop`, Responses `.done`). */
export interface ToolCallEndDelta {
  /** The kind of delta: always `tool-call-end`. */
  type: "tool-call-end";
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
  /** The provider's index of the call, as in {@link ToolCallChunkDelta.index}. */
  index: number;
  /** The final arguments text, when the provider sends it; it replaces the accumulated text. */
  arguments?: string;
}

/** The provider's finish reason for one choice; completes that choice's open calls. */
export interface FinishDelta {
  /** The kind of delta: always `finish`. */
  type: "finish";
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
  /** The provider's own finish reason (`null` when it sent none). */
  rawReason: string | null;
  /** The normalized reason (every provider stage sets it); a finish without one counts as a normal `stop`. */
  reason?: FinishReason;
}

/** Token usage, wherever the provider sent it. The last one wins. */
export interface UsageDelta {
  /** The kind of delta: always `usage`. */
  type: "usage";
  /** The normalized token usage. */
  usage: Usage;
}

/** A provider error sent inside the stream, or a payload the provider stage could not read. */
export interface ErrorDelta {
  /** The kind of delta: always `error`. */
  type: "error";
  /** What went wrong: a `code`, a message that never quotes model output, and optional `data`. */
  error: StreamErrorInfo;
}

/** The provider's end of the response (`[DONE]`, `message_stop`, `response.completed`). */
export interface DoneDelta {
  /** The kind of delta: always `done`. */
  type: "done";
}

/** A tool call whose arguments completed and parsed. */
export interface ToolCall {
  /** The call's index: the provider's own (OpenAI `index`, Anthropic block index, Responses output index) when no other call of the choice has it, else the next free one. Unique per choice. */
  index: number;
  /** The provider's call id, or `null` when the provider gives none (Gemini). */
  id: string | null;
  /** The function name. */
  name: string;
  /** The parsed arguments; empty or missing arguments are `{}`. */
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
  /** A configured limit was exceeded (`maxEventBytes`, `maxArgumentsBytes`, `maxToolCalls`). */
  | "limit-exceeded";

/** An accumulated event: the output of {@link ToolCallAccumulatorStream} and `streamToolCalls`. */
export type ToolCallEvent =
  | TextDeltaEvent
  | ReasoningDeltaEvent
  | ToolCallStartEvent
  | ToolCallDeltaEvent
  | CompletedToolCallEvent
  | InvalidToolCallEvent
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
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
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
}

/** A complete call whose arguments are not valid JSON; the raw text is kept. */
export interface InvalidToolCallEvent extends InvalidToolCall {
  /** The kind of event: always `invalid-tool-call`. */
  type: "invalid-tool-call";
}

/** The response finished normally. */
export interface FinishEvent {
  /** The kind of event: always `finish`. */
  type: "finish";
  /** Normalized reason; `stop` with complete calls is reported as `tool-calls`. */
  reason: FinishReason;
  /** The provider's own value (`null` when the provider never sent one). */
  rawReason: string | null;
  /** Every complete call, in index order. */
  toolCalls: ToolCall[];
  /** Every call whose arguments could not be used, in index order. */
  invalidToolCalls: InvalidToolCall[];
  /** The visible text of the first choice. */
  text: string;
  /** The reasoning text of the first choice. */
  reasoning: string;
  /** Token usage, when the provider reported it. */
  usage?: Usage;
  /** The reasoning blocks to send back, in order, when the provider sent any (Anthropic signed and redacted thinking, OpenAI Responses reasoning items): they go back first in the assistant turn. */
  reasoningParts?: ReasoningPart[];
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

/** Limits that bound memory. Every one has a clear error when exceeded. */
export interface StreamLimits {
  /**
   * Largest SSE line or event, in characters, that the SSE stage buffers.
   * @defaultValue 4194304 (4 Mi)
   */
  maxEventBytes?: number;
  /**
   * Largest arguments text of one call, in characters (UTF-16 code units, as `String.length`
   * counts them, and as `maxEventBytes` and eventsource-parser's `maxBufferSize` do): a bound on
   * memory, one per byte for ASCII JSON.
   * @defaultValue 4194304 (4 Mi)
   */
  maxArgumentsBytes?: number;
  /**
   * Most tool calls in one response.
   * @defaultValue 1024
   */
  maxToolCalls?: number;
}

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
  /** The caller did not approve a call that needs approval. */
  | "denied"
  /** The run was cancelled (the `signal` fired) before the call finished. */
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
}

/** A call to a tool marked `needsApproval` waits for the caller to approve or deny it. */
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
}

/** The output of {@link ToolRunnerStream}: every input event, plus the outcome of each call it runs. */
export type ToolRunnerEvent = ToolCallEvent | ToolResultEvent | ToolErrorEvent | ToolApprovalRequestEvent;

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
  | "cancelled";

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
}

/** The output of `runToolLoop`: each step's events tagged with the step (from 1), a `step-finish` per step, and one `loop-finish` last. */
export type ToolLoopEvent = (ToolRunnerEvent & { step: number }) | StepFinishEvent | LoopFinishEvent;
