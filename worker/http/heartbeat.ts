import type { TimerHandle, Timers } from "../runtime.ts";
import { adoptable, adoptSteps, mappedSource, readerOf, readSource, takeMappedSource } from "./batch-map.ts";

/**
 * How often a streamed answer that has nothing to say sends an SSE comment, in milliseconds.
 * Shorter than the idle timeouts of common proxies and load balancers (30 to 100 s), and often
 * enough that a client that vanished is found within the detach limit.
 */
export const HEARTBEAT_MS = 15_000;

/** An SSE comment line: every SSE reader skips it (the spec's lines starting with a colon). */
const HEARTBEAT = ": keep-alive\n\n";

/**
 * Each frame's bytes, encoded once per isolate, not once per answer: the frames are the Worker's
 * own constants (never a client's), so this holds a few entries. Enqueuing the same bytes on many
 * streams is what one stream already does at each beat: a default stream never detaches them.
 */
const frameBytes = new Map<string, Uint8Array>();

/** `frame`'s bytes, kept in {@link frameBytes}. */
function encodedFrame(frame: string): Uint8Array {
  const bytes = new TextEncoder().encode(frame);
  frameBytes.set(frame, bytes);
  return bytes;
}

/** Options of {@link withHeartbeat}. */
export interface HeartbeatOptions {
  /**
   * Milliseconds of silence before a frame. Claude Code's stream watchdog fires after about 20 s,
   * proxies and load balancers after 30 to 100 s.
   * @defaultValue {@link HEARTBEAT_MS}
   */
  everyMs?: number;
  /** The frame written: an SSE comment by default; a protocol's own (Anthropic's `event: ping`). */
  frame?: string;
  /** No frame before the body's first chunk: the protocol's own first event must come first (Anthropic's `message_start`). */
  afterFirstChunk?: boolean;
  /**
   * Each chunk of `body` as it is written, once what it waits for is done: a stored Responses
   * answer's terminal frame waits until the response is stored. A step of this one stream, not a
   * stream of its own.
   */
  before?: (chunk: Uint8Array) => Uint8Array | Promise<Uint8Array>;
}

/**
 * `body` (an SSE answer) with a frame (an SSE comment, or the protocol's own keep-alive) written
 * whenever it has written nothing for `everyMs` while its reader waits. A client that went away
 * is only found when the runtime writes to its connection: without this, a provider that sends
 * only keep-alives (which make no event) or a tool that runs long leaves nothing to write, and the
 * response runs on for nobody. With it, the failed write cancels the body within `everyMs`, which
 * cancels the provider request (or, for a resumable response, starts its detach limit). And a
 * client's own stream watchdog never cuts a healthy response that is slow to say something.
 *
 * One timer at a time, not one per read: each write notes the time, and the timer, when it fires,
 * writes only if nothing was written for `everyMs`, else waits for what is left. A reader that is
 * not waiting (a slow client, its write in progress) gets no frame: that write finds it gone.
 * A source that fails while its reader is not waiting (a resumable response's reader cut for
 * lagging) fails the answer at once and stops the timer.
 * A `body` made by `mapChunks` (the steps from the chain's events to the protocol's bytes) is read
 * here through its steps, from the stream under them: the answer is this one stream over the
 * events, not one per step; over the chain's arrays read with no stream (`readToolCallBatches`),
 * `body` itself, given this pull and cancel (`adoptSteps`), not a second stream around it. Like a pipe, it reads one chunk ahead of its reader; the chunk after
 * which the steps are finished (an encoder that wrote its last frame) goes out with their end and
 * the close, its source cancelled then.
 *
 * @example
 * ```ts
 * return new Response(withHeartbeat(eventStreamBodyOfBatches(batches), runtime.timers), { headers });
 * const messages = withHeartbeat(answer, runtime.timers, { frame: "event: ping\ndata: {\"type\":\"ping\"}\n\n", afterFirstChunk: true });
 * ```
 */
