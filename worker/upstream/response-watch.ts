import { chunkReader } from "../../src/core.ts";
import { type BatchReader, ToolCallStreamError, type StreamErrorInfo } from "../../src/index.ts";
import { mappedSource, sourceStep } from "../http/batch-map.ts";
import { logUnexpected } from "../response/log-error.ts";
import { reusingReader } from "./reusing-reader.ts";
import type { TimerHandle, Timers } from "../runtime.ts";
import type { WatchedBody } from "./watched-body.ts";

/** Options of {@link ResponseWatch}. */
export interface ResponseWatchOptions {
  timers: Timers;
  /** Longest wait for the next event (`IDLE_TIMEOUT_MS`), in milliseconds. */
  idleTimeoutMs: number;
  /** Longest a whole response may take (`MAX_RESPONSE_MS`), in milliseconds, from the watch's start. */
  maxResponseMs: number;
}

/**
 * The two clocks of one response: the idle timeout and the overall deadline. Every provider body
 * of the response (one, or one per model call of a run) is read through {@link ResponseWatch.body},
 * and its events are passed through {@link ResponseWatch.events}, which tells the watch that the
 * provider made progress.
 *
 * The idle clock counts decoded events, not bytes: SSE comments, Anthropic's `ping` and
 * OpenRouter's `: OPENROUTER PROCESSING` arrive as bytes and make no event, so a model that
 * stalls behind keep-alives is ended all the same. The clock runs from the first read of the
 * provider after the last event (or the wait for its headers, {@link ResponseWatch.wait}), only
 * while the Worker waits on the provider: a slow client holds the reads back and stops nothing.
 * One timer for both clocks, from the watch's start to its end, not one per read nor one per
 * clock: set never later than the deadline nor than `idleTimeoutMs` after the wait it sees (or
 * after now, when none), so it is never late for a wait that begins after it; when it fires it
 * ends the response if a clock ran out, or waits again for what is left.
 *
 * Either clock ends the response the same way: the body being read errors with a
 * `ToolCallStreamError` (`idle-timeout` or `deadline-exceeded`), which the chain turns into an
 * `error` event and then an `abort` listing the open calls, and the provider request is aborted.
 * That is not the client's cancel signal, so a timed-out response never reads as `cancelled`.
 *
 * @example
 * ```ts
 * const watch = new ResponseWatch({ timers, idleTimeoutMs: 120_000, maxResponseMs: 600_000 });
 * const events = watch.events(streamToolCalls(watch.body(response.body!, () => controller.abort()), options), failureEvents);
 * ```
 */
export class ResponseWatch {
  readonly #timers: Timers;
  readonly #idleTimeoutMs: number;
  readonly #maxResponseMs: number;
  /** `maxResponseMs` after the watch's start. */
  readonly #deadline: number;
  /** When the wait for the next event began, or undefined when an event came with no read waiting. */
  #since: number | undefined;
  /** Reads of a provider body (or waits for its headers) waiting now. */
  #reads = 0;
  /** The one timer of both clocks, armed from the start to the end. */
  #timer: TimerHandle | undefined;
  #failure: ToolCallStreamError | undefined;
  #ended = false;
  readonly #stops = new Set<(error: ToolCallStreamError) => void>();

  constructor(options: ResponseWatchOptions) {
    this.#timers = options.timers;
    this.#idleTimeoutMs = options.idleTimeoutMs;
    this.#maxResponseMs = options.maxResponseMs;
    const now = this.#timers.now();
    this.#deadline = now + options.maxResponseMs;
    this.#arm(now);
  }

  /** The error that ended the response, once a clock ran out. */
  get failure(): ToolCallStreamError | undefined {
    return this.#failure;
  }

