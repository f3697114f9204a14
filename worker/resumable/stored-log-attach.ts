import { withHeartbeat } from "../http/heartbeat.ts";
import { HttpError } from "../response/json-error.ts";
import type { Runtime } from "../runtime.ts";
import { Expiries } from "./expiries.ts";
import { endInterruptedLog } from "./interrupted.ts";
import { logBody } from "./log-pump.ts";
import { ResponseLog } from "./response-log.ts";
import { loadResponseLog } from "./response-log-reads.ts";
import type { FrameStore } from "./response-log-storage.ts";
import type { RunningResponse } from "./running-response.ts";
import { resumeRefusal } from "./resume-point.ts";

/**
 * How a client attaches to a response's log in `response-buffer.ts`: a stored log restored (one a
 * restart cut ended here), and one client's body read from the log.
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
 * Response `id`'s stored log (finished, or cut by a restart: then ended here, once, with the
 * `interrupted` error, and that ending stored so every resume sees the same ids), or `undefined`.
 *
 * @example
 * ```ts
 * const current = restoreStoredLog(ctx, id, keyedStore(ctx.storage.kv, id), settings.resumeTtlMs);
 * ```
 */
export function restoreStoredLog(
  ctx: DurableObjectState,
  id: string,
  store: FrameStore,
  resumeTtlMs: number,
): CurrentLog | undefined {
  const stored = loadResponseLog(store);
  if (!stored) return undefined;
  const log = ResponseLog.restore(stored.meta.limits, stored.batches, stored.meta.done);
  if (!stored.meta.done) {
    const expiry = Date.now() + resumeTtlMs;
    const earliest = ctx.storage.transactionSync(() => {
      endInterruptedLog(log, stored.meta, store);
      return new Expiries(ctx.storage.kv).set(id, expiry);
    });
    if (earliest) ctx.waitUntil(ctx.storage.setAlarm(expiry));
  }
  return { log, headers: stored.meta.headers };
}

/**
 * One client's body: the frames after `lastSeen`, pulled from the log as the client reads
 * them, one chunk per batch (a slow client holds no queue of its own, and holds the provider
 * back once it lags the whole log behind). With `head`, the answer's headers alone, taking no
 * reader's place; `onLeave` runs once the client's body ends, however it ends.
 *
 * @example
 * ```ts
 * return liveLogResponse(currentLog(id), lastSeen, runtime.timers);
 * ```
 */
export function liveLogResponse(
  current: CurrentLog | undefined,
  lastSeen: number,
  timers: Runtime["timers"],
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
  return new Response(body, { headers });
}
