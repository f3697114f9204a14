import type { ReasoningPart } from "../shared/deltas.ts";
import type { ProviderErrorKind, StreamErrorInfo } from "../shared/errors.ts";
import type { AbortEvent, FinishEvent } from "../shared/events.ts";
import type { LoopFinishEvent, StepFinishEvent, ToolLoopEvent } from "../tools/loop-events.ts";
import type { ToolRunnerEvent } from "../tools/tool-events.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import { encodedReady } from "./encoded-ready.ts";

/**
 * What the client-protocol encoders read: the accumulator's events, the tool runner's (results,
 * errors, approval requests) and the tool loop's (each event tagged with its `step`,
 * `step-finish`, `loop-finish`). An event of a type an encoder does not know is skipped, so a
 * newer event union never breaks an older encoder.
 */
export type EncodableEvent = ToolRunnerEvent | ToolLoopEvent;

/**
 * The pure core of a client-protocol encoder: a state machine that appends the wire text of each
 * event to an array, so that a batch of ready events becomes one string with one `join`.
 *
 * @example
 * ```ts
 * const out: string[] = [];
 * for (const event of readyEvents) encoder.encode(event, out);
 * socket.send(out.join(""));
 * ```
 */
export interface ProtocolEncoder<E> {
  /** Appends the wire text of one event to `out`: nothing for an event the protocol does not show. */
  encode(event: E, out: string[]): void;
  /** Appends what the end of the input adds (the closing events, `[DONE]`); idempotent once ended. */
  end(out: string[]): void;
  /**
   * True once the encoder wrote its last event before its input ended (AG-UI's `RUN_ERROR`; the end
   * of the one response Chat Completions, Messages and Responses show, a tool loop's first step): it
   * writes nothing more, so its reader stops reading the input (a tool loop would go on calling the
   * model and running tools for nobody). Absent: the encoder writes until its input ends.
   */
  readonly ended?: boolean;
}

/**
 * Encodes a batch of events with one core into one string, and with `end: true` closes the
 * protocol's stream too. The form for a server that reads everything ready from upstream and
 * writes it at once.
 *
 * @example
 * ```ts
 * const encoder = new OpenAIChatEncoder({ model: "gpt-4o-mini" });
 * const text = encodeEvents(encoder, events, true); // the whole response body
 * ```
 */
export function encodeEvents<E>(encoder: ProtocolEncoder<E>, events: readonly E[], end = false): string {
  const out: string[] = [];
  for (const event of events) encoder.encode(event, out);
  if (end) encoder.end(out);
  return out.join("");
}

/** Options of {@link ProtocolEncoderStream}. */
export interface ProtocolEncoderStreamOptions {
  /**
   * Join the adjacent fragments within each input array ({@link joinDeltas}) before encoding: one
   * protocol delta per run of a call's arguments (or of text) that one network chunk held.
   * @defaultValue false
   */
  joinDeltas?: boolean | undefined;
}

/**
 * `options` without `joinDeltas`, once each of its names is one of `known` (typed as the encoder's
 * option names, so that one added there and not here does not compile) or `joinDeltas`, else a
 * `TypeError` naming it and them: what a client-protocol encoder's stage passes its encoder, as a
 * typo (`includeUsge`) left the default in force.
 *
 * @example
 * ```ts
 * super(new UIMessageEncoder(encoderStreamOptions(options, UI_OPTIONS)), options);
 * ```
 */
export function encoderStreamOptions<O extends object>(
  options: O & ProtocolEncoderStreamOptions,
  known: Record<keyof O, 0>,
): O {
  checkOptionNames(options, { ...known, joinDeltas: 0 });
  // The encoder checks its own options too, and `joinDeltas` is the stage's.
  const { joinDeltas: _, ...own } = options;
  return own as O;
}

