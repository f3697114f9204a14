/**
 * A finished response's kept frames in its Durable Object's storage, so that a resume still
 * works after the idle object was evicted (its memory gone) and before `RESUME_TTL_MS` passes.
 *
 * Why the synchronous KV API (`ctx.storage.kv`) and not SQL or per-event writes:
 * - The frames are written once, when the response ends, in one `transactionSync`: the in-flight
 *   path writes nothing (a write per event would be a billed row per token, for a log that only
 *   matters after an idle eviction, which the pending provider fetch prevents while the response
 *   runs; a restart of the object mid-response still loses its log).
 * - Frames are packed into chunks of at most {@link CHUNK_UNITS} UTF-16 units: a full 8 MiB log
 *   is a few dozen rows, not one per frame, and each value (V8-serialized: at most 2 bytes a
 *   unit, plus a few bytes per frame end, and an SSE frame is tens of units at least) stays far
 *   below the 2 MB key+value limit of SQLite-backed objects whatever one frame weighs (a frame
 *   larger than a chunk spans several). Local workerd does not enforce that limit.
 * - V8 serialization keeps every string exactly, so a chunk may end between the two halves of
 *   a surrogate pair; SQL `TEXT` would convert to UTF-8 and needs a schema.
 * - Reads are synchronous too, so a fresh instance rebuilds the log inside the resume request
 *   with no await, and `deleteAll()` (the expiry alarm) removes all of it.
 *
 * @module
 */

/**
 * Frames per chunk value at most, in UTF-16 units (V8 stores at most 2 bytes a unit).
 *
 * @example
 * ```ts
 * packFrames(frames).every((chunk) => chunk.text.length <= CHUNK_UNITS); // true
 * ```
 */
export const CHUNK_UNITS = 256 * 1024;

const META_KEY = "log:meta";
const chunkKey = (index: number): string => `log:chunk:${index}`;

/** The kept frames of a finished response: frame `first + i` is `frames[i]`. */
export interface StoredLog {
  /** Sequence number (SSE id) of `frames[0]`. */
  first: number;
  /** The frames, in order. */
  frames: string[];
  /** The headers of the event-stream answer. */
  headers: Record<string, string>;
}

/** One storage value: a run of frame text and where frames end in it. */
export interface StoredChunk {
  /** Frame text; the last frame may continue in the next chunk. */
  text: string;
  /** Offsets in `text` where a frame ends, ascending. */
  ends: number[];
}

interface StoredMeta {
  version: 1;
  first: number;
  frameCount: number;
  chunkCount: number;
  headers: Record<string, string>;
}

/** The part of `SyncKvStorage` (`ctx.storage.kv`) used here. */
export interface FrameStore {
  get(key: string): unknown;
  put(key: string, value: unknown): void;
}

/**
 * Packs frames into chunks of at most `chunkUnits` UTF-16 units, splitting a longer frame.
 *
 * @example
 * ```ts
 * packFrames(["ab", "cde"], 4); // [{ text: "abcd", ends: [2] }, { text: "e", ends: [1] }]
 * ```
 */
export function packFrames(frames: readonly string[], chunkUnits: number = CHUNK_UNITS): StoredChunk[] {
  const chunks: StoredChunk[] = [];
  let parts: string[] = [];
  let length = 0;
  let ends: number[] = [];
  const flush = (): void => {
    chunks.push({ text: parts.join(""), ends });
    parts = [];
    length = 0;
    ends = [];
  };
  for (const frame of frames) {
    let offset = 0;
    do {
      const take = Math.min(chunkUnits - length, frame.length - offset);
      parts.push(frame.slice(offset, offset + take));
      length += take;
      offset += take;
      if (offset === frame.length) ends.push(length);
      if (length === chunkUnits) flush();
    } while (offset < frame.length);
  }
  if (parts.length > 0 || ends.length > 0) flush();
  return chunks;
}

/**
 * The frames back from {@link packFrames}' chunks, in order.
 *
 * @example
 * ```ts
 * unpackFrames(packFrames(["ab", "cde"], 4)); // ["ab", "cde"]
 * ```
 */
export function unpackFrames(chunks: readonly StoredChunk[]): string[] {
  const frames: string[] = [];
  let open = "";
  for (const { text, ends } of chunks) {
    let start = 0;
    for (const end of ends) {
      frames.push(open + text.slice(start, end));
      open = "";
      start = end;
    }
    open += text.slice(start);
  }
  if (open !== "") throw new Error("The stored response log ends inside a frame.");
  return frames;
}

/**
 * Writes a finished response's kept frames in one transaction (the caller bounds them: the
 * log's own limits). Meta goes last, so a log without it was never written.
 *
 * @example
 * ```ts
 * storage.transactionSync(() => saveResponseLog(storage.kv, { first: 0, frames, headers }));
 * ```
 */
export function saveResponseLog(store: FrameStore, log: StoredLog, chunkUnits: number = CHUNK_UNITS): void {
  const chunks = packFrames(log.frames, chunkUnits);
  chunks.forEach((chunk, index) => store.put(chunkKey(index), chunk));
  const meta: StoredMeta = { version: 1, first: log.first, frameCount: log.frames.length, chunkCount: chunks.length, headers: log.headers };
  store.put(META_KEY, meta);
}

/**
 * The stored log, or `undefined` when none was written (never finished here, or expired and
 * deleted).
 *
 * @example
 * ```ts
 * const stored = loadResponseLog(ctx.storage.kv); // { first, frames, headers } | undefined
 * ```
 */
export function loadResponseLog(store: FrameStore): StoredLog | undefined {
  const meta = store.get(META_KEY) as StoredMeta | undefined;
  if (meta === undefined) return undefined;
  const chunks = Array.from({ length: meta.chunkCount }, (_, index) => store.get(chunkKey(index)) as StoredChunk | undefined);
  const frames = chunks.every((chunk) => chunk !== undefined) ? unpackFrames(chunks) : [];
  if (frames.length !== meta.frameCount) throw new Error("The stored response log is incomplete.");
  return { first: meta.first, frames, headers: meta.headers };
}
