/**
 * The bounded log of one response's encoded SSE frames, read by cursors: what a client that
 * reconnects with `Last-Event-ID` is served from. Frame `n` has SSE id `n`. Frames come in
 * batches (every event ready from one upstream chunk), kept as one string per batch with the
 * offsets where its frames end: a reader is served one chunk per batch, and a resume in the middle
 * of a batch still starts exactly at the frame after `Last-Event-ID`.
 *
 * Readers pull: a cursor holds only a position, never a queue of its own. A frame no reader has
 * yet to read is dropped (a running log's frames are in storage too) or, without storage, kept up
 * to the bounds. While a reader lags past the bounds, the log is {@link ResponseLog.full} and the
 * writer waits ({@link ResponseLog.room}): a slow client holds the provider back (backpressure)
 * instead of losing events or growing memory, for `DETACHED_LIMIT_MS` at most (`log-pump.ts`).
 *
 * @module
 */

import type { BudgetHolder, LogBudget } from "./log-budget.ts";
import {
  LAGGED,
  type LogBatch,
  type LogCursor,
  type LogStep,
  type OlderFrames,
  OVER_BUDGET,
  type ResponseLogLimits,
  keepFrom,
  toBatch,
} from "./log-batch.ts";

/** An open cursor's state: its next frame, and what runs if the log cuts it (and why). */
type Position = { at: number; cut?: string | undefined; onCut?: ((reason: string) => void) | undefined };

/** Where a running log's frames also are, and the bound it shares (see {@link ResponseLog}). */
export interface ResponseLogOptions {
  /** Storage: the log then holds in memory only what its readers have yet to read. */
  older?: OlderFrames;
  /** The memory bound the log shares with the other running logs. */
  budget?: LogBudget;
}

/**
 * An append-only, bounded list of frames in batches; frame ids are their sequence numbers. With
 * `older` (a running response's storage), it holds in memory only the frames its readers have yet
 * to read, and a reader that starts before them reads storage first; with a `budget`, what it
 * holds counts against that bound (`log-budget.ts`).
 *
 * @example
 * ```ts
 * const log = new ResponseLog({ maxFrames: 1000, maxBytes: 1 << 20 });
 * const cursor = log.open(-1);
 * log.append(["event: text\nid: 0\ndata: {}\n\n"]);
 * await cursor.read(); // { type: "frames", text: "event: text\nid: 0\n..." }
 * ```
 */
export class ResponseLog implements BudgetHolder {
  readonly #limits: ResponseLogLimits;
  readonly #older: OlderFrames | undefined;
  readonly #budget: LogBudget | undefined;
  readonly #batches: LogBatch[] = [];
  /** The next sequence number of each open cursor. */
  readonly #positions = new Set<Position>();
  /** Readers waiting for the next frame or the end, and the writer waiting for room. */
  #waiting: Array<() => void> = [];
  /** Sequence number of the oldest frame held (frames of `#batches[0]` before it are dropped). */
  #first = 0;
  #next = 0;
  #bytes = 0;
  /** Units of the batches in memory, whole: a batch partly read is held whole. */
  #held = 0;
  #done = false;

  /** Creates an empty log whose first frame will have sequence number `first`. */
  constructor(limits: ResponseLogLimits, first = 0, options: ResponseLogOptions = {}) {
    this.#limits = limits;
    this.#first = this.#next = first;
    this.#older = options.older;
    this.#budget = options.budget;
  }

  /**
   * A log of `batches` read back from storage by a fresh instance, trimmed to the bounds from
   * the newest frame; `done` when the stored log had ended.
   *
   * @example
   * ```ts
   * const log = ResponseLog.restore({ maxFrames: 1000, maxBytes: 1 << 20 }, [toBatch(7, ["id: 7\n\n"])], true);
   * log.canResumeAfter(6); // true
   * ```
   */
  static restore(limits: ResponseLogLimits, batches: readonly LogBatch[], done: boolean): ResponseLog {
    const log = new ResponseLog(limits, batches[0]?.first ?? 0);
    for (const batch of batches) log.#push(batch);
    log.#trim();
    log.#done = done;
    return log;
  }

  /** The next frame's sequence number (= frames appended so far). */
  get next(): number {
    return this.#next;
  }

  /** The oldest frame a reader can start at: held in memory, or kept in storage. */
  get first(): number {
    return this.#older ? Math.min(this.#first, this.#older.first()) : this.#first;
  }

  /** True once the response ended; no frame follows. */
  get done(): boolean {
    return this.#done;
  }

  /** How many cursors are open. */
  get readers(): number {
    return this.#positions.size;
  }

  /** UTF-16 units of frames held in memory (of whole batches). */
  get held(): number {
    return this.#held;
  }

