import { formatToolCallEvent } from "../../src/index.ts";
import { toBatch } from "./log-batch.ts";
import { loadBatchHolding, storedBatches } from "./response-log-reads.ts";
import { LogWriter, type FrameStore, type LogKind, type StoredMeta } from "./response-log-storage.ts";

/**
 * How a log cut by a restart of its Durable Object ends. The provider stream (and a run's loop)
 * lived in the lost instance and cannot be continued, so the events written before the cut are
 * served as they were, then an `error` event of code {@link INTERRUPTED} and the response's
 * normal last event: `abort` for `/v1/stream` (as when the provider connection breaks), and
 * `loop-finish` of reason `aborted` for `/v1/run`.
 *
 * @module
 */

/**
 * The `code` of the `error` event that ends an interrupted response.
 *
 * @example
 * ```ts
 * if (event.type === "error" && event.error.code === INTERRUPTED) retry();
 * ```
 */
export const INTERRUPTED = "interrupted";

/** What the `error` event of an interrupted response says. */
const INTERRUPTED_ERROR = {
  code: INTERRUPTED,
  message:
    "The response was interrupted (the Worker's Durable Object restarted) and cannot be continued; the events before this one are complete.",
} as const;

/** One of the events that end an interrupted log (a Worker event, not a library one). */
export type InterruptedEvent =
  | { type: "error"; step?: number; error: typeof INTERRUPTED_ERROR }
  | { type: "abort"; reason: "stream-failed"; discarded: []; error: typeof INTERRUPTED_ERROR }
  | { type: "loop-finish"; steps: number; reason: "aborted" };

/**
 * The events that end a log of `kind` cut after `lastFrame` (the SSE text of its last frame,
 * where a run's events carry their `step`).
 *
 * @example
 * ```ts
 * interruptedEnding("stream", undefined); // [{ type: "error", ... }, { type: "abort", ... }]
 * ```
 */
export function interruptedEnding(kind: LogKind, lastFrame: string | undefined): InterruptedEvent[] {
  if (kind === "stream")
    return [
      { type: "error", error: INTERRUPTED_ERROR },
      { type: "abort", reason: "stream-failed", discarded: [], error: INTERRUPTED_ERROR },
    ];
  const step = stepOf(lastFrame);
  return [
    { type: "error", step, error: INTERRUPTED_ERROR },
    { type: "loop-finish", steps: step, reason: "aborted" },
  ];
}

/** The step of a run's frame (1 when there is none yet). */
function stepOf(frame: string | undefined): number {
  const data = frame?.split("\n").find((line) => line.startsWith("data: "));
  if (data === undefined) return 1;
  const parsed = JSON.parse(data.slice("data: ".length)) as { step?: unknown; steps?: unknown };
  const step = typeof parsed.step === "number" ? parsed.step : parsed.steps;
  return typeof step === "number" && step >= 1 ? step : 1;
}

/**
 * Ends a log that a restart cut (`meta` its stored header), in `store`, never reading it whole:
 * its stored batches are counted one value at a time, its last frame's batch alone is read (a
 * run's ending takes its step), and the {@link interruptedEnding} is written after them with the
 * log's window, so every resume, this one's too, reads it a batch at a time with the same ids.
 * The caller runs it in a `transactionSync` with whatever must land with it.
 *
 * @example
 * ```ts
 * ctx.storage.transactionSync(() => endInterruptedLog(meta, store));
 * ```
 */
export function endInterruptedLog(meta: StoredMeta, store: FrameStore): void {
  const writer = new LogWriter(store, meta.limits);
  const batches = storedBatches(store);
  writer.resume(meta, batches);
  const last = batches.at(-1);
  const first = last ? last.first + last.frames : 0;
  const batch = last ? loadBatchHolding(store, first - 1) : undefined;
  const lastFrame = batch?.text.slice(batch.ends.length > 1 ? batch.ends[batch.ends.length - 2]! : 0);
  let next = first;
  writer.append(
    toBatch(
      first,
      interruptedEnding(meta.kind, lastFrame).map((event) => formatToolCallEvent(event, next++)),
    ),
  );
  writer.end(true);
}
