import { type SendRequest, sleep, type Timers } from "../../runtime.ts";
import { replayDelay } from "./pacing.ts";
import { recordingChunks, type Recording } from "./recording.ts";

/** How a replay is paced. */
export interface ReplayOptions {
  /** Mean delay between events, in milliseconds; 0 sends them back to back. */
  delayMs: number;
  timers: Timers;
}

/**
 * A stand-in for `fetch` that answers any provider request with a recorded stream, without
 * the network: `200` with the recording's media type (`text/event-stream` unless it says
 * otherwise), one recorded message per chunk (an SSE event, an NDJSON line, an event-stream
 * message), paced like a model. Like a real body, it stops when the request's signal aborts or
 * the reader cancels.
 */
export function replayUpstream(recording: Recording, options: ReplayOptions): SendRequest {
  return async (_url, init) =>
    replayEvents(
      recording.name,
      recordingChunks(recording),
      init.signal ?? UNCANCELLED,
      options,
      recording.contentType,
    );
}

/** The signal of a request sent without one (the Worker always gives one). */
const UNCANCELLED = new AbortController().signal;

/**
 * A `200` response whose body is `chunks` (one enqueue each), paced like a model and
 * stopped when the request's signal aborts or the reader cancels.
 */
export function replayEvents(
  name: string,
  chunks: readonly Uint8Array[],
  signal: AbortSignal,
  options: ReplayOptions,
  contentType = "text/event-stream; charset=utf-8",
): Response {
  let index = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = chunks[index];
        if (chunk === undefined) return controller.close();
        await sleep(options.timers, replayDelay(index, options.delayMs), signal);
        index++;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200, headers: { "content-type": contentType, "x-replay-recording": name } });
}
