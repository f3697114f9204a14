import { withHeartbeat } from "../http/heartbeat.ts";
import { nativeBody } from "../http/native-body.ts";
import type { Runtime } from "../runtime.ts";
import { logBody } from "./log-pump.ts";
import type { LogCursor } from "./log-batch.ts";
import { loadBatchHolding } from "./response-log-reads.ts";
import { type FrameStore, loadMeta } from "./response-log-storage.ts";
import { resumeRefusal } from "./resume-point.ts";

/**
 * A resume of a finished response, served from storage from where the client is: the batch that
 * holds the frame after `Last-Event-ID`, then the next batch at each read of the client, never the
 * whole log. A resume that sends nothing reads the header alone, and one that sends the last
 * frames reads their batch alone, whatever the log weighs; a slow client reads no further than it
 * takes, and a client that leaves reads nothing more. The log's window (its oldest kept frame and
 * the end), written in its header when it finished, answers 410 without reading a batch.
 *
 * `undefined` when the log is not one to serve this way: not stored, still running elsewhere, cut
 * by a restart and not yet ended (its first resume ends it, from the whole log, and writes its
 * window) or written by an older Worker without its window.
 *
 * @example
 * ```ts
 * const stored = storedLogCursor(keyedStore(ctx.storage.kv, id), lastSeen);
 * if (stored) return new Response(logBody(stored.cursor, () => {}), { headers: stored.headers });
 * ```
 */
export function storedLogCursor(
  store: FrameStore,
  lastSeen: number,
): { cursor: LogCursor; headers: Record<string, string> } | undefined {
  const meta = loadMeta(store);
  if (!meta?.done || !meta.window) return undefined;
  const { first, next: end } = meta.window;
  const refused = resumeRefusal(lastSeen, first, end);
  if (refused) throw refused;
  let next = lastSeen + 1;
  let closed = false;
  const cursor: LogCursor = {
    read: async () => {
      if (closed || next >= end) return { type: "end" };
      const batch = loadBatchHolding(store, next);
      if (!batch) return { type: "end" }; // expired meanwhile: the alarm deleted it
      const skipped = next - batch.first;
      next = batch.first + batch.ends.length;
      return { type: "frames", text: skipped === 0 ? batch.text : batch.text.slice(batch.ends[skipped - 1]) };
    },
    close: () => {
      closed = true;
    },
  };
  return { cursor, headers: meta.headers };
}

/**
 * The answer to a resume of a finished log ({@link storedLogCursor}), with the heartbeat of every
 * streamed answer, native like a live log's ({@link nativeBody}); `undefined` when the log is not
 * one to serve this way. `onLeave` runs once the client's body ends, or `signal` (the attaching
 * request's) says the client left.
 *
 * @example
 * ```ts
 * const stored = storedLogResponse(keyedStore(ctx.storage.kv, id), lastSeen, runtime, request.signal);
 * if (stored) return stored;
 * ```
 */
export function storedLogResponse(
  store: FrameStore,
  lastSeen: number,
  runtime: Runtime,
  signal: AbortSignal,
  onLeave: () => void = () => {},
): Response | undefined {
  const stored = storedLogCursor(store, lastSeen);
  if (!stored) return undefined;
  const body = withHeartbeat(logBody(stored.cursor, onLeave), runtime.timers);
  return new Response(nativeBody(body, signal), { headers: stored.headers });
}
