/**
 * The bounded log of one response's encoded SSE frames, with live subscribers: what a client
 * that reconnects with `Last-Event-ID` is served from. Frame `n` has SSE id `n`.
 *
 * @module
 */

/** Bounds of a {@link ResponseLog}. */
export interface ResponseLogLimits {
  /** Most frames kept; older ones are dropped and can no longer be resumed from. */
  maxFrames: number;
  /** Most bytes (UTF-16 units) of frames kept. */
  maxBytes: number;
}

/** Receives frames appended after it subscribed, and the end. */
export interface LogSubscriber {
  frame(text: string): void;
  end(): void;
}

/** An append-only, bounded list of frames; frame ids are their sequence numbers. */
export class ResponseLog {
  readonly #limits: ResponseLogLimits;
  readonly #frames: string[] = [];
  readonly #subscribers = new Set<LogSubscriber>();
  /** Sequence number of `#frames[0]`. */
  #first = 0;
  #bytes = 0;
  #done = false;

  /** Creates an empty log. */
  constructor(limits: ResponseLogLimits) {
    this.#limits = limits;
  }

  /** The next frame's sequence number (= frames appended so far). */
  get next(): number {
    return this.#first + this.#frames.length;
  }

  /** True once the response ended; no frame follows. */
  get done(): boolean {
    return this.#done;
  }

  /** How many clients are attached. */
  get subscribers(): number {
    return this.#subscribers.size;
  }

  /** Appends the frame for sequence number {@link ResponseLog.next} and sends it to subscribers. */
  append(text: string): void {
    this.#frames.push(text);
    this.#bytes += text.length;
    while (this.#frames.length > 1 && (this.#frames.length > this.#limits.maxFrames || this.#bytes > this.#limits.maxBytes)) {
      this.#bytes -= this.#frames.shift()!.length;
      this.#first++;
    }
    for (const subscriber of this.#subscribers) subscriber.frame(text);
  }

  /** The response ended. */
  finish(): void {
    this.#done = true;
    for (const subscriber of this.#subscribers) subscriber.end();
    this.#subscribers.clear();
  }

  /** True when every frame after `lastSeen` is still held (`-1`: from the start). */
  canResumeAfter(lastSeen: number): boolean {
    return lastSeen + 1 >= this.#first && lastSeen < this.next;
  }

  /** The frames after `lastSeen`, then the live ones: one subscription, no duplicate, no gap. */
  attach(lastSeen: number, subscriber: LogSubscriber): () => void {
    for (let seq = Math.max(lastSeen + 1, this.#first); seq < this.next; seq++) subscriber.frame(this.#frames[seq - this.#first]!);
    if (this.#done) {
      subscriber.end();
      return () => {};
    }
    this.#subscribers.add(subscriber);
    return () => void this.#subscribers.delete(subscriber);
  }
}
