import { sleep, type Timers } from "../runtime.ts";
import { replayDelay } from "./pacing.ts";
import type { Recording } from "./recording.ts";

/** How a replay is paced. */
export interface ReplayOptions {
  /** Mean delay between events, in milliseconds; 0 sends them back to back. */
  delayMs: number;
  timers: Timers;
}

/**
 * A stand-in for `fetch` that answers any provider request with a recorded stream, without
 * the network: `200 text/event-stream`, one recorded event per chunk, paced like a model.
 * Like a real body, it stops when the request's signal aborts or the reader cancels.
 */
export function replayUpstream(recording: Recording, options: ReplayOptions): (request: Request) => Promise<Response> {
  return async (request) => replayEvents(recording.name, recording.events, request.signal, options);
}

/**
 * A `200` response whose body is `events` (text or bytes, one chunk each), paced like a model and
 * stopped when the request's signal aborts or the reader cancels.
 */
export function replayEvents(name: string, events: readonly (string | Uint8Array)[], signal: AbortSignal, options: ReplayOptions, contentType = "text/event-stream; charset=utf-8"): Response {
  let index = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const event = events[index];
        if (event === undefined) return controller.close();
        await sleep(options.timers, replayDelay(index, options.delayMs), signal);
        index++;
        controller.enqueue(typeof event === "string" ? new TextEncoder().encode(event) : event);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: { "content-type": contentType, "x-replay-recording": name },
  });
}
