/**
 * The bounded log of one response's encoded SSE frames, read by cursors: what a client that
 * reconnects with `Last-Event-ID` is served from. Frame `n` has SSE id `n`.
 *
 * Readers pull: a cursor holds only a position, never a queue of its own. The oldest frames are
 * dropped past the bounds, but never one an attached reader has yet to read: while a reader lags
 * that far behind, the log is {@link ResponseLog.full} and the writer waits ({@link ResponseLog.room}),
 * so a slow client holds the provider back (backpressure) instead of losing events or growing
 * memory. With no reader attached the writer never waits.
 *
 * @module
 */

/** Bounds of a {@link ResponseLog}. */
export interface ResponseLogLimits {
  /** Most frames kept; older ones are dropped and can no longer be resumed from. */
  maxFrames: number;
  /** Most bytes (UTF-16 units) of frames kept; the newest frame is always kept. */
  maxBytes: number;
}

/** What a {@link LogCursor} reads next. */
export type LogStep =
  /** The next frame, in order. */
  | { type: "frame"; text: string }
  /** The response ended and every frame was read. */
  | { type: "end" };

/** A reader's position in a {@link ResponseLog}. */
export interface LogCursor {
  /** The next step; waits while the response is running and every frame so far was read. A closed cursor reads `end`. */
  read(): Promise<LogStep>;
  /** Detaches the reader (idempotent). */
  close(): void;
}

/**
 * An append-only, bounded list of frames; frame ids are their sequence numbers.
 *
 * @example
 * ```ts
 * const log = new ResponseLog({ maxFrames: 1000, maxBytes: 1 << 20 });
 * const cursor = log.open(-1);
 * log.append("event: text\nid: 0\ndata: {}\n\n");
 * await cursor.read(); // { type: "frame", text: "event: text\nid: 0\n..." }
 * ```
 */
export class ResponseLog {
  readonly #limits: ResponseLogLimits;
  readonly #frames: string[] = [];
  /** The next sequence number of each open cursor. */
  readonly #positions = new Set<{ at: number }>();
  /** Readers waiting for the next frame or the end, and the writer waiting for room. */
  #waiting: Array<() => void> = [];
  /** Sequence number of `#frames[0]`. */
  #first = 0;
  #bytes = 0;
  #done = false;

  /** Creates an empty log. */
  constructor(limits: ResponseLogLimits) {
    this.#limits = limits;
  }

  /**
   * A finished log holding `frames` from sequence number `first` (one read back from storage
   * by a fresh instance).
   *
   * @example
   * ```ts
   * const log = ResponseLog.finished({ maxFrames: 1000, maxBytes: 1 << 20 }, 7, ["id: 7\n\n"]);
   * log.canResumeAfter(6); // true
   * ```
   */
  static finished(limits: ResponseLogLimits, first: number, frames: readonly string[]): ResponseLog {
    const log = new ResponseLog(limits);
    log.#first = first;
    for (const text of frames) {
      log.#frames.push(text);
      log.#bytes += text.length;
    }
    log.#done = true;
    return log;
  }

  /** The next frame's sequence number (= frames appended so far). */
  get next(): number {
    return this.#first + this.#frames.length;
  }

  /** The oldest frame still kept. */
  get first(): number {
    return this.#first;
  }

  /** True once the response ended; no frame follows. */
  get done(): boolean {
    return this.#done;
  }

  /** How many cursors are open. */
  get readers(): number {
    return this.#positions.size;
  }

  /** True while the log is past its bounds because a reader has yet to read the oldest frames. */
  get full(): boolean {
    return this.#frames.length > 1 && (this.#frames.length > this.#limits.maxFrames || this.#bytes > this.#limits.maxBytes);
  }

  /** Resolves once the log is no longer {@link ResponseLog.full} (a reader read on or left). */
  async room(): Promise<void> {
    while (this.full) await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Appends the frame for sequence number {@link ResponseLog.next}, dropping the oldest read ones past the bounds. */
  append(text: string): void {
    if (this.#done) throw new Error("The response log already ended.");
    this.#frames.push(text);
    this.#bytes += text.length;
    this.#trim();
    this.#wake();
  }

  /** The response ended. */
  finish(): void {
    this.#done = true;
    this.#wake();
  }

  /**
   * The newest frames within the bounds (at least the newest one), whatever a reader still
   * holds beyond them: what is written to storage when the response ends.
   */
  kept(): { first: number; frames: string[] } {
    let count = 0;
    let bytes = 0;
    for (let i = this.#frames.length - 1; i >= 0; i--) {
      bytes += this.#frames[i]!.length;
      if (count > 0 && (count >= this.#limits.maxFrames || bytes > this.#limits.maxBytes)) break;
      count++;
    }
    return { first: this.next - count, frames: this.#frames.slice(this.#frames.length - count) };
  }

  /** True when every frame after `lastSeen` is still held (`-1`: from the start). */
  canResumeAfter(lastSeen: number): boolean {
    return lastSeen + 1 >= this.#first && lastSeen < this.next;
  }

  /** A cursor at the frame after `lastSeen`: the kept frames, then the live ones, no duplicate, no gap. */
  open(lastSeen: number): LogCursor {
    if (!this.canResumeAfter(lastSeen)) throw new RangeError("The frames after this one are no longer kept.");
    const position = { at: lastSeen + 1 };
    this.#positions.add(position);
    const close = (): void => {
      if (!this.#positions.delete(position)) return;
      this.#trim();
      this.#wake();
    };
    const read = async (): Promise<LogStep> => {
      while (this.#positions.has(position) && position.at >= this.next && !this.#done) {
        await new Promise<void>((resolve) => this.#waiting.push(resolve));
      }
      if (!this.#positions.has(position) || position.at >= this.next) return { type: "end" };
      const text = this.#frames[position.at++ - this.#first]!;
      if (this.full) {
        this.#trim();
        this.#wake();
      }
      return { type: "frame", text };
    };
    return { read, close };
  }

  /** Drops the oldest frames past the bounds that no open cursor still has to read. */
  #trim(): void {
    let unread = Number.POSITIVE_INFINITY;
    for (const position of this.#positions) unread = Math.min(unread, position.at);
    while (this.full && this.#first < unread) {
      this.#bytes -= this.#frames.shift()!.length;
      this.#first++;
    }
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}
