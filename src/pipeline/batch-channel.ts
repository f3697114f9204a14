/** A read of a {@link BatchReader}: an array, or the end (spelled out, as `ChunkRead` is, for projects without the DOM lib). */
type BatchRead<T> = { done: false; value: T } | { done: true; value?: T | undefined };

/** What {@link batchReader} gives: a default reader's `read` and `cancel`, with their meaning. */
export interface BatchReader<T> {
  /** The next chunk; `done` at the end (and after `cancel`); rejects once the stream errored. */
  read(): Promise<{ done: false; value: T } | { done: true; value?: T | undefined }>;
  /** Cancels the stream at once, a `read` still waiting answered `done` (a chain's: the body, and so the fetch). */
  cancel(reason?: unknown): Promise<void>;
}

/** A `read()` waiting for an array. */
interface Waiter<T> {
  resolve: (read: BatchRead<T>) => void;
  reject: (error: unknown) => void;
}

const DONE: BatchRead<never> = { done: true, value: undefined };

/**
 * The channel of each stream `streamToolCallBatches` returned, until a direct reader takes it or
 * the stream ends: V8's minor collections keep a weak map's values (only a full collection clears
 * an entry whose key died), so an entry left here kept its request's whole chain through every
 * scavenge and into old space.
 */
const channels = new WeakMap<ReadableStream<unknown>, BatchChannel<unknown>>();

/**
 * A reader of `stream`, which it locks: for a stream of `streamToolCallBatches` that nothing has
 * read yet, one that takes the chain's arrays as the chain passes them on, with no read of the
 * stream per array (a read request, its promise and a pull through the runtime's stream: in
 * workerd, calls into native code for each); for any other stream, its default reader. Either
 * answers `read` and `cancel` as a default reader does: an array passed on answers the oldest
 * `read` waiting (at once, also when the write window's timer or an abort passes it on while the
 * chain waits on the body), the chain runs only while a `read` waits, and `cancel` cancels the
 * chain at once.
 *
 * @example
 * ```ts
 * const reader = batchReader(streamToolCallBatches(response, { provider: "openai" }));
 * for (let read = await reader.read(); !read.done; read = await reader.read()) send(read.value);
 * ```
 */
export function batchReader<T>(stream: ReadableStream<T>): BatchReader<T> {
  const direct = (channels.get(stream) as BatchChannel<T> | undefined)?.reader();
  return direct ?? (stream.getReader() as BatchReader<T>);
}

/**
 * How the arrays of one `streamToolCallBatches` reach their reader: through the stream's
 * controller, or to the reader of {@link batchReader}. `pull` runs the chain until it passed an
 * array on or ended (the stream's `pull`).
 */
export class BatchChannel<T> {
  /** The stream's controller; none for a {@link BatchChannel.source}, which has no stream. */
  #controller: ReadableStreamDefaultController<T> | undefined;
  #stream!: ReadableStream<T>;
  /** The direct reader, once there is one: it takes every array. */
  #direct: DirectReader<T> | undefined;
  /** The chain ended: nothing comes after what was passed on. */
  ended = false;
  /** The stream was closed or cancelled. */
  #closed = false;
  #pulling = false;
  readonly #pull: () => Promise<void>;

  constructor(pull: () => Promise<void>) {
    this.#pull = pull;
  }

