import type { ToolCall } from "../shared/events.ts";
import type { JsonValue } from "../shared/json.ts";
import type { StandardSchemaV1 } from "../shared/standard-schema.ts";
import type { ToolApprovalRequestEvent } from "./tool-events.ts";
import type { Timers } from "../shared/timers.ts";

/** What a handler is given besides the arguments. */
export interface ToolHandlerContext {
  /** Aborted when the call times out, is cancelled (`cancelCall`), the run is cancelled or the output stream is cancelled: stop work and settle. */
  signal: AbortSignal;
  /** The call being run (id, name, index, raw arguments, provider metadata). */
  call: ToolCall;
}

/**
 * What a handler gives: its result, at once or as a promise; or, from an async generator (any
 * async iterable), a result that grows: each value it yields is a `tool-result` marked
 * `preliminary` that replaces the one before, and the value it returns is the final one (the last
 * value it yielded when it returns nothing). The iterable is written out, not as
 * `AsyncIterable<JsonValue, JsonValue | void>`, because `AsyncIterable` takes one type argument
 * before TypeScript 5.6, and the package's types must compile with TypeScript 5.0.
 */
export type ToolHandlerResult =
  | JsonValue
  | Promise<JsonValue>
  | { [Symbol.asyncIterator](): AsyncIterator<JsonValue, JsonValue | void> };

/**
 * A tool the runner can run: a handler plus what a loop sends to the model about it. `Args` is
 * the type of the arguments the handler takes: `JsonValue`, or a validator's output (see
 * {@link defineTool}).
 */
export interface RunnableTool<Args = JsonValue> {
  /**
   * Runs one call with its arguments (parsed, and the validator's output when the tool has a
   * `schema`); throw a `ToolHandlerError` to tell the model why it failed. An async generator
   * streams its result ({@link ToolHandlerResult}).
   */
  run(args: Args, context: ToolHandlerContext): ToolHandlerResult;
  /**
   * A write operation: emit `tool-approval-request` and run only once the caller approves (the
   * `approve` option, or `approve(id)` on `ToolRunnerStream`; `runToolLoop` without the option ends
   * with `approval` rather than wait).
   */
  needsApproval?: boolean;
  /** Time the handler may take, in milliseconds, overriding the runner's `timeoutMs`. */
  timeoutMs?: number;
  /** What the tool does, for the model. */
  description?: string;
  /** The JSON Schema of the arguments: sent to the model by a loop, and checked before the handler runs. */
  parameters?: Record<string, unknown>;
  /**
   * The application's own validator of the arguments (any Standard Schema v1: zod 4, valibot,
   * arktype, ...): the handler runs with its output, and a call it rejects gives an
   * `invalid-arguments` error listing its issues. When it gives its JSON Schema (zod 4 does), that
   * schema is what `toolDefinitions` sends the model, unless `parameters` is given.
   */
  schema?: StandardSchemaV1;
}

/**
 * Types a tool's handler by its validator: `run` takes the validator's output type. Returns the
 * tool as given.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 *
 * const tools = {
 *   get_weather: defineTool({
 *     description: "The weather in a city.",
 *     schema: z.object({ city: z.string(), unit: z.enum(["c", "f"]).default("c") }),
 *     run: ({ city, unit }) => forecast(city, unit), // city: string, unit: "c" | "f"
 *   }),
 * };
 * ```
 */
export function defineTool<Schema extends StandardSchemaV1>(
  tool: Omit<RunnableTool<StandardSchemaV1.InferOutput<Schema>>, "schema"> & { schema: Schema },
): RunnableTool<StandardSchemaV1.InferOutput<Schema>> {
  return tool;
}

