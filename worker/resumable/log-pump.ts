import { formatToolCallEvent, joinDeltas } from "../../src/index.ts";
import type { LogCursor, ResponseLog } from "./response-log.ts";
import type { LogWriter } from "./response-log-storage.ts";

/**
 * How the frames of a resumable response move: from the events into its log and its storage
 * ({@link pumpIntoLog}), and from the log to each client ({@link logBody}).
 *
 * @module
 */

/** Any event union discriminated on `type` (stream events, run events). */
export type AnyEvent = { readonly type: string };

/** Pending frame units past which the pump writes without waiting for the upstream to pause. */
const FLUSH_UNITS = 64 * 1024;
/** What a race against a read that has not settled yet resolves to (a settled read wins it). */
const NOT_READY = Symbol("not ready");
const notReady: Promise<typeof NOT_READY> = Promise.resolve(NOT_READY);

/**
 * Reads the batches of events to the end, one SSE frame per event (adjacent fragments of one call
 * or of text joined, as on the plain path), and appends the frames to `log` and `writer` when the
 * upstream has nothing more ready (so a model's pace adds no latency) or once `FLUSH_UNITS` are
 * pending (batches ready back to back cost one write per 64 Ki units, not one each; a fetch
 * body's next read is never ready at once, so in workerd a write is one upstream read, up to 64
 * KiB). Clients see only what was appended, hence stored: a restart never loses a frame a client
 * has seen. A client that lags the whole log behind holds the reading back. Ends the log and its
 * storage however the reading ends.
 *
 * @example
 * ```ts
 * ctx.waitUntil(pumpIntoLog(batches, log, writer));
 * ```
 */
export async function pumpIntoLog(
  batches: ReadableStream<readonly AnyEvent[]>,
  log: ResponseLog,
  writer: LogWriter,
): Promise<void> {
  const reader = batches.getReader();
  let pending: string[] = [];
  let units = 0;
  let next = log.next;
  const flush = async (): Promise<void> => {
    if (pending.length > 0) writer.append(log.append(pending));
    pending = [];
    units = 0;
    if (log.full) await log.room();
  };
  try {
    for (;;) {
      const read = reader.read();
      let result = await Promise.race([read, notReady]);
      if (result === NOT_READY) {
        await flush();
        result = await read;
      }
      if (result.done) break;
      for (const event of joinDeltas(result.value)) {
        const frame = formatToolCallEvent(event, next++);
        pending.push(frame);
        units += frame.length;
      }
      if (units >= FLUSH_UNITS) await flush();
    }
  } finally {
    if (pending.length > 0) writer.append(log.append(pending));
    log.finish();
    writer.end();
  }
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
