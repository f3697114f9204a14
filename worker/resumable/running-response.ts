import type { TimerHandle, Timers } from "../runtime.ts";
import type { LogCursor } from "./log-batch.ts";
import type { ResponseLog } from "./response-log.ts";

/**
 * A response running in a `ResponseBuffer`: its log in memory (a finished one is in storage
 * only), the headers its clients get, the controller that stops its provider request, and who
 * reads it. With no client attached it runs on for the detached limit, then is cancelled (its log
 * ends with `abort`).
 *
 * @example
 * ```ts
 * const running = new RunningResponse(new ResponseLog(limits), headers, upstream, timers, detachedLimitMs);
 * const body = logBody(running.reader(-1), () => running.left());
 * ```
 */
export class RunningResponse {
  /** The frames so far, for its clients. */
  readonly log: ResponseLog;
  /** The headers every client's answer has. */
  readonly headers: Record<string, string>;
  /** Aborting it stops the provider request (or the tool loop), which ends the log with `abort`. */
  readonly upstream: AbortController;
  readonly #timers: Timers;
  readonly #detachedLimitMs: number;
  #detachTimer: TimerHandle | undefined;
  /** The first client's place at the start of the log, held from the start until it attaches. */
  #first: LogCursor | undefined;
  #firstTimer: TimerHandle | undefined;
  /** Runs once the first place is taken or given up ({@link RunningResponse.afterFirst}). */
  #firstGone: (() => void) | undefined;

  /**
   * A response that has just started. Its first client attaches right after (`GET /attach`): its
   * place holds every frame until then, and one that never comes gives it up after the detached
   * limit, as if it had left.
   */
  constructor(
    log: ResponseLog,
    headers: Record<string, string>,
    upstream: AbortController,
    timers: Timers,
    detachedLimitMs: number,
  ) {
    this.log = log;
    this.headers = headers;
    this.upstream = upstream;
    this.#timers = timers;
    this.#detachedLimitMs = detachedLimitMs;
    this.#first = log.open(-1);
    this.#firstTimer = timers.setTimeout(() => {
      this.#firstTimer = undefined;
      this.#first?.close();
      this.#first = undefined;
      this.#cancelIfDetached();
      this.#afterFirstGone();
    }, detachedLimitMs);
  }

  /**
   * A client's cursor, the frames after `lastSeen` (checked with `resumeRefusal`): the place
   * held for the first client when it asks from the start. A client attached disarms the detached
   * limit.
   */
  reader(lastSeen: number): LogCursor {
    this.#clearDetachTimer();
    const first = lastSeen === -1 ? this.#first : undefined;
    if (!first) return this.log.open(lastSeen);
    this.#first = undefined;
    this.#timers.clearTimeout(this.#firstTimer);
    this.#firstTimer = undefined;
    this.#afterFirstGone();
    return first;
  }

  /** A client left: when it was the last, cancel the response if nobody comes back in time. */
  left(): void {
    if (this.log.done || this.log.readers > 0 || this.#detachTimer !== undefined) return;
    this.#detachTimer = this.#timers.setTimeout(() => {
      this.#detachTimer = undefined;
      this.#cancelIfDetached();
    }, this.#detachedLimitMs);
  }

  /** The response ended: no detached limit runs any more (the first place stays until taken or given up). */
  ended(): void {
    this.#clearDetachTimer();
  }

  /**
   * Runs `callback` once the first place is taken or given up (at once if it is): a response that
   * ends before its first client attaches stays in memory for it, with every frame.
   */
  afterFirst(callback: () => void): void {
    if (this.#first === undefined) callback();
    else this.#firstGone = callback;
  }

  #afterFirstGone(): void {
    const callback = this.#firstGone;
    this.#firstGone = undefined;
    callback?.();
  }

  #cancelIfDetached(): void {
    if (!this.log.done && this.log.readers === 0) this.upstream.abort("no client attached");
  }

  #clearDetachTimer(): void {
    if (this.#detachTimer !== undefined) this.#timers.clearTimeout(this.#detachTimer);
    this.#detachTimer = undefined;
  }
}