  /** Passes one array on. */
  readonly emit = (batch: T): void => {
    if (this.#direct) this.#direct.deliver(batch);
    else this.#controller!.enqueue(batch);
  };

  /** The chain ended: no more arrays. */
  readonly close = (): void => {
    this.ended = true;
    this.#direct?.end();
    this.#closeController();
  };

  /** The stream of the arrays: `open` runs as its `start`, `cancel` as its `cancel`. */
  stream(open: () => Promise<void>, cancel: (reason: unknown) => Promise<void>): ReadableStream<T> {
    const stream = new ReadableStream<T>(
      {
        start: (controller) => {
          this.#controller = controller;
          return open();
        },
        pull: () => {
          this.#pulling = true;
          return this.#pull().finally(() => void (this.#pulling = false));
        },
        cancel: (reason) => {
          this.#closed = true;
          channels.delete(stream);
          return cancel(reason);
        },
      },
      { highWaterMark: 0 }, // produce only on demand: nothing runs ahead of the consumer
    );
    this.#stream = stream;
    channels.set(stream, this as BatchChannel<unknown>);
    return stream;
  }

  /**
   * The arrays with no stream at all, for a reader that never hands a stream on: `open` runs now
   * (a stream's `start`; `pull` waits for it), `cancel` once, unless the chain ended first.
   */
  source(open: () => Promise<void>, cancel: (reason: unknown) => Promise<void>): BatchReader<T> {
    const lock = {
      cancel: (reason: unknown): Promise<void> => {
        if (this.#closed) return Promise.resolve();
        this.#closed = true;
        return cancel(reason);
      },
    };
    this.#direct = new DirectReader(this, lock);
    open().catch(() => undefined); // a failed open fails the first read, whose pull awaits it
    return this.#direct;
  }

  /** A direct reader, when the stream is open, holds nothing, has no pull running and no reader. */
  reader(): DirectReader<T> | undefined {
    if (this.#closed || this.#pulling || this.#stream.locked || this.#controller!.desiredSize !== 0) return undefined;
    this.#direct = new DirectReader(this, this.#stream.getReader());
    channels.delete(this.#stream); // locked to its one reader: no other takes the channel
    return this.#direct;
  }

  /** Runs the chain for the direct reader. */
  pull(): Promise<void> {
    return this.#pull();
  }

  /** The chain failed under the direct reader: the stream errors, as a pull that throws errors it. */
  fail(error: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#controller) return;
    channels.delete(this.#stream);
    this.#controller.error(error);
  }

  #closeController(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#controller) return;
    channels.delete(this.#stream);
    this.#controller.close();
  }
}

/** The reader of {@link batchReader} for a stream of `streamToolCallBatches`. */
class DirectReader<T> implements BatchReader<T> {
  readonly #channel: BatchChannel<T>;
  /** The stream's own reader (it holds the lock, and cancels through the stream), or a source's cancel. */
  readonly #lock: Pick<ReadableStreamDefaultReader<T>, "cancel">;
  /** Arrays passed on while no `read` waited. */
  readonly #queue: T[] = [];
  readonly #waiters: Waiter<T>[] = [];
  #pulling = false;
  #state: "open" | "closed" | "errored" = "open";
  #error: unknown;

  constructor(channel: BatchChannel<T>, lock: Pick<ReadableStreamDefaultReader<T>, "cancel">) {
    this.#channel = channel;
    this.#lock = lock;
  }

  /** An array passed on: to the oldest `read` waiting, else kept for the next one. */
  deliver(batch: T): void {
    if (this.#state !== "open") return;
    const waiter = this.#waiters.shift();
    if (waiter) waiter.resolve({ done: false, value: batch });
    else this.#queue.push(batch);
  }

  /** The chain ended: `read`s waiting (none while arrays are kept) are answered `done`. */
  end(): void {
    for (const waiter of this.#waiters.splice(0)) waiter.resolve(DONE);
  }

  read(): Promise<BatchRead<T>> {
    if (this.#queue.length > 0) return Promise.resolve({ done: false, value: this.#queue.shift()! });
    if (this.#state === "errored") return Promise.reject(this.#error);
    if (this.#state === "closed" || this.#channel.ended) return Promise.resolve(DONE);
    const read = new Promise<BatchRead<T>>((resolve, reject) => this.#waiters.push({ resolve, reject }));
    this.#pull();
    return read;
  }

  cancel(reason?: unknown): Promise<void> {
    if (this.#state === "errored") return Promise.reject(this.#error);
    this.#state = "closed";
    this.#queue.length = 0;
    this.end();
    return this.#lock.cancel(reason);
  }

  /** Runs the chain while a `read` waits and no run is on, as a stream pulls for a waiting read. */
  #pull(): void {
    if (this.#pulling) return;
    this.#pulling = true;
    this.#channel.pull().then(
      () => {
        this.#pulling = false;
        if (this.#waiters.length > 0 && this.#state === "open") this.#pull();
      },
      (error: unknown) => {
        this.#pulling = false;
        if (this.#state !== "open") return;
        this.#state = "errored";
        this.#error = error;
        this.#channel.fail(error);
        for (const waiter of this.#waiters.splice(0)) waiter.reject(error);
      },
    );
  }
}
