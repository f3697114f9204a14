import { isInstance } from "../shared/errors.ts";
import type { JsonValue } from "../shared/json.ts";
import { ToolHandlerError, type ToolHandlerResult } from "./runnable-tool.ts";
import type { ToolErrorInfo } from "./tool-events.ts";
import { fitResult, toolErrorInfo } from "./tool-outcome.ts";

/**
 * Running one handler, free of the runner's bookkeeping: a plain result (or a promise of one),
 * or a result streamed by an async generator, each value held to the size cap. Used by `ToolRunner`.
 *
 * @module
 */

/** What a handler gave: a result (cut to the cap), or the error the model reads. */
export type HandlerOutcome =
  | { type: "tool-result"; result: JsonValue; truncated?: true }
  | { type: "tool-error"; error: ToolErrorInfo };

/** What a handler's values are held to: `maxBytes` of text, and for a computer call `maxScreenshotBytes` of screenshot (never cut). */
export type ResultLimits = { maxBytes: number; maxScreenshotBytes?: number | undefined };

/**
 * While the consumer has no room for another event, a promise that settles once it has; else
 * `undefined`. A streaming handler is pulled for its next value only when there is room.
 */
export type Room = () => Promise<void> | undefined;

/**
 * Runs a handler and reports what it gives: `report(outcome, true)` for each value an async
 * iterable yields (a result so far), then `report(outcome, false)` once, for the final result or
 * the failure. After each value, the next is pulled only once `room` allows (backpressure: a
 * generator never runs ahead of a slow reader). Returns a function that stops a streaming
 * handler (its iterator's `return()`, so that its `finally` blocks run); nothing is reported after it.
 */
export function runHandler(
  run: () => ToolHandlerResult,
  limits: ResultLimits,
  report: (outcome: HandlerOutcome, preliminary: boolean) => void,
  room?: Room,
): () => void {
  let given: ToolHandlerResult;
  try {
    given = run();
  } catch (error) {
    report(failure(error), false);
    return () => {};
  }
  if (isAsyncIterable(given)) return iterate(given[Symbol.asyncIterator](), limits, report, room);
  Promise.resolve(given).then(
    (result) => report(fit(result, limits), false),
    (error: unknown) => report(failure(error), false),
  );
  return () => {};
}

/** Reads a streaming handler: each value replaces the one before; the returned value (else the last yielded) is final. */
function iterate(
  iterator: AsyncIterator<JsonValue, JsonValue | void>,
  limits: ResultLimits,
  report: (outcome: HandlerOutcome, preliminary: boolean) => void,
  room: Room | undefined,
): () => void {
  let stopped = false;
  let last: { value: JsonValue } | undefined;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    // The handler's signal is aborted too; what `return()` settles with no longer matters.
    Promise.resolve()
      .then(() => iterator.return?.())
      .catch(() => undefined);
  };
  const end = (outcome: HandlerOutcome): void => {
    if (stopped) return;
    stop();
    report(outcome, false);
  };
  const step = (): void => {
    let next: Promise<IteratorResult<JsonValue, JsonValue | void>>;
    try {
      next = Promise.resolve(iterator.next());
    } catch (error) {
      return end(failure(error));
    }
    next.then(
      (item) => {
        if (stopped) return;
        if (item.done) return end(fit(item.value === undefined && last ? last.value : item.value, limits));
        last = { value: item.value };
        const outcome = fit(item.value, limits);
        if (outcome.type === "tool-error") return end(outcome);
        report(outcome, true);
        const wait = room?.();
        if (wait)
          wait.then(
            () => stopped || step(),
            () => undefined,
          );
        else step();
      },
      (error: unknown) => end(failure(error)),
    );
  };
  step();
  return stop;
}

function fit(value: unknown, limits: ResultLimits): HandlerOutcome {
  const outcome = fitResult(value, limits.maxBytes, limits.maxScreenshotBytes);
  return "error" in outcome ? { type: "tool-error", error: outcome.error } : { type: "tool-result", ...outcome };
}

function failure(error: unknown): HandlerOutcome {
  if (isInstance(error, ToolHandlerError))
    return {
      type: "tool-error",
      error: { code: "handler-failed", message: error.message, retryable: error.retryable },
    };
  return { type: "tool-error", error: toolErrorInfo("handler-failed") };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<JsonValue, JsonValue | void> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}
