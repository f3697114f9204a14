import type { TimerHandle, Timers } from "../runtime.ts";

/**
 * How often a streamed answer that has nothing to say sends an SSE comment, in milliseconds.
 * Shorter than the idle timeouts of common proxies and load balancers (30 to 100 s), and often
 * enough that a client that vanished is found within the detach limit.
 */
export const HEARTBEAT_MS = 15_000;

/** An SSE comment line: every SSE reader skips it (the spec's lines starting with a colon). */
const HEARTBEAT = ": keep-alive\n\n";

/**
 * `body` (an SSE answer) with an SSE comment written whenever it has written nothing for
 * `everyMs` while its reader waits. A client that went away is only found when the runtime
 * writes to its connection: without this, a provider that sends only keep-alives (which make no
 * event) or a tool that runs long leaves nothing to write, and the response runs on for nobody.
 * With it, the failed write cancels the body within `everyMs`, which cancels the provider request
 * (or, for a resumable response, starts its detach limit).
 *
 * One timer at a time: each write notes the time, and the timer, when it fires, writes only if
 * nothing was written for `everyMs`, else waits for what is left. A reader that is not waiting
 * (a slow client, its write in progress) gets no comment: that write finds it gone.
 *
 * @example
 * ```ts
 * return new Response(withHeartbeat(eventStreamBodyOfBatches(batches), runtime.timers), { headers });
 * ```
 */
export function withHeartbeat(
  body: ReadableStream<Uint8Array>,
  timers: Timers,
  everyMs: number = HEARTBEAT_MS,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const encoder = new TextEncoder();
  let lastWrite = timers.now();
  let timer: TimerHandle | undefined;
  let waiting = false;
  let done = false;
  const stop = (): void => {
    done = true;
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const beat = (): void => {
          timer = undefined;
          if (done) return;
          const left = lastWrite + everyMs - timers.now();
          if (left <= 0 && waiting) {
            controller.enqueue(encoder.encode(HEARTBEAT));
            lastWrite = timers.now();
          }
          timer = timers.setTimeout(beat, left > 0 ? left : everyMs);
        };
        timer = timers.setTimeout(beat, everyMs);
      },
      async pull(controller) {
        waiting = true;
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
        } catch (error) {
          stop();
          throw error;
        } finally {
          waiting = false;
        }
        if (done) return;
        if (result.done) {
          stop();
          return controller.close();
        }
        lastWrite = timers.now();
        controller.enqueue(result.value);
      },
      cancel(reason) {
        stop();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