/** Options of {@link ToolRunner} and `ToolRunnerStream`. */
export interface ToolRunnerOptions {
  /** The handlers, by tool name. */
  tools: Readonly<Record<string, RunnableTool>>;
  /**
   * Most handlers running at once; further calls wait in arrival order.
   * @defaultValue 4
   */
  concurrency?: number | undefined;
  /**
   * Time a handler may take, in milliseconds, before its signal is aborted and the call gives a
   * `timeout` error (`Infinity`: no limit).
   * @defaultValue 30000
   */
  timeoutMs?: number | undefined;
  /**
   * Largest result, in UTF-8 bytes of its JSON text (of the text itself for a string): a larger one
   * is cut to fit, ends with a `[truncated ...]` marker and is flagged `truncated: true`. A computer
   * call's screenshot is no text for the model to read and is never cut: `maxScreenshotBytes` bounds it.
   * @defaultValue 16384
   */
  maxResultBytes?: number | undefined;
  /**
   * Largest screenshot an OpenAI Responses computer call's handler may return (a `data:image/` or
   * `https:` URL, `{ image_url }` or `{ file_id }`), in UTF-8 bytes of its JSON text (of the URL for
   * a string): never cut, as a cut image is no image; a larger one gives a `handler-failed` error
   * that names both sizes (`runToolLoop` then ends with `no-screenshot`).
   * @defaultValue 20971520 (`DEFAULT_MAX_SCREENSHOT_BYTES`, 20 MiB)
   */
  maxScreenshotBytes?: number | undefined;
  /**
   * Decides approval requests: a `needsApproval` tool's calls, and calls the provider raised safety
   * checks on (`request.safetyChecks`: an OpenAI Responses computer call's, for the user to
   * confirm; true confirms them). Without it the caller answers with `approve(id)` /
   * `deny(id, reason)`; `runToolLoop`, which has neither, never runs a call that asks for approval
   * then, and ends (`approval`) with the call in `loop-finish.unanswered`.
   */
  approve?: ((request: ToolApprovalRequestEvent) => boolean | Promise<boolean>) | undefined;
  /** Aborting it aborts every running handler; unfinished and later calls give a `cancelled` error. */
  signal?: AbortSignal | undefined;
  /**
   * The clock that times each run (milliseconds, e.g. `() => performance.now()`): with it, each
   * `tool-result` (preliminary ones too) and each `tool-error` of a handler that ran carries
   * `durationMs`, the time since the handler started. `runToolLoop` also times the arguments with it.
   * @defaultValue none
   */
  clock?: (() => number) | undefined;
  /**
   * Time a tool's asynchronous validator (`schema`) may take on a call's arguments, in milliseconds,
   * before the call gives a retryable `timeout` error without running (`Infinity`: no limit).
   * @defaultValue 10000 (`DEFAULT_VALIDATION_TIMEOUT_MS`)
   */
  validationTimeoutMs?: number | undefined;
  /** The timers behind the timeouts (a manual clock in tests). @defaultValue `globalThis`'s */
  timers?: Timers | undefined;
}

/** Every option of {@link ToolRunnerOptions}: typed as its keys, so that one added there and not here does not compile. */
export const RUNNER_OPTIONS: Record<keyof ToolRunnerOptions, 0> = {
  tools: 0,
  concurrency: 0,
  timeoutMs: 0,
  maxResultBytes: 0,
  maxScreenshotBytes: 0,
  approve: 0,
  signal: 0,
  clock: 0,
  validationTimeoutMs: 0,
  timers: 0,
};

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
 * Default of {@link ToolRunnerOptions.maxScreenshotBytes}: 20 MiB of URL text. OpenAI's image
 * input requirements allow up to 20 MB per image (and 50 MB of image bytes per request); a 20 MiB
 * base64 data URL holds an image of 15 MiB, within that whichever megabyte is meant, and more than
 * twice an uncompressed 1920x1080 RGB frame (6.2 MB), which a PNG of it rarely exceeds.
 * @example
 * ```ts
 * new ToolRunnerStream({ tools, maxScreenshotBytes: DEFAULT_MAX_SCREENSHOT_BYTES / 4 }); // screenshots sent as data URLs on every step
 * ```
 */
export const DEFAULT_MAX_SCREENSHOT_BYTES: number = 20 * 1024 * 1024;

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