  /** True while the log is past its bounds because a reader has yet to read the oldest frames. */
  get full(): boolean {
    const frames = this.#next - this.#first;
    return frames > 1 && (frames > this.#limits.maxFrames || this.#bytes > this.#limits.maxBytes);
  }

  /** Resolves once the log is no longer {@link ResponseLog.full} (a reader read on or left). */
  async room(): Promise<void> {
    while (this.full) await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /**
   * Appends `frames` as one batch from sequence number {@link ResponseLog.next}, dropping the
   * oldest read ones past the bounds; returns the batch (what is written to storage). Past the
   * budget, the readers that hold the most are cut. With `store`, the batch is given to it first:
   * if it throws (a storage fault), nothing is appended, so no reader sees a frame storage lacks.
   */
  append(frames: readonly string[], store?: (batch: LogBatch) => void): LogBatch {
    if (this.#done) throw new Error("The response log already ended.");
    const batch = toBatch(this.#next, frames);
    if (frames.length === 0) return batch;
    store?.(batch);
    this.#push(batch);
    this.#trim();
    this.#budget?.relieve();
    this.#wake();
    return batch;
  }

  /** The response ended. */
  finish(): void {
    this.#done = true;
    this.#wake();
  }

  /** The newest frame's text, if any is kept. */
  lastFrame(): string | undefined {
    const batch = this.#batches.at(-1);
    if (!batch || this.#next === this.#first) return undefined;
    const ends = batch.ends;
    return batch.text.slice(ends.length > 1 ? ends[ends.length - 2]! : 0);
  }

  /** True when every frame after `lastSeen` is still held (`-1`: from the start). */
  canResumeAfter(lastSeen: number): boolean {
    return lastSeen + 1 >= this.first && lastSeen < this.#next;
  }

  /** A cursor at the frame after `lastSeen`: the kept frames, then the live ones, no duplicate, no gap. */
  open(lastSeen: number): LogCursor {
    if (!this.canResumeAfter(lastSeen)) throw new RangeError("The frames after this one are no longer kept.");
    const position: Position = { at: lastSeen + 1 };
    this.#positions.add(position);
    const close = (): void => {
      if (!this.#positions.delete(position)) return;
      this.#trim();
      this.#wake();
    };
    const read = async (): Promise<LogStep> => {
      while (this.#positions.has(position) && position.at >= this.#next && !this.#done) {
        await new Promise<void>((resolve) => this.#waiting.push(resolve));
      }
      if (position.cut !== undefined) throw new Error(position.cut);
      if (!this.#positions.has(position) || position.at >= this.#next) return { type: "end" };
      const batch = position.at < this.#first ? this.#stored(position) : this.#batchOf(position.at);
      const from = position.at === batch.first ? 0 : batch.ends[position.at - batch.first - 1]!;
      position.at = batch.first + batch.ends.length;
      const full = this.full;
      if (full || this.#older) this.#trim();
      if (full) this.#wake();
      return { type: "frames", text: from === 0 ? batch.text : batch.text.slice(from) };
    };
    const onCut = (listener: (reason: string) => void): void => {
      position.onCut = listener;
    };
    return { read, close, onCut };
  }

  /**
   * Cuts the readers that hold the log {@link ResponseLog.full}: those yet to read a frame the
   * bounds would drop. Each is detached (its next read throws {@link LAGGED}) and told, then the
   * log drops what the bounds drop and the writer goes on. Returns how many were cut.
   */
  cutLaggards(): number {
    const keep = keepFrom(this.#batches, this.#first, this.#next, this.#bytes, this.#limits);
    return this.#cut((position) => position.at < keep, LAGGED);
  }

  /** Cuts the readers furthest behind (the budget's choice, {@link OVER_BUDGET}); returns how many. */
  cutSlowest(): number {
    let slowest = Number.POSITIVE_INFINITY;
    for (const position of this.#positions) slowest = Math.min(slowest, position.at);
    return this.#cut((position) => position.at === slowest, OVER_BUDGET);
  }

  #cut(which: (position: Position) => boolean, reason: string): number {
    let cut = 0;
    for (const position of [...this.#positions]) {
      if (!which(position)) continue;
      this.#positions.delete(position);
      position.cut = reason;
      cut++;
      position.onCut?.(reason);
    }
    this.#trim();
    this.#wake();
    return cut;
  }

  /** The stored batch holding `position`'s next frame (before those held); a dropped one cuts it. */
  #stored(position: Position): LogBatch {
    const batch = this.#older?.batchHolding(position.at);
    if (batch && batch.first + batch.ends.length > position.at) return batch;
    // Storage moved past it while it read: its frames are gone, as for a reader that lagged.
    this.#positions.delete(position);
    position.cut = LAGGED;
    this.#trim();
    throw new Error(LAGGED);
  }

  #push(batch: LogBatch): void {
    this.#batches.push(batch);
    this.#bytes += batch.text.length;
    this.#held += batch.text.length;
    this.#next = batch.first + batch.ends.length;
    this.#budget?.changed(this);
  }

  /** The batch holding frame `seq` (held): a binary search, since a long response has many. */
  #batchOf(seq: number): LogBatch {
    let low = 0;
    let high = this.#batches.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.#batches[middle]!.first <= seq) low = middle;
      else high = middle - 1;
    }
    return this.#batches[low]!;
  }

  /**
   * Drops the oldest frames that no open cursor still has to read: past the bounds, or, with
   * storage behind the log, all of them.
   */
  #trim(): void {
    let unread = this.#next;
    for (const position of this.#positions) unread = Math.min(unread, position.at);
    const before = this.#held;
    while (this.#first < unread && (this.#older !== undefined || this.full)) {
      const head = this.#batches[0]!;
      const index = this.#first - head.first;
      const start = index === 0 ? 0 : head.ends[index - 1]!;
      this.#bytes -= head.ends[index]! - start;
      this.#first++;
      if (this.#first === head.first + head.ends.length) this.#held -= this.#batches.shift()!.text.length;
    }
    if (this.#held !== before) this.#budget?.changed(this);
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}
