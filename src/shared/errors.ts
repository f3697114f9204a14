/**
 * Errors of every stage: the codes, the plain description carried by `error`, `abort` and
 * `invalid-tool-call` events, and the one error class a stage throws or errors a stream with.
 *
 * @module
 */

/** Machine-readable error codes of tool-call-stream. */
export type ErrorCode =
  /**
   * The provider sent an error inside the stream (an `error` event or an `error` member), or an
   * Anthropic body spliced another message into the open one (a retry written into the same body).
   */
  | "provider-error"
  /** A data payload that is not valid JSON, or not of the provider's shape. */
  | "malformed-payload"
  /**
   * One content block the model made failed, and only it is left out: every payload was read and
   * the turn goes on (Bedrock Converse's image: an `error` on its delta, the provider's ErrorBlock
   * on `data`, or bytes that are not base64).
   */
  | "block-failed"
  /**
   * The body ended in the middle of a final event whose payload is incomplete (in-band for the
   * text framings; for the AWS event stream, whose frames cannot be read in part, the error that
   * ends the stream).
   */
  | "truncated-event"
  /** The upstream answered with a non-2xx HTTP status. */
  | "http-error"
  /** The input stream failed (network error, or an upstream stage errored), or the input is no stream (an SDK's whole answer). */
  | "stream-failed"
  /** One SSE event or line, NDJSON line, JSON array element or event-stream message exceeded `maxEventLength`. */
  | "event-too-large"
  /**
   * Bytes a framing cannot read, which end the stream: an AWS event-stream checksum that does not
   * match, a length that is impossible, a header that runs past its section; a JSON array with
   * anything but white space and exactly one comma between two elements.
   */
  | "malformed-frame"
  /** One call's arguments exceeded `maxArgumentsLength`. */
  | "arguments-too-large"
  /** More calls than `maxToolCalls` in one response (or more reasoning parts, approval requests or citations, each counted apart against it). */
  | "too-many-tool-calls"
  /** Tool arguments that are not valid JSON. */
  | "invalid-json"
  /** A call that completed without a function name. */
  | "missing-name"
  /**
   * A free-text call's input (OpenAI Responses' `custom_tool_call`) still open when the provider
   * stopped for its token limit, a content filter or an error: it may end anywhere, so it is not a
   * call to run (a JSON value cut short is `invalid-json`).
   */
  | "truncated-input"
  /**
   * A call the provider withdrew (Anthropic: the `tool_use` right before a `fallback` block, which
   * the refusal that led to the fallback may have cut off): never run it, never answer it.
   */
  | "withdrawn"
  /**
   * The provider could not be told from the option or the first event, or the input needs a
   * plug-in that was not given (Bedrock's `invokeModel`, OpenAI Responses' `builtInCalls`, an SDK's
   * chunks' `sdkChunks`, the `framing` of a JSON body where Server-Sent Events are read): the
   * message names it. From the main entry's `streamToolCalls`, also a body that is not of the
   * provider named (the message names the one its events look like) or no stream at all (an HTML
   * page answered with `200`).
   */
  | "unknown-provider"
  /**
   * A provider's final arguments text (OpenAI Responses' `.done`, a whole object sent again) that
   * is another value than the fragments it streamed, which the early check read and a client was
   * shown: the call is not run. `position` is where the two texts first differ, `data` the final text.
   */
  | "arguments-mismatch"
  /** A `sequence_number` never arrived within the reorder window (Responses API). */
  | "sequence-gap"
  /** Tool arguments that continue after a complete JSON value. */
  | "trailing-data"
  /**
   * Tool arguments with a member name longer than 16,383 characters (`MAX_MEMBER_NAME_LENGTH`),
   * never parsed: V8 would keep each such name interned, and many of one length cost every parse
   * after them more (`position` is where the name opens; the raw text is kept).
   */
  | "long-member-name"
  /**
   * Tool arguments nested deeper than `maxDepth`; or, as an in-band `error` of the main entry's
   * `streamToolCalls`, a part kept for the next turn (a reasoning or block part, a call's
   * `providerMetadata`, an approval request) or a provider's object an event carries (an error's
   * `data`, the usage's `raw`, the finish's `container`) that was, and is dropped.
   */
  | "too-deep"
  /** A snapshot of another format version, or restored into an accumulator whose state is no longer new. */
  | "invalid-snapshot"
  /** Tool arguments that do not match the tool's schema, or a name that is not a tool (`issues` says why). */
  | "schema-mismatch"
  /** A tool's own asynchronous validator did not settle within `validationTimeoutMs`. */
  | "validation-timeout"
  /**
   * A call's schema checks ran out of their work budget (a constant plus a multiple of the
   * length of its arguments, see `CheckBudget`): its arguments could not be checked, so the call
   * is not delivered as valid. A schema or arguments built to be costly; `issues` says so.
   */
  | "validation-budget-exceeded"
  /** The response's text and reasoning exceeded `maxTextLength` (an encoder's answer; the main entry's `streamToolCalls`, the turn it holds). */
  | "text-too-large"
  /** A request a provider cannot be sent as it is (`path` names the field): a kit's `requestBody`. */
  | "invalid-request"
  /**
   * The provider made no event for the application's idle timeout (keep-alives, which make none,
   * do not count); the application ended the stream (the Worker's `IDLE_TIMEOUT_MS`).
   */
  | "idle-timeout"
  /** The response ran past the application's overall deadline (the Worker's `MAX_RESPONSE_MS`). */
  | "deadline-exceeded";

