import { formatToolCallEvent, joinDeltas } from "../../src/index.ts";
import type { LogCursor } from "./log-batch.ts";
import { interruptedEnding } from "./interrupted.ts";
import type { ResponseLog } from "./response-log.ts";
import type { LogWriter } from "./response-log-storage.ts";
import type { TimerHandle, Timers } from "../runtime.ts";

/**
 * How the frames of a resumable response move: from the events into its log and its storage
 * ({@link pumpIntoLog}), and from the log to each client ({@link logBody}).
 *
 * @module
 */

/** Any event union discriminated on `type` (stream events, run events). */
export type AnyEvent = { readonly type: string };

/** Pending events past which the pump writes without waiting for its window to close. */
const MAX_PENDING = 4096;

/** Options of {@link pumpIntoLog}. */
export interface PumpOptions {
  /** The clock and the timer that closes a write window. */
  timers: Timers;
  /**
   * The least time between two writes of the log, in milliseconds (`RESUME_WRITE_WINDOW_MS`): events
   * that come sooner after a write wait together for the window to close, so a model that
   * streams faster than one write per window costs one storage write (and one body chunk per
   * client) per window instead of one per network chunk, that is per token. An event that comes
   * later than this after the last write is written at once: the first one always, and every one
   * of a slow model. 0 writes each array as it comes (arrays already grouped by the same window,
   * the chain's `batchWindowMs`).
   */
  groupMs: number;
  /**
   * How long the log may stay full before the readers that hold it so are cut
   * (`DETACHED_LIMIT_MS`): a client that reads nothing (its socket full, its connection open)
   * holds the provider back that long at most, never the response for ever.
   */
  lagLimitMs: number;
}

/**
 * Reads the arrays of events to the end and appends them to `log` and `writer` together as SSE
 * frames, at most one write per `groupMs` (events that come within the window after a write are
 * written when it closes, or once `MAX_PENDING` wait), one frame per event of a write with
 * adjacent fragments of one call (or of text) joined, as on the plain path; so a model streaming
 * token by token costs a write, and a frame, per window, not per token, and an event waits at
 * most `groupMs`. Clients see only what was appended, hence stored, in the same synchronous step
 * (the output gate then holds the bytes until the write is durable): a restart never loses a frame
 * a client has seen; it loses the events still waiting for their window, which no client has seen.
 * A client that lags the whole log behind holds the reading back. Ends the log and its storage
 * however the reading ends; a write that throws (a storage fault) appends nothing, cancels the
 * reading and ends the log in memory with the interrupted ending (its clients are told), then is
 * thrown: the stored log stays unended, so a resume from a later instance ends it the same way,
 * with the same ids.
 *
 * @example
 * ```ts
 * ctx.waitUntil(pumpIntoLog(batches, log, writer, { timers: platformRuntime.timers, groupMs: 25, lagLimitMs: 120_000 }));
 * ```
 */
export async function pumpIntoLog(
  batches: ReadableStream<readonly AnyEvent[]>,
  log: ResponseLog,
  writer: LogWriter,
  options: PumpOptions,
): Promise<void> {
  const { timers, groupMs, lagLimitMs } = options;
  const reader = batches.getReader();
  let pending: AnyEvent[] = [];
  let lastWrite = Number.NEGATIVE_INFINITY;
  let timer: TimerHandle | undefined;
  /** A write that threw (a storage fault): the rest is not read, nor written. */
  let fault: { error: unknown } | undefined;
  const write = (): void => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0 || fault) return;
    let next = log.next;
    const frames = joinDeltas(pending).map((event) => formatToolCallEvent(event, next++));
    pending = [];
    lastWrite = timers.now();
    try {
      // Stored first: a client never reads a frame storage lacks.
      log.append(frames, (batch) => writer.append(batch));
    } catch (error) {
      // The provider is cancelled, not read on by nobody (its pending read then ends the loop).
      fault = { error };
      reader.cancel("the response's log could not be written").catch(() => undefined);
    }
  };
  try {
    for (;;) {
      if (log.full) await roomOrCut(log, timers, lagLimitMs);
      const result = await reader.read();
      if (result.done || fault) break;
      for (const event of result.value) pending.push(event);
      const wait = lastWrite + groupMs - timers.now();
      if (wait <= 0 || pending.length >= MAX_PENDING) write();
      else timer ??= timers.setTimeout(write, wait);
    }
  } finally {
    write();
    // The clients are told what a resume from storage will tell them: the interrupted ending, at
    // the same ids (no frame past the stored ones was shown). Ended in memory first: its clients'
    // bodies end even when storage fails again.
    if (fault && writer.kind) {
      let next = log.next;
      log.append(interruptedEnding(writer.kind, log.lastFrame()).map((event) => formatToolCallEvent(event, next++)));
    }
    log.finish();
    if (!fault) writer.end();
  }
  if (fault) throw fault.error;
}

/** Waits for room in `log`, at most `limitMs`; then cuts the readers that hold it full. */
async function roomOrCut(log: ResponseLog, timers: Timers, limitMs: number): Promise<void> {
  let timer: TimerHandle | undefined;
  const cut = new Promise<void>((resolve) => {
    timer = timers.setTimeout(() => {
      log.cutLaggards();
      resolve();
    }, limitMs);
  });
  await Promise.race([log.room(), cut]);
  timers.clearTimeout(timer);
}

/**
 * One client's body: the frames `cursor` reads, pulled as the client reads them, one chunk per
 * batch (a slow client holds no queue of its own). `onLeave` runs once, when the client goes
 * away or the log ends.
 *
 * @example
 * ```ts
 * return new Response(logBody(log.open(lastSeen), () => onDetach()), { headers });
 * ```
 */
export function logBody(cursor: LogCursor, onLeave: () => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let left = false;
  const leave = (): void => {
    if (left) return;
    left = true;
    cursor.close();
    onLeave();
  };
  return new ReadableStream<Uint8Array>(
    {
      start: (controller) => {
        // Cut for lagging (`ResponseLog.cutLaggards`) or by the memory bound (`log-budget.ts`): the
        // body errors now, whether or not it reads, so the connection and what it holds go at once
        // (a frame queued for a client that reads nothing would never reach it); the client resumes
        // with Last-Event-ID, from storage.
        cursor.onCut?.((reason) => {
          if (left) return;
          leave();
          controller.error(new Error(reason));
        });
      },
      pull: async (controller) => {
        const step = await cursor.read();
        if (left) return; // the client went away while this read waited
        if (step.type === "frames") return controller.enqueue(encoder.encode(step.text));
        leave();
        controller.close();
      },
      cancel: leave,
    },
    { highWaterMark: 0 },
  );
}
