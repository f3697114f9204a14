/** The most bytes one read takes from a byte stream. */
const MAX_READ = 64 * 1024;
/** The least: the buffer of a body that sends a little at a time (what a waiting read holds). */
const MIN_READ = 16 * 1024;

/**
 * A read of a {@link ChunkReader}: a chunk, or the end. Spelled out rather than the DOM lib's
 * `ReadableStreamReadResult`, which a Node-only project (`lib: ["ES2022"]`, `types: ["node"]`)
 * does not have.
 */
export type ChunkRead = { done: false; value: Uint8Array } | { done: true; value?: Uint8Array | undefined };

/** What the chain reads a body with: a default reader's `read` and `cancel`. */
export interface ChunkReader {
  /** The next chunk; `done` at the end. */
  read(): Promise<ChunkRead>;
  /** Cancels the body (and with a fetch body, the request). */
  cancel(reason?: unknown): Promise<void>;
}

/**
 * A reader of `body` that, when it is a byte stream (a `fetch` body in workerd, Node and Deno, and
 * in browsers with BYOB readers), takes in each read every byte the body has ready, up to 64 KiB,
 * into a buffer of its own (a BYOB read).
 * A read never waits for more than its first byte, so nothing leaves later than with a default
 * reader; but where the runtime hands a fast upstream over in small pieces (workerd gives a fetch
 * body about 4 KiB per read), the chain and whatever follows it see a few large chunks instead of
 * many small ones, and each chunk costs every stage (and a response body's pump) one pass.
 *
 * Memory stays that of the data: the buffer starts at 16 KiB, doubles while reads fill it and
 * halves again while they use little of it, so a body that sends a little at a time holds 16 KiB
 * while it waits; a read that used less than a quarter of its buffer is copied out, so a chunk
 * never holds a buffer much larger than itself, and the buffer it was copied from serves the next
 * read (a model streaming token by token costs no buffer per read). Any other stream is read with its default reader.
 *
 * @example
 * ```ts
 * const reader = chunkReader(response.body!);
 * for (let r = await reader.read(); !r.done; r = await reader.read()) feed(r.value);
 * ```
 */
export function chunkReader(body: ReadableStream<Uint8Array>): ChunkReader {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = body.getReader({ mode: "byob" });
  } catch {
    return body.getReader();
  }
  let size = MIN_READ;
  /** The buffer the last small read was copied out of: the next read's, while the size holds. */
  let spare: Uint8Array<ArrayBuffer> | undefined;
  return {
    async read() {
      const view: Uint8Array<ArrayBuffer> = spare?.byteLength === size ? spare : new Uint8Array(size);
      spare = undefined;
      const { done, value } = await reader.read(view);
      if (done || value === undefined) return { done: true, value: undefined };
      const used = value.byteLength;
      const buffer = size;
      size =
        used * 2 > buffer
          ? Math.min(buffer * 2, MAX_READ)
          : used * 8 < buffer
            ? Math.max(buffer / 2, MIN_READ)
            : buffer;
      if (used * 4 >= buffer) return { done: false, value };
      // Token by token every read is small: one buffer serves them all, not a fresh one zeroed per read.
      spare = new Uint8Array(value.buffer);
      return { done: false, value: value.slice() };
    },
    cancel: (reason) => reader.cancel(reason),
  };
}