/**
 * What a provider's in-stream failure (`provider-error`) is, as a client acts on it: `overloaded`
 * (retry after a pause), `rate-limited` (slow down, then retry), `quota-exceeded` (the account's
 * quota or billing: waiting does not cure it, so never retry), `context-overflow` (shorten or
 * compact the conversation), `invalid-request` (the provider refused the request itself: sent again
 * unchanged, it fails again), `other`. The library's decoders never set it; an application that
 * classifies the provider's payload does (the Worker does), and each encoder writes it in its
 * protocol's own terms (Anthropic's `overloaded_error`, OpenAI's `insufficient_quota`, ...).
 * Without it, the encoders read only the name an Anthropic or OpenAI payload gives itself (see
 * {@link failureKind}).
 */
export type ProviderErrorKind =
  | "overloaded"
  | "rate-limited"
  | "quota-exceeded"
  | "context-overflow"
  | "invalid-request"
  | "other";

/** Anthropic's and OpenAI's own names of the failures a client acts on. */
const OWN_KINDS = new Map<unknown, ProviderErrorKind>([
  ["overloaded_error", "overloaded"],
  ["server_is_overloaded", "overloaded"],
  ["rate_limit_error", "rate-limited"],
  ["rate_limit_exceeded", "rate-limited"],
  ["insufficient_quota", "quota-exceeded"],
  ["billing_error", "quota-exceeded"],
  ["context_length_exceeded", "context-overflow"],
  ["invalid_prompt", "invalid-request"],
]);

/**
 * A provider failure's kind, as the encoders write it: the application's `kind`, else the name an
 * Anthropic or OpenAI payload on `data` gives itself (`error.type`, `error.code` or `code`:
 * `overloaded_error`, `rate_limit_exceeded`, `insufficient_quota`, ...), so that a provider
 * piped into its own protocol keeps the error its clients act on. Nothing else of the payload is read.
 *
 * @example
 * ```ts
 * failureKind({ data: { type: "error", error: { type: "overloaded_error" } } }); // "overloaded"
 * ```
 */
export function failureKind(error: { kind?: ProviderErrorKind; data?: unknown }): ProviderErrorKind | undefined {
  const data = error.data as { code?: unknown; error?: { type?: unknown; code?: unknown } } | null | undefined;
  return (
    error.kind ?? OWN_KINDS.get(data?.error?.type) ?? OWN_KINDS.get(data?.error?.code) ?? OWN_KINDS.get(data?.code)
  );
}

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
  /** The provider's error payload, verbatim (for `provider-error`); its final arguments text (for `arguments-mismatch`). */
  data?: unknown;
  /** What a `provider-error` is, where the application classified it (see {@link ProviderErrorKind}). */
  kind?: ProviderErrorKind;
  /** HTTP status (for `http-error`). */
  status?: number;
  /** Character offset in the raw arguments where parsing failed (for `invalid-json`), or where the final text first differs (for `arguments-mismatch`). */
  position?: number;
  /** Readable reasons (for `schema-mismatch` and `validation-budget-exceeded`). */
  issues?: string[];
  /**
   * Where: in the arguments, as a JSON Pointer (for a `schema-mismatch` found while they
   * streamed), or the request's field, as `messages[2].tool_call_id` (for `invalid-request`).
   */
  path?: string;
}

