import { withHeartbeat } from "../http/heartbeat.ts";
import { nativeBody } from "../http/native-body.ts";
import { HttpError } from "../response/json-error.ts";
import type { Runtime } from "../runtime.ts";
import { Expiries } from "./expiries.ts";
import { endInterruptedLog } from "./interrupted.ts";
import { logBody } from "./log-pump.ts";
import type { ResponseLog } from "./response-log.ts";
import { storedBatches } from "./response-log-reads.ts";
import { type FrameStore, loadMeta, LogWriter } from "./response-log-storage.ts";
import type { RunningResponse } from "./running-response.ts";
import { resumeRefusal } from "./resume-point.ts";

/**
 * How a client attaches to a response's log in `response-buffer.ts`: a stored log given its window
 * (one a restart cut ended here), and one client's body read from the log.
 *
 * @module
 */

/** A response's log as a client reads it: its headers, and the running response when it runs here. */
export interface CurrentLog {
  log: ResponseLog;
  headers: Record<string, string>;
  running?: RunningResponse;
}

/**
 * The 404 of a response id that is neither in flight nor recent.
 *
 * @example
 * ```ts
 * if (!current) throw UNKNOWN();
 * ```
 */
export const UNKNOWN = (): HttpError =>
  new HttpError(404, { code: "unknown_response", message: "No response with this id is in flight or recent." });

/**
 * Gives response `id`'s stored log the window a resume reads it by, a batch at a time
 * (`stored-cursor.ts`): one cut by a restart is ended here, once, with the `interrupted` error
 * (that ending stored, so every resume sees the same ids); one an older Worker finished without
 * its window gets it. Neither is read whole: their batches are counted a stored value at a time.
 * False when no log is stored.
 *
 * @example
 * ```ts
 * if (restoreStoredLog(ctx, id, keyedStore(ctx.storage.kv, id), settings.resumeTtlMs)) return storedLogResponse(store, lastSeen, runtime);
 * ```
 */
export function restoreStoredLog(ctx: DurableObjectState, id: string, store: FrameStore, resumeTtlMs: number): boolean {
  const meta = loadMeta(store);
  if (!meta) return false;
  if (meta.done && meta.window) return true;
  if (meta.done) {
    const writer = new LogWriter(store, meta.limits);
    ctx.storage.transactionSync(() => {
      writer.resume(meta, storedBatches(store));
      writer.end(meta.interrupted === true);
    });
    return true;
  }
  const expiry = Date.now() + resumeTtlMs;
  const earliest = ctx.storage.transactionSync(() => {
    endInterruptedLog(meta, store);
    return new Expiries(ctx.storage.kv).set(id, expiry);
  });
  if (earliest) ctx.waitUntil(ctx.storage.setAlarm(expiry));
  return true;
}

/**
 * One client's body: the frames after `lastSeen`, pulled from the log as the client reads
 * them, one chunk per batch (a slow client holds no queue of its own, and holds the provider
 * back once it lags the whole log behind). With `head`, the answer's headers alone, taking no
 * reader's place; `onLeave` runs once the client's body ends, however it ends, or `signal` (the
 * attaching request's) says the client left.
 *
 * @example
 * ```ts
 * return liveLogResponse(currentLog(id), lastSeen, runtime.timers, request.signal);
 * ```
 */
export function liveLogResponse(
  current: CurrentLog | undefined,
  lastSeen: number,
  timers: Runtime["timers"],
  signal: AbortSignal,
  head = false,
  onLeave: () => void = () => {},
): Response {
  if (!current) throw UNKNOWN();
  const { log, headers, running } = current;
  const refused = resumeRefusal(lastSeen, log.first, log.next);
  if (refused) throw refused;
  // A HEAD takes no reader's place: not the first client's, nor the detached limit's reset.
  if (head) return new Response(null, { headers });
  // The heartbeat finds a client that vanished while nothing is written (keep-alives upstream).
  const body = withHeartbeat(
    logBody(running ? running.reader(lastSeen) : log.open(lastSeen), () => {
      onLeave();
      running?.left();
    }),
    timers,
  );
  // Native, so a client cut for lagging fails its connection without an uncaught exception.
  return new Response(nativeBody(body, signal), { headers });
}