  /**
   * Calls `stop` with the error when a clock runs out (at once if one has); returns what
   * unregisters it. What waits for a provider's headers registers here.
   */
  onTimeout(stop: (error: ToolCallStreamError) => void): () => void {
    if (this.#failure) {
      stop(this.#failure);
      return () => {};
    }
    this.#stops.add(stop);
    return () => void this.#stops.delete(stop);
  }

  /**
   * A wait on the provider that is not a body's read (its headers), under the idle clock as a
   * read is; returns what ends it.
   */
  wait(): () => void {
    this.#readStarts();
    return () => void this.#reads--;
  }

  /** The provider made an event: the idle clock starts again from the next read. */
  progress(): void {
    this.#since = this.#reads > 0 ? this.#timers.now() : undefined;
  }

  /** The response ended (its events closed, errored or were cancelled): no timer fires after this. */
  end(): void {
    this.#ended = true;
    this.#clear();
  }

  /**
   * A provider body read under the watch, as the async iterable of its chunks the chain reads
   * directly (a chunk then costs no pass through a stream of its own, which token by token is a
   * pass per token): a read fails with the clock's error when one runs out, and `onStop` (which
   * aborts the provider request) is called then or when the reader stops early (`return()`: the
   * client went away). The source's cancel is not awaited: a source stuck in a read may never
   * settle it.
   */
  body(source: ReadableStream<Uint8Array>, onStop: () => void, reuse = false): WatchedBody {
    // A fetch body in large reads: what the upstream has ready, up to 64 KiB, per chunk.
    const reader = reuse ? reusingReader(source) : chunkReader(source);
    let done = false;
    let failure: ToolCallStreamError | undefined;
    let unregister = (): void => {};
    const finish = (reason: unknown): void => {
      done = true;
      unregister();
      onStop();
      reader.cancel(reason).catch(() => undefined);
    };
    // A clock that ran out already (a run's next model call after the deadline) stops this at once;
    // one that runs out during a read cancels it, and the read (which then says done) fails.
    unregister = this.onTimeout((error) => {
      if (done) return;
      failure = error;
      finish(error);
    });
    const end = (): IteratorResult<Uint8Array> => {
      done = true;
      unregister();
      return { done: true, value: undefined };
    };
    const iterator: AsyncIterableIterator<Uint8Array> = {
      next: async () => {
        if (failure) throw failure;
        if (done) return { done: true, value: undefined };
        this.#readStarts();
        let result: Awaited<ReturnType<typeof reader.read>>;
        try {
          result = await reader.read();
        } catch (error) {
          if (failure) throw failure;
          end();
          throw error;
        } finally {
          this.#reads--;
        }
        if (failure) throw failure;
        return result.done ? end() : { done: false, value: result.value };
      },
      return: async (reason?: unknown) => {
        if (!done) finish(reason);
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  /**
   * `stream` as it is, each chunk read from it (an event, or a non-empty array of events) noted as
   * progress; its end, error or cancel ends the watch. Read as the chain makes them (no queue of
   * its own), so progress is noted when the chain passes events on (with its write window, when
   * the window closes: at most `batchWindowMs` after they were made), not when a slow client takes them.
   *
   * The chain never errors its output (a failure is an `error` event and an `abort`), so an error
   * here is a bug (a step, a validator, a decoder that threw): it is logged (name and stack), the
   * provider request aborted, and the stream ends with what `ending` makes of a `stream-failed`
   * error (the `error` and `abort` events, given the last chunk read), never cut short, so a client
   * never gets an empty or truncated 200.
   */
  events<T>(
    stream: ReadableStream<T> | BatchReader<T>,
    ending: (error: StreamErrorInfo, last: T | undefined) => readonly T[],
  ): ReadableStream<T> {
    let last: T | undefined;
    const failed = (error: unknown): readonly T[] => {
      logUnexpected(error, "the response's events");
      const info: StreamErrorInfo = {
        code: "stream-failed",
        message: "The Worker failed while streaming the response.",
      };
      this.#fail(new ToolCallStreamError(info));
      this.end();
      return ending(info, last);
    };
    // Over the chain, a step of the steps after it; over a run's steps, a stream that reads them (their throws caught).
    if (stream instanceof ReadableStream && mappedSource(stream).source !== stream)
      return this.#eventsStream(stream, failed, (chunk) => (last = chunk));
    return sourceStep(
      stream,
      (chunk) => {
        if (!Array.isArray(chunk) || chunk.length > 0) this.progress();
        last = chunk;
        return chunk;
      },
      () => void this.end(),
      { fail: failed, cancelled: () => this.end() },
    );
  }

  /** {@link ResponseWatch.events} as a stream of its own, over a stream made of steps. */
  #eventsStream<T>(
    stream: ReadableStream<T>,
    failed: (error: unknown) => readonly T[],
    note: (chunk: T) => void,
  ): ReadableStream<T> {
    const reader = stream.getReader();
    return new ReadableStream<T>(
      {
        pull: async (controller) => {
          let result: ReadableStreamReadResult<T>;
          try {
            result = await reader.read();
          } catch (error) {
            for (const item of failed(error)) controller.enqueue(item);
            return controller.close();
          }
          if (result.done) {
            this.end();
            return controller.close();
          }
          if (!Array.isArray(result.value) || result.value.length > 0) this.progress();
          note(result.value);
          controller.enqueue(result.value);
        },
        cancel: async (reason) => {
          this.end();
          await reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
  }

  #readStarts(): void {
    this.#reads++;
    if (this.#since === undefined) {
      this.#since = this.#timers.now();
      return;
    }
    // Going on from a wait whose limit passed while no read waited (bytes, no event): fire now.
    if (this.#since + this.#idleTimeoutMs <= this.#timers.now() && this.#timer !== undefined) {
      this.#timers.clearTimeout(this.#timer);
      this.#timer = this.#timers.setTimeout(() => this.#check(), 0);
    }
  }

  /** Arms the one timer: at the deadline, or at the idle limit of the wait now (of one starting now, when none) if earlier. */
  #arm(now: number): void {
    const waitedFrom = this.#reads > 0 && this.#since !== undefined ? this.#since : now;
    const at = Math.min(waitedFrom + this.#idleTimeoutMs, this.#deadline);
    this.#timer = this.#timers.setTimeout(() => this.#check(), Math.max(at - now, 0));
  }

  #check(): void {
    this.#timer = undefined;
    if (this.#ended || this.#failure) return;
    const now = this.#timers.now();
    if (now >= this.#deadline) {
      this.#fail(
        new ToolCallStreamError({
          code: "deadline-exceeded",
          message: `The response took longer than ${this.#maxResponseMs} ms (MAX_RESPONSE_MS); the stream was ended.`,
        }),
      );
      return;
    }
    if (this.#reads > 0 && this.#since !== undefined && now >= this.#since + this.#idleTimeoutMs) {
      this.#fail(
        new ToolCallStreamError({
          code: "idle-timeout",
          message: `The provider sent no event for ${this.#idleTimeoutMs} ms (keep-alives do not count); the stream was ended.`,
        }),
      );
      return;
    }
    this.#arm(now);
  }

  #fail(error: ToolCallStreamError): void {
    if (this.#ended || this.#failure) return;
    this.#failure = error;
    this.#clear();
    for (const stop of [...this.#stops]) stop(error);
    this.#stops.clear();
  }

  #clear(): void {
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