/**
 * The one error class tool-call-stream throws or errors a stream with. Switch on `code`.
 * Messages never embed model output or prompts; the raw data, where useful, is on `info.data`.
 *
 * @example
 * ```ts
 * try {
 *   for await (const event of streamToolCalls(response)) console.log(event);
 * } catch (error) {
 *   if (error instanceof ToolCallStreamError && error.code === "unknown-provider") retryWith("openai");
 * }
 * ```
 */
export class ToolCallStreamError extends Error {
  // Declared, not emitted as class fields: the constructor defines them, in this order (fewer bytes in every bundle).
  /** What went wrong. */
  declare readonly code: ErrorCode;
  /** The same error as a plain, serializable object. */
  declare readonly info: StreamErrorInfo;

  /** Wraps a {@link StreamErrorInfo}. */
  constructor(info: StreamErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options);
    this.code = info.code;
    this.info = info;
    this.name = "ToolCallStreamError";
  }
}

/**
 * `value instanceof type`, false where `value`'s prototype cannot be read (a revoked Proxy, a
 * Proxy whose `getPrototypeOf` trap throws): what a body, an SDK or a handler fails with may be
 * any value, and asking what it is must not throw in place of the fault it reports.
 *
 * @example
 * ```ts
 * const info = isInstance(error, ToolCallStreamError) ? error.info : fallback;
 * ```
 */
export function isInstance<T>(value: unknown, type: abstract new (...args: never[]) => T): value is T {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/** Turns anything a stream failed with into a {@link StreamErrorInfo} without leaking internals. */
export function toErrorInfo(error: unknown): StreamErrorInfo {
  if (isInstance(error, ToolCallStreamError)) return error.info;
  return { code: "stream-failed", message: "The input stream failed before the response finished." };
}

/**
 * The count of what a decoder's plug-in keeps beside the calls (citations, annotations), bounded as
 * the accumulator bounds calls: each call adds `added`; past `max` (the accumulator's
 * `maxToolCalls`, 1024 by default), it throws a `ToolCallStreamError` of code `too-many-tool-calls`
 * naming `what`.
 *
 * @example
 * ```ts
 * const count = keptCounter("citations", limits.maxToolCalls);
 * count(1); // throws once more than maxToolCalls were counted
 * ```
 */
export function keptCounter(what: string, max = 1024): (added: number) => void {
  let count = 0;
  return (added) => {
    if ((count += added) > max)
      throw new ToolCallStreamError({
        code: "too-many-tool-calls",
        message: `The response has more ${what} than the limit of ${max} (maxToolCalls) allows.`,
      });
  };
}

/**
 * The count of the characters a decoder holds until their end that no delta carries (a refusal,
 * which goes out whole as a `field` part), bounded as the main entry bounds the turn's text: each
 * call adds `added`; past `max` (`maxTextLength`, `DEFAULT_MAX_TEXT_LENGTH` by default), it throws
 * a `ToolCallStreamError` of code `text-too-large` naming `what`, which ends the stream with an
 * `error` and an `abort` (`limit-exceeded`), every delta before it given.
 *
 * @example
 * ```ts
 * const held = heldCounter("refusal", limits.maxTextLength);
 * held(delta.length); // throws once more than maxTextLength characters were counted
 * ```
 */
export function heldCounter(what: string, max = 4194304): (added: number) => void {
  let count = 0;
  return (added) => {
    if ((count += added) > max)
      throw new ToolCallStreamError({
        code: "text-too-large",
        message: `The ${what} held exceeded the limit of ${max} characters (maxTextLength).`,
      });
  };
}
