/**
 * What a response's log is made of and how it is read (`response-log.ts` keeps it): its bounds,
 * its batches of frames, the cursors of its readers, and why a reader is cut.
 *
 * @module
 */

/** Bounds of a `ResponseLog`. */
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

/** A reader's position in a `ResponseLog`. */
export interface LogCursor {
  /** The next step; waits while the response is running and every frame so far was read. A closed cursor reads `end`, a cut one throws. */
  read(): Promise<LogStep>;
  /** Detaches the reader (idempotent). */
  close(): void;
  /** Calls `listener` once, with why ({@link LAGGED}, {@link OVER_BUDGET}), if the log cuts this reader. */
  onCut?(listener: (reason: string) => void): void;
}

/** What a reader cut for lagging reads: its client must resume (its frames may be dropped). */
export const LAGGED =
  "The client read nothing for too long while the response's log was full; resume with Last-Event-ID.";

/** What a reader cut by the isolate's memory bound (`log-budget.ts`) reads: its client resumes from storage. */
export const OVER_BUDGET =
  "The memory for the clients that lag behind resumable responses was full, and this client held the most; resume with Last-Event-ID.";

/** The frames of a running log before those it holds in memory: its storage. */
export interface OlderFrames {
  /** The oldest frame storage keeps. */
  first(): number;
  /** The stored batch that holds `frame`, or `undefined` once it is dropped. */
  batchHolding(frame: number): LogBatch | undefined;
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
 * The oldest frame `limits` keep in a log holding `batches` (frames `first` to `next - 1`, `bytes`
 * units of them), whoever still has to read the older ones: the newest frames within the bounds,
 * the newest whatever its size.
 *
 * @example
 * ```ts
 * keepFrom([toBatch(0, ["a", "b", "c"])], 0, 3, 3, { maxFrames: 2, maxBytes: 100 }); // 1
 * ```
 */
export function keepFrom(
  batches: readonly LogBatch[],
  first: number,
  next: number,
  bytes: number,
  limits: ResponseLogLimits,
): number {
  let batch = 0;
  while (next - first > 1 && (next - first > limits.maxFrames || bytes > limits.maxBytes)) {
    const head = batches[batch]!;
    const index = first - head.first;
    bytes -= head.ends[index]! - (index === 0 ? 0 : head.ends[index - 1]!);
    first++;
    if (first === head.first + head.ends.length) batch++;
  }
  return first;
}
