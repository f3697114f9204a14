import type { Timers } from "../runtime.ts";
import { Expiries } from "./expiries.ts";
import { pumpIntoLog, type AnyEvent } from "./log-pump.ts";
import type { ResponseLogLimits } from "./log-batch.ts";
import type { LogBudget } from "./log-budget.ts";
import { ResponseLog } from "./response-log.ts";
import { loadBatchHolding } from "./response-log-reads.ts";
import type { FrameStore, LogKind, LogWriter } from "./response-log-storage.ts";
import type { RunningResponse } from "./running-response.ts";

/**
 * The lifetime of a resumable response's log in its pool object's storage: its header and first
 * expiry written together as it starts ({@link beginStoredLog}), its frames run in to the end, and
 * its expiry moved when it ran long ({@link pumpToEnd}).
 *
 * @module
 */

/**
 * How much later than `RESUME_TTL_MS` from its start a response's expiry is first set: a response
 * that ends within this time keeps it (one expiry write per response, not two), and is kept at
 * least `RESUME_TTL_MS` after its end all the same.
 */
const EXPIRY_SLACK_MS = 60_000;

/**
 * Writes response `id`'s log header and its first expiry in one commit (so a log that a restart
 * cuts is dropped too), with what `withHeader` writes (a run's request body), and moves the
 * object's alarm when this expiry is now the earliest. Returns the expiry and the alarm's promise,
 * if it moved; throws, having written nothing, when the commit fails.
 *
 * @example
 * ```ts
 * const { expiry, armed } = beginStoredLog(ctx.storage, id, writer, "stream", headers, false, settings.resumeTtlMs);
 * ```
 */
export function beginStoredLog(
  storage: DurableObjectStorage,
  id: string,
  writer: LogWriter,
  kind: LogKind,
  headers: Record<string, string>,
  replacing: boolean,
  resumeTtlMs: number,
  withHeader?: () => void,
): { expiry: number; armed: Promise<void> | undefined } {
  const expiry = Date.now() + resumeTtlMs + EXPIRY_SLACK_MS;
  const earliest = storage.transactionSync(() => {
    writer.begin(kind, headers, replacing);
    withHeader?.();
    return new Expiries(storage.kv).set(id, expiry);
  });
  return { expiry, armed: earliest ? storage.setAlarm(expiry) : undefined };
}

/** What {@link pumpToEnd} runs with. */
export interface PumpToEndOptions {
  /** The clock and the timer of the write window. */
  timers: Timers;
  /** The write window of the pump (`log-pump.ts`), 0 for arrays already grouped. */
  groupMs: number;
  /** How long a reader may hold the log full before it is cut (`DETACHED_LIMIT_MS`, `log-pump.ts`). */
  lagLimitMs: number;
  /** How long a finished log is kept (`RESUME_TTL_MS`). */
  resumeTtlMs: number;
  /** The expiry {@link beginStoredLog} set. */
  expiry: number;
  /** Called once no reader needs the log in memory any more: the object then serves it from storage. */
  release: () => void;
}

/**
 * Runs response `id`'s events into its log and storage to the end, whether or not a client is
 * attached ({@link pumpIntoLog}); then it is served from storage, and kept at least
 * `resumeTtlMs` from its end.
 *
 * @example
 * ```ts
 * ctx.waitUntil(pumpToEnd(ctx.storage, id, running, batches, writer, { timers, groupMs: 0, lagLimitMs: 120_000, resumeTtlMs, expiry, release }));
 * ```
 */
export async function pumpToEnd(
  storage: DurableObjectStorage,
  id: string,
  running: RunningResponse,
  batches: ReadableStream<readonly AnyEvent[]>,
  writer: LogWriter,
  options: PumpToEndOptions,
): Promise<void> {
  const { timers, groupMs, lagLimitMs, resumeTtlMs, expiry, release } = options;
  try {
    await pumpIntoLog(batches, running.log, writer, { timers, groupMs, lagLimitMs });
  } finally {
    running.ended();
    // From now on the log is served from storage (once the first client took its place in
    // memory); readers still attached hold it until they end.
    running.afterFirst(release);
    // Kept at least RESUME_TTL_MS from now: a longer response moves its expiry.
    const later = Date.now() + resumeTtlMs;
    if (later > expiry && new Expiries(storage.kv).set(id, later)) await storage.setAlarm(later);
  }
}

/**
 * A running response's log in memory, `writer` writing it to `store` as it runs: it holds only the
 * frames its readers have yet to read (counted against `budget`), and a reader that starts before
 * them reads the batches `writer` keeps in storage first.
 *
 * @example
 * ```ts
 * const log = storageBackedLog(limits, store, writer, isolateLogBudget(env));
 * ```
 */
export function storageBackedLog(
  limits: ResponseLogLimits,
  store: FrameStore,
  writer: LogWriter,
  budget: LogBudget,
): ResponseLog {
  const older = { first: () => writer.window().first, batchHolding: (frame: number) => loadBatchHolding(store, frame) };
  return new ResponseLog(limits, 0, { older, budget });
}