export function withHeartbeat(
  body: ReadableStream<Uint8Array>,
  timers: Timers,
  options: HeartbeatOptions = {},
): ReadableStream<Uint8Array> {
  const { everyMs = HEARTBEAT_MS, frame = HEARTBEAT, afterFirstChunk = false, before } = options;
  // Steps over the chain's arrays that nothing read yet: their stream becomes this one, one stream
  // for the answer. Over a stream (a resumable log's), whose failure may come while no read waits,
  // a stream of its own, whose controller `start` gives.
  const adopt = adoptable(body) && !(mappedSource(body).source instanceof ReadableStream);
  const step = takeMappedSource(body);
  const { source, map, end, finished } = step;
  // The chain's arrays taken as it passes them on, with no read of its stream per array.
  const reader = readerOf(source);
  const bytes = frameBytes.get(frame) ?? encodedFrame(frame);
  let lastWrite = timers.now();
  let timer: TimerHandle | undefined;
  let waiting = false;
  let started = !afterFirstChunk;
  let done = false;
  let ahead: ReturnType<typeof readSource<Uint8Array>> | undefined;
  /** The stream's controller: from `start`, or (an adopted stream) from the first pull, before which no frame is written. */
  let controller: ReadableStreamDefaultController<Uint8Array>;
  const stop = (): void => {
    done = true;
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
  };
  const beat = (): void => {
    timer = undefined;
    if (done) return;
    const left = lastWrite + everyMs - timers.now();
    if (left <= 0 && waiting && started) {
      controller.enqueue(bytes);
      lastWrite = timers.now();
    }
    timer = timers.setTimeout(beat, left > 0 ? left : everyMs);
  };
  const pump = {
    async pull(pulling: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
      controller = pulling;
      waiting = true;
      let chunk: Uint8Array | undefined;
      let last: Uint8Array[] | undefined;
      try {
        while (chunk === undefined) {
          const result = await (ahead ?? readSource(reader, step));
          ahead = undefined;
          if (done) return;
          // A failed read that the first step makes chunks of (the Worker's error and abort
          // events): those, then the end.
          if ("failed" in result) {
            last = result.failed;
            break;
          }
          if (result.done) {
            last = end();
            break;
          }
          chunk = map(result.value);
        }
        // The steps' last bytes (an encoder that wrote its end): the end goes with them in this
        // pull, not after one more read of the pipe (a pull and a read of the answer's stream).
        if (last === undefined && finished?.() === true) {
          reader.cancel("The answer ended.").catch(() => undefined);
          last = [chunk!, ...end()];
        }
        if (before) {
          if (last) for (let i = 0; i < last.length; i++) last[i] = await before(last[i]!);
          else chunk = await before(chunk!);
          if (done) return;
        }
      } catch (error) {
        stop();
        reader.cancel(error).catch(() => undefined);
        throw error;
      } finally {
        waiting = false;
      }
      if (last) {
        stop();
        for (const bytes of last) controller.enqueue(bytes);
        return controller.close();
      }
      started = true;
      lastWrite = timers.now();
      controller.enqueue(chunk!);
      // The next chunk is read while this one is written, as a pipe reads one ahead.
      ahead = readSource(reader, step);
      ahead.catch(() => undefined);
    },
    cancel(reason: unknown): Promise<void> {
      stop();
      step.cancelled?.();
      return reader.cancel(reason);
    },
  };
  timer = timers.setTimeout(beat, everyMs);
  if (adopt) return adoptSteps(body, pump);
  return new ReadableStream<Uint8Array>(
    {
      start(ready) {
        controller = ready;
        // A source that fails while nobody waits on it (a resumable log's reader cut for lagging:
        // its client reads nothing) ends the answer now, timer and all, not at a next read that may
        // never come. A failure the steps make frames of (`fail`) waits for the client's next read;
        // the chain's own reader (`batchReader`) has no `closed`: its failures come to a read.
        (reader as { closed?: Promise<unknown> }).closed?.catch((error: unknown) => {
          if (done || waiting || step.fail) return;
          stop();
          ready.error(error);
        });
      },
      pull: pump.pull,
      cancel: pump.cancel,
    },
    { highWaterMark: 0 },
  );
}