/**
 * The stage around a {@link ProtocolEncoder}: events in, UTF-8 bytes out. It takes one event or
 * an array of the events that are ready ({@link readyBatches} makes those arrays), and writes what
 * is ready as one chunk (none when it shows nothing): an array as it comes, and single events, as
 * a pipe writes them (`events.pipeThrough(stage)`), every one that is ready at once, so a server
 * pays one UTF-8 encoding and one enqueue per batch, not per event. A lone event is never held
 * back: the stage waits for no timer, only the few microtask turns a pipe takes to hand over what
 * its source already has. Backpressure is the platform's: nothing is read before the reader asks,
 * and the stage's queues hold an event or two. Cancelling the output cancels the input with the
 * reason, and with it the provider request. Once the encoder `ended` (AG-UI's `RUN_ERROR`, the end
 * of a Chat Completions, Messages or Responses response), the output closes right after its last
 * event (a client reading to the end of the body waits for no tool of a loop's step), a failure of
 * the input after it is not the client's, and the input is stopped: cancelled (a tool loop calls
 * the model no more, a provider's body is not read for nobody) unless it ends right away, as a
 * pipe of a source that ended does (its `pipeTo` settles, a writer's `close` resolves).
 *
 * @example
 * ```ts
 * const body = streamToolCalls(response).pipeThrough(new ProtocolEncoderStream(new OpenAIChatEncoder({ model })));
 * ```
 */
export class ProtocolEncoderStream<E> extends TransformStream<E | readonly E[], Uint8Array> {
  /** Wraps `encoder`; the stage owns it from then on. */
  constructor(encoder: ProtocolEncoder<E>, options: ProtocolEncoderStreamOptions = {}) {
    // The inputs pass through the platform's queues as they are (a writable of one, for a pipe to
    // hand over what is ready), and the readable below encodes every one that is ready at once.
    let closed = (): void => undefined;
    const closing = new Promise<void>((resolve) => void (closed = resolve));
    super({ flush: () => closed() }, { highWaterMark: 1 }, { highWaterMark: 0 });
    const input = this.readable as unknown as ReadableStream<E | readonly E[]>;
    Object.defineProperty(this, "readable", {
      value: encodedReady(input, encoder, options.joinDeltas === true, closing),
      enumerable: true,
    });
  }
}

/** A `data:` frame of Server-Sent Events; `JSON.stringify` escapes CR and LF, so one line holds any value. */
export const sseData = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;

/** The `data: [DONE]` frame that ends an OpenAI or AI SDK stream. */
export const SSE_DONE = "data: [DONE]\n\n";

/** The step an event belongs to, for the tool loop's events; `undefined` for a single response. */
export const stepOf = (event: EncodableEvent): number | undefined =>
  "step" in event && typeof event.step === "number" && event.type !== "step-finish" ? event.step : undefined;

/** The loop's own events, which belong to no step's content. */
export const isLoopEvent = (event: EncodableEvent): event is StepFinishEvent | LoopFinishEvent =>
  event.type === "step-finish" || event.type === "loop-finish";

/** Messages of an abort without an error of its own: what a client shows, never model output. */
const ABORT_MESSAGES: Readonly<Record<AbortEvent["reason"], string>> = {
  "input-ended": "The response ended before it finished.",
  cancelled: "The response was cancelled.",
  "stream-failed": "The response stream failed.",
  "provider-error": "The provider reported an error inside the stream.",
  "limit-exceeded": "The response exceeded a limit.",
  "schema-violation": "A tool call could no longer match its tool's schema, so the response was stopped.",
};

/** Whether an event is a call the provider withdrew (Anthropic's fallback cut it off): shown, maybe, but never a call to run. */
export const withdrawn = (event: EncodableEvent): boolean =>
  event.type === "invalid-tool-call" && event.error.code === "withdrawn";

/**
 * Whether a reasoning part is the result of a call the encoder did not show (a kept block naming
 * it by `tool_use_id`: Anthropic's `web_search_tool_result` of its `server_tool_use`, which the
 * client protocols leave out): shown alone, a client would send back a result without its call.
 */
export const resultOfSkipped = (part: ReasoningPart, skipped: ReadonlySet<string>): boolean =>
  part.type === "block" && typeof part.block["tool_use_id"] === "string" && skipped.has(part.block["tool_use_id"]);

