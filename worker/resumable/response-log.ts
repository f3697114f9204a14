/**
 * The bounded log of one response's encoded SSE frames, read by cursors: what a client that
 * reconnects with `Last-Event-ID` is served from. Frame `n` has SSE id `n`.
 *
 * Frames come in batches (every event ready from one upstream chunk) and are kept as one string
 * per batch with the offsets where its frames end, so that a reader is served one chunk per batch
 * and a resume in the middle of a batch still starts exactly at the frame after `Last-Event-ID`.
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

/** Consecutive frames as one string: frame `first + i` ends at `text` offset `ends[i]`. */
export interface LogBatch {
  /** Sequence number (SSE id) of the first frame. */
  first: number;
  /** The frames, concatenated. */
  text: string;
  /** Where each frame ends in `text`, ascending; the last is `text.length`. */
  ends: number[];
}

/** What a {@link LogCursor} reads next. */
export type LogStep =
  /** The next frames, in order: the rest of one batch. */
  | { type: "frames"; text: string }
  /** The response ended and every frame was read. */
  | { type: "end" };

/** A reader's position in a {@link ResponseLog}. */
export interface LogCursor {
  /** The next step; waits while the response is running and every frame so far was read. A closed cursor reads `end`, a cut one throws. */
  read(): Promise<LogStep>;
  /** Detaches the reader (idempotent). */
  close(): void;
  /** Calls `listener` once if the log cuts this reader ({@link ResponseLog.cutLaggards}): it lagged too long. */
  onCut?(listener: () => void): void;
}

/** What a cut reader's next read throws: its client must resume (its frames may be dropped). */
export const LAGGED =
  "The client read nothing for too long while the response's log was full; resume with Last-Event-ID.";

/** An open cursor's state: its next frame, and what runs if the log cuts it. */
interface Position {
  at: number;
  cut: boolean;
  onCut?: (() => void) | undefined;
}

/**
 * The batch of `frames` from sequence number `first`.
 *
 * @example
 * ```ts
 * toBatch(3, ["a", "bc"]); // { first: 3, text: "abc", ends: [1, 3] }
 * ```
 */
export function toBatch(first: number, frames: readonly string[]): LogBatch {
  const ends: number[] = [];
  let length = 0;
  for (const frame of frames) ends.push((length += frame.length));
  return { first, text: frames.join(""), ends };
}

/**
 * An append-only, bounded list of frames in batches; frame ids are their sequence numbers.
 *
 * @example
 * ```ts
 * const log = new ResponseLog({ maxFrames: 1000, maxBytes: 1 << 20 });
 * const cursor = log.open(-1);
 * log.append(["event: text\nid: 0\ndata: {}\n\n"]);
 * await cursor.read(); // { type: "frames", text: "event: text\nid: 0\n..." }
 * ```
 */
export class ResponseLog {
  readonly #limits: ResponseLogLimits;
  readonly #batches: LogBatch[] = [];
  /** The next sequence number of each open cursor. */
  readonly #positions = new Set<Position>();
  /** Readers waiting for the next frame or the end, and the writer waiting for room. */
  #waiting: Array<() => void> = [];
  /** Sequence number of the oldest frame kept (frames of `#batches[0]` before it are dropped). */
  #first = 0;
  #next = 0;
  #bytes = 0;
  #done = false;

  /** Creates an empty log whose first frame will have sequence number `first`. */
  constructor(limits: ResponseLogLimits, first = 0) {
    this.#limits = limits;
    this.#first = this.#next = first;
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
    const frames = this.#next - this.#first;
    return frames > 1 && (frames > this.#limits.maxFrames || this.#bytes > this.#limits.maxBytes);
  }

  /** Resolves once the log is no longer {@link ResponseLog.full} (a reader read on or left). */
  async room(): Promise<void> {
    while (this.full) await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /**
   * Appends `frames` as one batch from sequence number {@link ResponseLog.next}, dropping the
   * oldest read ones past the bounds; returns the batch (what is written to storage).
   */
  append(frames: readonly string[]): LogBatch {
    if (this.#done) throw new Error("The response log already ended.");
    const batch = toBatch(this.#next, frames);
    if (frames.length === 0) return batch;
    this.#push(batch);
    this.#trim();
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
    return lastSeen + 1 >= this.#first && lastSeen < this.#next;
  }

  /** A cursor at the frame after `lastSeen`: the kept frames, then the live ones, no duplicate, no gap. */
  open(lastSeen: number): LogCursor {
    if (!this.canResumeAfter(lastSeen)) throw new RangeError("The frames after this one are no longer kept.");
    const position: Position = { at: lastSeen + 1, cut: false };
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
      if (position.cut) throw new Error(LAGGED);
      if (!this.#positions.has(position) || position.at >= this.#next) return { type: "end" };
      const batch = this.#batchOf(position.at);
      const from = position.at === batch.first ? 0 : batch.ends[position.at - batch.first - 1]!;
      position.at = batch.first + batch.ends.length;
      if (this.full) {
        this.#trim();
        this.#wake();
      }
      return { type: "frames", text: from === 0 ? batch.text : batch.text.slice(from) };
    };
    const onCut = (listener: () => void): void => {
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
    const keep = this.#keepFrom();
    let cut = 0;
    for (const position of [...this.#positions]) {
      if (position.at >= keep) continue;
      this.#positions.delete(position);
      position.cut = true;
      cut++;
      position.onCut?.();
    }
    this.#trim();
    this.#wake();
    return cut;
  }

  #push(batch: LogBatch): void {
    this.#batches.push(batch);
    this.#bytes += batch.text.length;
    this.#next = batch.first + batch.ends.length;
  }

  /** The batch holding frame `seq` (kept): a binary search, since a long response has many. */
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

  /** The oldest frame the bounds keep, whoever still has to read the older ones. */
  #keepFrom(): number {
    let first = this.#first;
    let bytes = this.#bytes;
    let batch = 0;
    const over = (): boolean => {
      const frames = this.#next - first;
      return frames > 1 && (frames > this.#limits.maxFrames || bytes > this.#limits.maxBytes);
    };
    while (over()) {
      const head = this.#batches[batch]!;
      const index = first - head.first;
      bytes -= head.ends[index]! - (index === 0 ? 0 : head.ends[index - 1]!);
      first++;
      if (first === head.first + head.ends.length) batch++;
    }
    return first;
  }

  /** Drops the oldest frames past the bounds that no open cursor still has to read. */
  #trim(): void {
    let unread = Number.POSITIVE_INFINITY;
    for (const position of this.#positions) unread = Math.min(unread, position.at);
    while (this.full && this.#first < unread) {
      const head = this.#batches[0]!;
      const index = this.#first - head.first;
      const start = index === 0 ? 0 : head.ends[index - 1]!;
      this.#bytes -= head.ends[index]! - start;
      this.#first++;
      if (this.#first === head.first + head.ends.length) this.#batches.shift();
    }
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}
