import type { Timers } from "../runtime.ts";

/** How long an agent's stream may stay silent before a keep-alive frame: Claude Code's watchdog fires after about 20 s. */
export const KEEP_ALIVE_MS = 15_000;

/**
 * `body` with `frame` written whenever nothing has been written for `ms` (a slow model, a
 * validator holding a call), so that a client's stream watchdog never cuts a healthy response.
 * The frame goes only between chunks (the encoders write whole SSE frames per chunk), never
 * before the first one: the protocol's own first event must come first. Pulls are the reader's,
 * so backpressure holds; cancelling the output cancels `body`.
 */
export function withKeepAlive(
  body: ReadableStream<Uint8Array>,
  frame: string,
  timers: Timers,
  ms: number = KEEP_ALIVE_MS,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const bytes = new TextEncoder().encode(frame);
  let started = false;
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        pending ??= reader.read();
        const next = started ? await raceTimer(pending, timers, ms) : await pending;
        if (next === "timeout") return controller.enqueue(bytes);
        pending = undefined;
        if (next.done) return controller.close();
        started = true;
        controller.enqueue(next.value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
      // Nothing is read ahead: the silence is timed only while a reader waits.
    },
    { highWaterMark: 0 },
  );
}

function raceTimer<T>(promise: Promise<T>, timers: Timers, ms: number): Promise<T | "timeout"> {
  return new Promise((resolve, reject) => {
    const handle = timers.setTimeout(() => resolve("timeout"), ms);
    promise.then(
      (value) => {
        timers.clearTimeout(handle);
        resolve(value);
      },
      (error: unknown) => {
        timers.clearTimeout(handle);
        reject(error);
      },
    );
  });
}
