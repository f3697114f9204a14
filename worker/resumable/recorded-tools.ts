import {
  ToolHandlerError,
  type JsonValue,
  type RunnableTool,
  type ToolHandlerContext,
  type ToolHandlerResult,
} from "../../src/index.ts";
import type { FrameStore } from "./response-log-storage.ts";

/**
 * At-most-once tool execution for a resumable run: each call's outcome is recorded in the run's
 * Durable Object storage under its call id, and a call id seen before is never run again.
 *
 * A run is retried (`POST /v1/run` with the `x-response-id` of a run a restart cut) by running
 * the loop again from the start; the model makes the same calls (the scripted model does, a live
 * one may not), and each one already run answers from its record. A call whose handler was
 * running when the object was cut has a `started` record and no result: it is not run again
 * (its side effects may have happened) and the model reads a `ToolHandlerError` saying so.
 * Records are written before and after the handler with the synchronous KV API (no await),
 * and deleted with the rest of the run's storage by the expiry alarm. A call without an id
 * (a provider that gives none) cannot be told from another and is run as it comes.
 *
 * @module
 */

/** A call's record. */
type ToolRecord =
  | { state: "started" }
  | { state: "done"; result: JsonValue }
  | { state: "failed"; message: string; retryable: boolean; handler: boolean };

const recordKey = (callId: string): string => `tool:${callId}`;

/** The generic message of a handler failure that was not a `ToolHandlerError` (the runner's own words stay its own). */
const FAILED = "The tool failed.";

/**
 * `tools` with each handler run at most once per call id in `store`; a repeated call id answers
 * from the record.
 *
 * @example
 * ```ts
 * const tools = recordedTools(demoTools(), keyedStore(ctx.storage.kv, id));
 * ```
 */
export function recordedTools(
  tools: Readonly<Record<string, RunnableTool>>,
  store: FrameStore,
): Record<string, RunnableTool> {
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => [
      name,
      { ...tool, run: (args: JsonValue, context: ToolHandlerContext) => runOnce(tool, args, context, store) },
    ]),
  );
}

function runOnce(
  tool: RunnableTool,
  args: JsonValue,
  context: ToolHandlerContext,
  store: FrameStore,
): ToolHandlerResult {
  // A call without an id (a provider that gives none) cannot be told from another: run as is.
  if (context.call.id === null) return tool.run(args, context);
  const key = recordKey(context.call.id);
  const seen = store.get(key) as ToolRecord | undefined;
  if (seen) return replay(seen);
  store.put(key, { state: "started" } satisfies ToolRecord);
  let result: ToolHandlerResult;
  try {
    result = tool.run(args, context);
  } catch (error) {
    throw recordFailure(store, key, error, context.signal);
  }
  if (isAsyncIterable(result)) return recordStream(result, store, key, context.signal);
  return Promise.resolve(result).then(
    (value) => {
      store.put(key, { state: "done", result: value } satisfies ToolRecord);
      return value;
    },
    (error: unknown) => {
      throw recordFailure(store, key, error, context.signal);
    },
  );
}

function replay(record: ToolRecord): JsonValue {
  if (record.state === "done") return record.result;
  if (record.state === "failed")
    throw record.handler ? new ToolHandlerError(record.message, { retryable: record.retryable }) : new Error(FAILED);
  throw new ToolHandlerError(
    "This call was running when the run was interrupted; it is not run twice, and its result is unknown.",
  );
}

/** Records how a handler failed, and returns what to throw (the same error). */
function recordFailure(store: FrameStore, key: string, error: unknown, signal: AbortSignal): unknown {
  // A call stopped by its signal (timeout, cancel) has no result: it stays `started`, never run again.
  if (signal.aborted) return error;
  if (isHandlerError(error))
    store.put(key, {
      state: "failed",
      message: error.message,
      retryable: error.retryable,
      handler: true,
    } satisfies ToolRecord);
  else store.put(key, { state: "failed", message: FAILED, retryable: false, handler: false } satisfies ToolRecord);
  return error;
}

/**
 * Whether a handler failed with a `ToolHandlerError`, as the library's runner reads it (its
 * `isInstance`): false for a value whose prototype cannot be read (a revoked Proxy), which would
 * otherwise throw here in place of the failure and leave the call recorded as still running.
 */
function isHandlerError(error: unknown): error is ToolHandlerError {
  try {
    return error instanceof ToolHandlerError;
  } catch {
    return false;
  }
}

/** A streamed result passed through as it grows; its final value is what is recorded. */
async function* recordStream(
  result: AsyncIterable<JsonValue, JsonValue | void>,
  store: FrameStore,
  key: string,
  signal: AbortSignal,
): AsyncGenerator<JsonValue, JsonValue | void> {
  const iterator = result[Symbol.asyncIterator]();
  let last: JsonValue | undefined;
  try {
    for (let step = await iterator.next(); ; step = await iterator.next()) {
      if (step.done) {
        const final = step.value === undefined ? last : step.value;
        if (final !== undefined) store.put(key, { state: "done", result: final } satisfies ToolRecord);
        return step.value;
      }
      last = step.value;
      yield step.value;
    }
  } catch (error) {
    throw recordFailure(store, key, error, signal);
  } finally {
    await iterator.return?.();
  }
}

function isAsyncIterable(value: ToolHandlerResult): value is AsyncIterable<JsonValue, JsonValue | void> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}
