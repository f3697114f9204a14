/**
 * A provider body read into one buffer, reused from read to read: what the chain reads a
 * provider's body with when nothing keeps a chunk past the next read.
 *
 * @module
 */
import { type ChunkReader, chunkReader } from "../../src/core.ts";

/** The most bytes one read takes (as the library's `chunkReader`). */
const MAX_READ = 64 * 1024;
/** The least: the buffer of a body that sends a little at a time. */
const MIN_READ = 16 * 1024;

/**
 * A reader of a byte stream (a `fetch` body) whose chunks are valid only until the next `read()`:
 * each read fills the buffer the last chunk was read into, sized as the library's `chunkReader`
 * sizes its reads (16 KiB, doubling while reads fill it up to 64 KiB, halving while they use
 * little of it). The chain decodes each chunk before it asks for the next (every built-in framing
 * copies what it keeps of one), so a 1 MB body costs one buffer instead of one per read: in
 * workerd that is a fresh, zeroed ArrayBuffer per read and the collector's work on them, a third of
 * what reading the body in JavaScript costs over a pass-through. Any other stream is read with
 * `chunkReader`, whose chunks are the caller's to keep.
 *
 * @example
 * ```ts
 * const reader = reusingReader(response.body!);
 * for (let r = await reader.read(); !r.done; r = await reader.read()) framing.feed(r.value); // never kept
 * ```
 */
export function reusingReader(body: ReadableStream<Uint8Array>): ChunkReader {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = body.getReader({ mode: "byob" });
  } catch {
    return chunkReader(body);
  }
  let size = MIN_READ;
  /** The buffer of the last chunk: the next read's, while the size holds. */
  let buffer: ArrayBuffer | undefined;
  return {
    async read() {
      const view = buffer?.byteLength === size ? new Uint8Array(buffer) : new Uint8Array(size);
      buffer = undefined;
      const { done, value } = await reader.read(view);
      if (done || value === undefined) return { done: true, value: undefined };
      const used = value.byteLength;
      size = used * 2 > size ? Math.min(size * 2, MAX_READ) : used * 8 < size ? Math.max(size / 2, MIN_READ) : size;
      buffer = value.buffer;
      return { done: false, value };
    },
    cancel: (reason) => reader.cancel(reason),
  };
}
