/** What an async iterator of the platform's `ReadableStream` takes (`values(options)`). */
interface IteratorOptions {
  preventCancel?: boolean | undefined;
}

type Result<T> = IteratorResult<T, undefined>;

const DONE: Result<never> = { done: true, value: undefined };

/**
 * How the events of one `streamToolCalls` reach its consumer: through the returned stream's
 * controller, or, while `for await` reads the stream, straight to its iterator.
 *
 * The stream stays the platform's `ReadableStream` (readers, `pipeTo`, `tee` go through its
 * queue as ever), but its async iterator is replaced by a {@link DirectIterator}: a platform
 * iterator costs a reader's read per event (a read request, a promise through the stream's
 * queue, a pull check, and in Node an async step more), which was a third of what the chain
 * costs per event; this one hands out the chain's events from a plain array, and only runs the
 * chain (what `pull` runs) when that is empty. It holds the stream's lock as the platform's does,
 * cancels through the stream on `return()` (unless `preventCancel`), and leaves the stream closed
 * and unlocked at the end; where the stream already holds events, is closed, or a pull is running,
 * the platform's iterator reads it instead.
 */
export class EventChannel<T> {
  #controller!: ReadableStreamDefaultController<T>;
  /** The events made for the direct iterator, from `head`; `undefined` while the stream takes them. */
  #queue: T[] | undefined;
  #head = 0;
  /** The chain ended: no event comes after those made. */
  #ended = false;
  /** `close()` was called on the controller. */
  #closed = false;
  #pulling = false;
  readonly #step: () => Promise<void>;
  /** How many events were passed on: a step runs until this grew or the chain ended. */
  emitted = 0;

  /** `step` runs the chain until it made an event or ended (the stream's `pull`). */
  constructor(step: () => Promise<void>) {
    this.#step = step;
  }

