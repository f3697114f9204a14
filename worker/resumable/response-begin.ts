import type { Settings } from "../env.ts";
import { logUnexpected } from "../response/log-error.ts";
import type { Timers } from "../runtime.ts";
import type { LogBudget } from "./log-budget.ts";
import { beginStoredLog, pumpToEnd, storageBackedLog } from "./log-lifetime.ts";
import type { AnyEvent } from "./log-pump.ts";
import type { ResponseReaders } from "./response-readers.ts";
import { type FrameStore, type LogKind, LogWriter } from "./response-log-storage.ts";
import { RunningResponse } from "./running-response.ts";

/**
 * How a `ResponseBuffer` starts a resumable response: its provider request (or tool loop) opened
 * while its first client's place is held (`response-readers.ts`), its log begun in storage, then
 * its events pumped into the log to the end (`log-lifetime.ts`). A start that fails once its
 * provider answered gives back what it held: the kept place, and the provider request, cancelled.
 *
 * @module
 */

/** What a response's opening resolves to: its events, in batches, and the headers its clients get. */
export interface OpenedEvents {
  /** The events, an array per read (a stream's one per write window already). */
  batches: ReadableStream<readonly AnyEvent[]>;
  /** The headers every client's answer has. */
  headers: Record<string, string>;
}

/** The parts of the object a response starts in. */
export interface ResponseHost {
  /** The object's state: its storage, and `waitUntil` for the pump. */
  ctx: DurableObjectState;
  /** The responses running here, by id: the started one is added. */
  running: Map<string, RunningResponse>;
  /** The responses being opened, by id, with the controller a cancel aborts. */
  opening: Map<string, AbortController>;
  /** The places of the object's clients. */
  readers: ResponseReaders;
  /** The clock and timers of the detached limit and the write window. */
  timers: Timers;
  /** The object's settings (`RESUME_*`, `DETACHED_LIMIT_MS`). */
  settings: Settings;
  /** The memory budget of the log (read once the provider answered: `log-budget.ts`). */
  budget: () => LogBudget;
}

/** One response to start in a {@link ResponseHost}. */
export interface ResponseStart {
  /** The response id. */
  id: string;
  /** A stream's log or a run's. */
  kind: LogKind;
  /** An earlier log is stored (a run retried after a restart cut it): it is replaced. */
  replacing: boolean;
  /** Who opens it (the hash of its token): its first place is held for it. */
  client: string;
  /** The response's store (its keys in the object's storage). */
  store: FrameStore;
  /** Opens the provider request (or tool loop), which aborting `controller` stops. */
  open: (controller: AbortController) => Promise<OpenedEvents>;
  /** Written with the log's header, in its commit (a run's request body): both or neither. */
  withHeader?: () => void;
}

/**
 * Opens response `start.id` (errors before the stream are thrown, its place given back), begins
 * its log in storage, and runs its events into the log, which its clients read. Should anything
 * throw once it opened (its log's header not written: a storage fault), the place kept for its
 * first client is given back and its provider request cancelled before the error is thrown: a
 * response nobody can read holds nothing.
 *
 * @example
 * ```ts
 * await beginResponse(host, { id, kind: "stream", replacing: false, client, store, open: (c) => openEventBatches(request, context, c.signal) });
 * ```
 */
export async function beginResponse(host: ResponseHost, start: ResponseStart): Promise<void> {
  const { id, client, open } = start;
  const upstream = new AbortController();
  host.opening.set(id, upstream);
  // Refused before its provider is called if its first client would find no place; the place
  // held is kept through to that client's attach (`response-readers.ts`).
  const opened = await host.readers
    .whileOpening(id, client, () => open(upstream))
    .finally(() => host.opening.delete(id));
  try {
    run(host, start, upstream, opened);
  } catch (error) {
    host.readers.forgo(id);
    // Cancelled first, so the cancel reaches the provider's body before the abort errors the chain.
    const reason = "the response could not start";
    host.ctx.waitUntil(opened.batches.cancel(reason).catch(() => undefined));
    upstream.abort(reason);
    throw error;
  }
}

/**
 * Begins the log of an opened response, then runs its events into it. Whatever can throw (a storage
 * write) comes before the response is running, so that one that throws leaves nothing running.
 */
function run(host: ResponseHost, start: ResponseStart, upstream: AbortController, opened: OpenedEvents): void {
  const { id, kind, replacing, store, withHeader } = start;
  const { batches, headers } = opened;
  const { detachedLimitMs, resumeTtlMs, resumeWriteWindowMs, resumeMaxEvents, resumeMaxBytes } = host.settings;
  const limits = { maxFrames: resumeMaxEvents, maxBytes: resumeMaxBytes };
  const writer = new LogWriter(store, limits);
  // What its readers have yet to read, in memory; the rest from storage (`log-budget.ts`).
  const log = storageBackedLog(limits, store, writer, host.budget());
  const storage = host.ctx.storage;
  const begun = beginStoredLog(storage, id, writer, kind, headers, replacing, resumeTtlMs, withHeader);
  const running = new RunningResponse(log, headers, upstream, host.timers, detachedLimitMs);
  host.running.set(id, running);
  // A stream's arrays come one per write window already (the chain's own); a run's (every loop
  // event ready) are grouped by the pump's own window.
  const groupMs = kind === "stream" ? 0 : resumeWriteWindowMs;
  const release = (): void => {
    host.readers.forgo(id); // its first client's place, if it never came (`response-readers.ts`)
    if (host.running.get(id) === running) host.running.delete(id);
  };
  // A client that reads nothing holds the log full for the detached limit at most (`log-pump.ts`).
  const lagLimitMs = detachedLimitMs;
  const { expiry, armed } = begun;
  const options = { timers: host.timers, groupMs, lagLimitMs, resumeTtlMs, expiry, release };
  // A write that failed mid-response (`log-pump.ts`) is the operator's to see, not an uncaught rejection.
  const pumped = pumpToEnd(storage, id, running, batches, writer, options).catch((error: unknown) =>
    logUnexpected(error, "writing a resumable response's log"),
  );
  host.ctx.waitUntil(pumped.finally(() => armed));
}
