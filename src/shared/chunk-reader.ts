/** The most bytes one read takes from a byte stream. */
const READ_BYTES = 64 * 1024;

/** What the chain reads a body with: a default reader's `read` and `cancel`. */
export interface ChunkReader {
  /** The next chunk; `done` at the end. */
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  /** Cancels the body (and with a fetch body, the request). */
  cancel(reason?: unknown): Promise<void>;
}

/**
 * A reader of `body` that, when it is a byte stream (a `fetch` body in every runtime), takes in
 * each read every byte the body has ready, up to 64 KiB, into a buffer of its own (a BYOB read).
 * A read never waits for more than its first byte, so nothing leaves later than with a default
 * reader; but where the runtime hands a fast upstream over in small pieces (workerd gives a fetch
 * body about 4 KiB per read), the chain and whatever follows it see a few large chunks instead of
 * many small ones, and each chunk costs every stage (and a response body's pump) one pass. A
 * small read is copied out, so its large buffer is used again by the next read instead of being
 * held by the chunk. Any other stream is read with its default reader.
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
  let spare: ArrayBuffer | undefined;
  return {
    async read() {
      const buffer = spare ?? new ArrayBuffer(READ_BYTES);
      spare = undefined;
      const { done, value } = await reader.read(new Uint8Array(buffer));
      if (done || value === undefined) return { done: true, value: undefined };
      if (value.byteLength * 4 >= READ_BYTES) return { done: false, value };
      spare = value.buffer as ArrayBuffer;
      return { done: false, value: value.slice() };
    },
    cancel: (reason) => reader.cancel(reason),
  };
}