  /** Passes one event on. */
  readonly emit = (event: T): void => {
    this.emitted++;
    if (this.#queue) this.#queue.push(event);
    else this.#controller.enqueue(event);
  };

  /** The chain ended: no more events. */
  readonly close = (): void => {
    this.#ended = true;
    if (!this.#queue) this.#closeController();
  };

  /**
   * The stream of the events, with the direct iterator (as `values()` and `[Symbol.asyncIterator]()`):
   * `open` runs as its `start` (the chain's `emit` and `close` may be called from then on),
   * `cancel` as its `cancel`.
   */
  stream(open: () => Promise<void>, cancel: (reason: unknown) => Promise<void>): ReadableStream<T> {
    const stream = new ReadableStream<T>(
      {
        start: (controller) => {
          this.#controller = controller;
          return open();
        },
        pull: async () => {
          this.#pulling = true;
          try {
            await this.#step();
          } finally {
            this.#pulling = false;
          }
        },
        cancel,
      },
      { highWaterMark: 0 }, // produce only on demand: nothing runs ahead of the consumer
    );
    const platform = (Object.getPrototypeOf(stream) as { values?: unknown })[Symbol.asyncIterator as never] as
      | ((this: ReadableStream<T>, options?: IteratorOptions) => AsyncIterator<T>)
      | undefined;
    if (typeof platform !== "function") return stream;
    const values = (options?: IteratorOptions): AsyncIterator<T> => {
      // Only a stream that holds nothing, is open and has no pull running is read directly: then
      // every event still to come is made on the iterator's demand.
      const direct = !this.#closed && !this.#pulling && this.#controller.desiredSize === 0;
      if (!direct) return platform.call(stream, options);
      const reader = stream.getReader(); // throws for a locked stream, as the platform's does
      this.#queue = [];
      this.#head = 0;
      return new DirectIterator(this, reader, options?.preventCancel === true);
    };
    for (const key of [Symbol.asyncIterator, "values"])
      Object.defineProperty(stream, key, { value: values, writable: true, configurable: true });
    return stream;
  }

  /**
   * The events go to a reader with no stream at all (`EventReader`, for a reader that never hands
   * a stream on), not through the controller: there is no stream.
   */
  source(): void {
    this.#queue = [];
    this.#head = 0;
  }

  /** The chain ended: no event comes after those made. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The next event made, or `undefined` when there is none yet (or `null` at the end). */
  take(): T | undefined | null {
    const queue = this.#queue!;
    if (this.#head < queue.length) {
      const event = queue[this.#head++]!;
      if (this.#head === queue.length) queue.length = this.#head = 0;
      return event;
    }
    return this.#ended ? null : undefined;
  }

  /** Runs the chain for the direct iterator. */
  step(): Promise<void> {
    return this.#step();
  }

  /**
   * The direct iterator is done: events go through the stream again (those it did not hand out
   * first, for a `preventCancel` iterator's `return()`), which is closed if the chain ended.
   */
  release(error?: { error: unknown }): void {
    const queue = this.#queue!;
    this.#queue = undefined;
    if (error) return this.#controller.error(error.error);
    for (let i = this.#head; i < queue.length; i++) this.#controller.enqueue(queue[i]!);
    if (this.#ended) this.#closeController();
  }

  #closeController(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#controller.close();
  }
}

/**
 * The async iterator of `streamToolCalls`' stream while nothing else reads it: see
 * {@link EventChannel}. Calls of `next` and `return` are answered in order, as the platform's.
 */
class DirectIterator<T> implements AsyncIterator<T, undefined> {
  readonly #channel: EventChannel<T>;
  readonly #reader: ReadableStreamDefaultReader<T>;
  readonly #preventCancel: boolean;
  /** The last answer that waits for the chain, which later calls wait for in turn. */
  #ongoing: Promise<Result<T>> | undefined;
  #done = false;

  constructor(channel: EventChannel<T>, reader: ReadableStreamDefaultReader<T>, preventCancel: boolean) {
    this.#channel = channel;
    this.#reader = reader;
    this.#preventCancel = preventCancel;
  }

  next(): Promise<Result<T>> {
    // Without an answer waiting, answered at once (no closure made per event).
    return this.#ongoing ? this.#after(() => this.#next()) : this.#next();
  }

  return(value?: undefined): Promise<Result<T>> {
    return this.#after(() => this.#return(value));
  }

  /** Answers with `answer` now, or once the answer still waiting for the chain has settled. */
  #after(answer: () => Promise<Result<T>>): Promise<Result<T>> {
    const ongoing = this.#ongoing;
    return ongoing ? this.#track(ongoing.then(answer, answer)) : answer();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #next(): Promise<Result<T>> {
    // Once done, nothing is taken: the channel gives its events to the stream again.
    const event = this.#done ? null : this.#channel.take();
    if (event === null) return this.#end();
    if (event !== undefined) return Promise.resolve({ done: false, value: event });
    return this.#track(
      this.#channel.step().then(
        () => {
          // A step ends once it made an event or the chain ended (or the stream was cancelled).
          const made = this.#channel.take();
          return made === null || made === undefined ? this.#end() : { done: false, value: made };
        },
        (error: unknown) => {
          this.#finish({ error });
          throw error;
        },
      ),
    );
  }

  #return(value: undefined): Promise<Result<T>> {
    if (this.#done) return Promise.resolve({ done: true, value });
    this.#done = true;
    const reader = this.#reader;
    this.#channel.release();
    const cancelled = this.#preventCancel ? Promise.resolve() : reader.cancel(value);
    return cancelled.then(() => {
      reader.releaseLock();
      return { done: true, value };
    });
  }

  #end(): Promise<Result<T>> {
    if (!this.#done) this.#finish();
    return Promise.resolve(DONE);
  }

  /** Makes `answer` the one later calls wait for, until it settles. */
  #track(answer: Promise<Result<T>>): Promise<Result<T>> {
    this.#ongoing = answer;
    const settled = (): void => {
      if (this.#ongoing === answer) this.#ongoing = undefined;
    };
    answer.then(settled, settled);
    return answer;
  }

  #finish(error?: { error: unknown }): void {
    this.#done = true;
    this.#channel.release(error);
    this.#reader.releaseLock();
  }
}
