import type { ToolCall } from "../shared/events.ts";
import type { JsonValue } from "../shared/json.ts";
import type { ToolApprovalRequestEvent } from "./tool-events.ts";

/** What a handler is given besides the arguments. */
export interface ToolHandlerContext {
  /** Aborted when the call times out, the run is cancelled or the output stream is cancelled: stop work and settle. */
  signal: AbortSignal;
  /** The call being run (id, name, index, raw arguments, provider metadata). */
  call: ToolCall;
}

/** A tool the runner can run: a handler plus what a loop sends to the model about it. */
export interface RunnableTool {
  /** Runs one call with its parsed arguments; throw a `ToolHandlerError` to tell the model why it failed. */
  run(args: JsonValue, context: ToolHandlerContext): JsonValue | Promise<JsonValue>;
  /** A write operation: emit `tool-approval-request` and run only once the caller approves. */
  needsApproval?: boolean;
  /** Time the handler may take, overriding the runner's `timeoutMs`. */
  timeoutMs?: number;
  /** What the tool does, for the model. */
  description?: string;
  /** The JSON Schema of the arguments: sent to the model by a loop, and checked before the handler runs. */
  parameters?: Record<string, unknown>;
}

/** Options of {@link ToolRunner} and `ToolRunnerStream`. */
export interface ToolRunnerOptions {
  /** The handlers, by tool name. */
  tools: Readonly<Record<string, RunnableTool>>;
  /**
   * Most handlers running at once; further calls wait in arrival order.
   * @defaultValue 4
   */
  concurrency?: number;
  /**
   * Time a handler may take before its signal is aborted and the call gives a `timeout` error
   * (`Infinity`: no limit).
   * @defaultValue 30000
   */
  timeoutMs?: number;
  /**
   * Largest result, in UTF-8 bytes of its JSON text (of the text itself for a string): a larger one
   * is cut to fit, ends with a `[truncated ...]` marker and is flagged `truncated: true`.
   * @defaultValue 16384
   */
  maxResultBytes?: number;
  /** Decides approval requests; without it the caller answers with `approve(id)` / `deny(id, reason)`. */
  approve?: (request: ToolApprovalRequestEvent) => boolean | Promise<boolean>;
  /** Aborting it aborts every running handler; unfinished and later calls give a `cancelled` error. */
  signal?: AbortSignal;
  /** The timer behind timeouts (injected in tests). @defaultValue `globalThis.setTimeout` */
  setTimeout?: (callback: () => void, ms: number) => unknown;
  /** Clears a timer made by `setTimeout`. @defaultValue `globalThis.clearTimeout` */
  clearTimeout?: (handle: unknown) => void;
}

/**
 * Default of {@link ToolRunnerOptions.concurrency}.
 * @example
 * ```ts
 * new ToolRunnerStream({ tools, concurrency: DEFAULT_TOOL_CONCURRENCY * 2 });
 * ```
 */
export const DEFAULT_TOOL_CONCURRENCY: number = 4;
/**
 * Default of {@link ToolRunnerOptions.timeoutMs}.
 * @example
 * ```ts
 * const tools = { slow_search: { run: search, timeoutMs: DEFAULT_TOOL_TIMEOUT_MS * 2 } };
 * ```
 */
export const DEFAULT_TOOL_TIMEOUT_MS: number = 30_000;
/**
 * Default of {@link ToolRunnerOptions.maxResultBytes}.
 * @example
 * ```ts
 * new ToolRunnerStream({ tools, maxResultBytes: DEFAULT_MAX_RESULT_BYTES / 4 }); // a model with a small context
 * ```
 */
export const DEFAULT_MAX_RESULT_BYTES: number = 16_384;

/**
 * Throw it from a handler to tell the model why the call failed: its message (and `retryable`)
 * go into the `tool-error`. Any other thrown value gives a generic message, so internal error text
 * (paths, queries, stack traces) never reaches the model or a client.
 *
 * @example
 * ```ts
 * const tools = { get_weather: { run: ({ city }) => { if (!known(city)) throw new ToolHandlerError("Unknown city; pass a city name such as \"Paris\"."); return lookup(city); } } };
 * ```
 */
export class ToolHandlerError extends Error {
  /** The same call may succeed if it is made again. */
  readonly retryable: boolean;

  /** A failure the model may read. */
  constructor(message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "ToolHandlerError";
    this.retryable = options.retryable ?? false;
  }
}