/**
 * What a client is told of a `finish` of reason `error` (Gemini's `MALFORMED_FUNCTION_CALL`, vLLM's
 * `abort`, a failed Responses or Interactions response): the provider ended it failed, so every
 * protocol with an error of its own ends with that error, not with a success.
 */
export const FAILED_FINISH: { readonly code: "provider-error"; readonly message: string } = {
  code: "provider-error",
  message: "The provider ended the response with an error.",
};

/**
 * What a client is told of a `finish` of reason `error`: when a call lost a fragment (a provider
 * payload skipped while it streamed, its `invalid-tool-call` of code `malformed-payload`, which
 * failed the turn), that call's error, which names it and what was lost, with its code; else
 * `failed`, the provider's failure ({@link FAILED_FINISH}, or a protocol's own wording of it).
 */
export function failedFinish(
  event: FinishEvent,
  failed: { readonly code: string; readonly message: string } = FAILED_FINISH,
): { code: string; message: string } {
  const lost = event.invalidToolCalls.find((call) => call.error.code === "malformed-payload");
  return lost ? { code: lost.error.code, message: lost.error.message } : failed;
}

/**
 * OpenAI's own codes for the kinds of a provider's failure (an `error`'s `kind`), on Chat
 * Completions and Responses alike (a Responses overload aside: its wire's `responsesError`). Codex
 * compacts the conversation on `context_length_exceeded`, stops on `insufficient_quota` ("Quota
 * exceeded") and `invalid_prompt` (showing the message), and retries `rate_limit_exceeded` after the
 * wait its message names ("try again in 1.5s").
 */
export const OPENAI_KIND_CODES: Readonly<Partial<Record<ProviderErrorKind, string>>> = {
  overloaded: "server_is_overloaded",
  "rate-limited": "rate_limit_exceeded",
  "quota-exceeded": "insufficient_quota",
  "context-overflow": "context_length_exceeded",
  "invalid-request": "invalid_prompt",
};

/**
 * OpenAI's error types of the same kinds (a Chat Completions rate limit aside: its type is the limit
 * hit), as Open Responses types them: `too_many_requests` for a 429, `invalid_request_error` for a
 * request at fault, and OpenAI's own 429 `insufficient_quota`.
 */
export const OPENAI_KIND_TYPES: Readonly<Partial<Record<ProviderErrorKind, string>>> = {
  overloaded: "server_error",
  "rate-limited": "too_many_requests",
  "quota-exceeded": "insufficient_quota",
  "context-overflow": "invalid_request_error",
  "invalid-request": "invalid_request_error",
};

/** What an `abort` tells a client: the error that stopped the stream, else its reason. Never the provider's payload. */
export function abortError(event: AbortEvent): { code: string; message: string } {
  return event.error
    ? { code: event.error.code, message: event.error.message }
    : { code: event.reason, message: ABORT_MESSAGES[event.reason] };
}

/**
 * The `abort` a tool loop's `loop-finish` of reason `call-failed` stands for: a step's model call
 * failed before the provider answered (a 429, a refused key, the network), so the run failed as at
 * an abort, though the loop sends none (no stream of that step was there to stop). It carries the
 * step's `error` before it, which says why.
 */
export const callFailure = (error: StreamErrorInfo | undefined): AbortEvent => ({
  type: "abort",
  reason: "stream-failed",
  discarded: [],
  ...(error && { error }),
});

/**
 * Whether an `error` ends a one-response protocol's answer where it comes: the provider's own, and a
 * model call that failed (`stream-failed`: a tool loop's step whose request failed before a response,
 * which has no `abort` to carry it; a stream's comes right before its `abort`, which says the same).
 */
export const endsAnswer = (error: StreamErrorInfo): boolean =>
  error.code === "provider-error" || error.code === "stream-failed";

/** The message of a call whose arguments never completed, for protocols that can say so per call. */
export const DISCARDED_CALL_MESSAGE = "The response ended before the arguments of this call were complete.";
