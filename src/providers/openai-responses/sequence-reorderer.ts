/**
 * Puts events back in `sequence_number` order within a bounded window (OpenAI Responses).
 *
 * Events are released in order as soon as they are contiguous. A number already released or
 * buffered is an exact duplicate and is dropped. When the window is full, or the input ends,
 * while a number is still missing, the gap is reported through `onGap` and the buffered events
 * go on in order: a number that never comes is never waited for. An event that arrives after
 * its place was given up is dropped (its gap was reported). Events without a number pass through.
 *
 * @example
 * ```ts
 * const released: string[] = [];
 * const reorderer = new SequenceReorderer<string>(64, (event) => released.push(event), (from, to) => console.warn("gap", from, to));
 * reorderer.push(0, "a");
 * reorderer.push(2, "c");
 * reorderer.push(1, "b");
 * reorderer.flush(); // released: ["a", "b", "c"]
 * ```
 */
export class SequenceReorderer<T> {
  readonly #window: number;
  readonly #release: (event: T) => void;
  readonly #onGap: (from: number, to: number) => void;
  readonly #buffer = new Map<number, T>();
  #next: number | undefined;

  /** `window` is the most events held while waiting for a missing one. */
  constructor(window: number, release: (event: T) => void, onGap: (from: number, to: number) => void) {
    this.#window = window;
    this.#release = release;
    this.#onGap = onGap;
  }

  /** Accepts one event with its sequence number (anything but a number, such as `undefined`: it has none). */
  push(sequence: unknown, event: T): void {
    if (typeof sequence !== "number" || this.next(sequence)) return this.#release(event);
    if (sequence < this.#next! || this.#buffer.has(sequence)) return;
    this.#buffer.set(sequence, event);
    this.#drain();
    if (this.#buffer.size > this.#window) this.#skipGap();
  }

  /**
   * The common case of {@link SequenceReorderer.push}, for a caller that builds its event only
   * when it must wait: true (the number taken, the event the caller's to handle now) when
   * `sequence` is the next one and nothing is held, else false, nothing changed but the stream's
   * first number noted (then `push` the event).
   */
  next(sequence: number): boolean {
    // The stream's numbering starts at its first event (the Responses API starts at 0).
    this.#next ??= sequence;
    if (sequence !== this.#next || this.#buffer.size) return false;
    this.#next++;
    return true;
  }

  /** The input ended: report any gap and release everything still held, in order. */
  flush(): void {
    while (this.#buffer.size) this.#skipGap();
  }

  #drain(): void {
    while (this.#buffer.has(this.#next!)) {
      const event = this.#buffer.get(this.#next!) as T;
      this.#buffer.delete(this.#next!++);
      this.#release(event);
    }
  }

  #skipGap(): void {
    const lowest = Math.min(...this.#buffer.keys());
    this.#onGap(this.#next!, lowest - 1);
    this.#next = lowest;
    this.#drain();
  }
}
