import type { LogBatch, ResponseLogLimits } from "./log-batch.ts";

/** A batch as the writer keeps count of it (`response-log-reads.ts` counts stored ones so). */
interface KeptBatch {
  first: number;
  frames: number;
  units: number;
  parts: number;
  ends: readonly number[];
}

/**
 * A response's log in its Durable Object's storage, written as it runs, one value per batch of
 * frames (the events ready when the upstream pauses, see `response-buffer.ts`), so that a resume
 * still works after the object was restarted or evicted: mid-response it serves everything written before the cut (the
 * Durable Object then ends the log, see `response-buffer.ts`), and once finished the whole kept
 * log until `RESUME_TTL_MS` passes. A finished log lives here only, not in memory.
 *
 * Why the synchronous KV API (`ctx.storage.kv`), one put per batch:
 * - A batch is the unit the response moves in anyway: no write per frame (a billed row per token),
 *   no await in the writer (puts are synchronous; the output gate holds the answer until they are
 *   durable, so a client never sees a frame that storage would lose).
 * - Bounded like the log in memory: batches wholly older than the newest `RESUME_MAX_EVENTS`
 *   frames or `RESUME_MAX_BYTES` are deleted as newer ones are written, and loading trims to the
 *   frame. A batch is stored as its UTF-8 bytes, split into values of at most
 *   {@link CHUNK_BYTES}, far below the 2 MB key+value limit of SQLite-backed objects whatever one
 *   frame weighs (local workerd does not enforce that limit).
 * - UTF-8, not the string: V8 serializes a string that holds any character past Latin-1 at two
 *   bytes a unit, so arguments with one accent or emoji doubled what was written (measured:
 *   docs/benchmarks-history.md). Frames are well-formed text (their JSON escapes lone surrogates), so the bytes
 *   decode back exactly, and a value may end inside a character: the parts are joined before
 *   decoding.
 * - Reads are synchronous too, so a fresh instance rebuilds the log inside the resume request,
 *   and `deleteAll()` (the expiry alarm) removes all of it.
 *
 * @module
 */

/**
 * Most bytes of a batch's UTF-8 text in one stored value.
 *
 * @example
 * ```ts
 * splitBytes(new Uint8Array(CHUNK_BYTES + 1)).length; // 2
 * ```
 */
export const CHUNK_BYTES = 512 * 1024;

const META_KEY = "log:meta";
const UTF8 = new TextEncoder();
/** The keys of the stored batches start with this. */
export const BATCH_PREFIX = "log:b:";
/** Keys sort by batch, then part: sequence numbers and part indexes are zero-padded. */
export const batchKey = (first: number, part: number): string =>
  `${BATCH_PREFIX}${String(first).padStart(12, "0")}:${String(part).padStart(5, "0")}`;

/** What kind of response a log holds: it says how an interrupted one is ended. */
export type LogKind = "stream" | "run";

/** A response's stored header: written when it starts, and again, `done`, when it ends. */
export interface StoredMeta {
  /** Format version (3: batches stored as UTF-8 bytes). */
  version: 3;
  /** `/v1/stream` or `/v1/run`. */
  kind: LogKind;
  /** The headers of the event-stream answer. */
  headers: Record<string, string>;
  /** The bounds the log ran with: a fresh instance serves it with the same. */
  limits: ResponseLogLimits;
  /** True once the log ended; a log that is not done in a fresh instance was cut by a restart. */
  done: boolean;
  /** True when it ended because a restart cut it (a run retried then runs again). */
  interrupted?: true;
  /**
   * Once done: the oldest frame kept and the frame after the last, so that a resume is served from
   * the batch holding its next frame on, never by loading the whole log (absent in logs an older
   * Worker wrote, and in one a restart cut until its first resume ends it: those are loaded whole).
   */
  window?: { first: number; next: number };
}

/** The stored log: its header and its batches. */
export interface StoredLog {
  /** The header. */
  meta: StoredMeta;
  /** The kept batches, in order. */
  batches: LogBatch[];
}

/** One stored value: a part of a batch's UTF-8 text (the first part also carries the frame ends, in UTF-16 units). */
export interface StoredPart {
  first: number;
  bytes: Uint8Array;
  ends?: number[];
}

/** The options of `SyncKvStorage.list` used here: `start` inclusive, `end` exclusive, in key order or `reverse`. */
export interface KvListOptions {
  prefix?: string;
  start?: string;
  end?: string;
  reverse?: boolean;
  limit?: number;
}

/** The part of `SyncKvStorage` (`ctx.storage.kv`) used here. */
export interface FrameStore {
  get(key: string): unknown;
  put(key: string, value: unknown): void;
  delete(key: string): boolean;
  list(options?: KvListOptions): Iterable<[string, unknown]>;
}

/**
 * `bytes` cut into pieces of at most `size` bytes (the last may be shorter), anywhere, even inside
 * a character. Each piece has a buffer of its own (a stored view would store its whole buffer);
 * bytes that fit in one piece are returned as they are.
 *
 * @example
 * ```ts
 * splitBytes(new TextEncoder().encode("abcde"), 2).map((part) => part.length); // [2, 2, 1]
 * ```
 */
export function splitBytes(bytes: Uint8Array, size: number = CHUNK_BYTES): Uint8Array[] {
  if (bytes.length <= size) return [bytes];
  const parts: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size) parts.push(bytes.slice(start, start + size));
  return parts;
}

/**
 * Writes one response's log as it runs, bounded: {@link LogWriter.begin}, then
 * {@link LogWriter.append} per batch, {@link LogWriter.end} at the end. The caller runs the
 * calls in a `transactionSync` where several must land together.
 *
 * @example
 * ```ts
 * const writer = new LogWriter(keyedStore(ctx.storage.kv, id), limits);
 * writer.begin("stream", headers);
 * writer.append(log.append(frames));
 * writer.end();
 * ```
 */
export class LogWriter {
  readonly #store: FrameStore;
  readonly #limits: ResponseLogLimits;
  readonly #chunkBytes: number;
  /** The batches written and not yet deleted, oldest first. */
  readonly #kept: KeptBatch[] = [];
  #frames = 0;
  #units = 0;
  #meta: StoredMeta | undefined;

  /** A writer over `store`, keeping what `limits` allow. */
  constructor(store: FrameStore, limits: ResponseLogLimits, chunkBytes: number = CHUNK_BYTES) {
    this.#store = store;
    this.#limits = limits;
    this.#chunkBytes = chunkBytes;
  }

  /** The kind of the log begun or resumed (how an interrupted one is ended). */
  get kind(): LogKind | undefined {
    return this.#meta?.kind;
  }

  /** Writes the header of a running log; with `replacing`, deletes the earlier log first (a run retried after a restart cut it). */
  begin(kind: LogKind, headers: Record<string, string>, replacing = false): void {
    if (replacing) deleteResponseLog(this.#store);
    this.#meta = { version: 3, kind, headers, limits: this.#limits, done: false };
    this.#store.put(META_KEY, this.#meta);
  }

  /**
   * Goes on with a log another instance wrote (cut by a restart, or ended by an older Worker
   * without its window): its stored `batches`, in order, counted as if written here (the oldest
   * past the bounds deleted), never read whole.
   */
  resume(meta: StoredMeta, batches: Iterable<KeptBatch>): void {
    this.#meta = meta;
    for (const batch of batches) this.#keep(batch);
  }

  /** Writes one batch, and deletes the oldest batches that fell out of the bounds. */
  append(batch: LogBatch): void {
    if (batch.ends.length === 0) return;
    const parts = splitBytes(UTF8.encode(batch.text), this.#chunkBytes);
    parts.forEach((bytes, part) =>
      this.#store.put(
        batchKey(batch.first, part),
        (part === 0
          ? { first: batch.first, bytes, ends: batch.ends }
          : { first: batch.first, bytes }) satisfies StoredPart,
      ),
    );
    this.#keep({
      first: batch.first,
      frames: batch.ends.length,
      units: batch.text.length,
      parts: parts.length,
      ends: batch.ends,
    });
  }

  /** Counts a batch written, and deletes the oldest that fell out of the bounds. */
  #keep(batch: KeptBatch): void {
    this.#kept.push(batch);
    this.#frames += batch.frames;
    this.#units += batch.units;
    // The oldest batch goes once the newer ones alone fill the bounds: none of its frames is kept.
    while (this.#kept.length > 1) {
      const oldest = this.#kept[0]!;
      if (this.#frames - oldest.frames < this.#limits.maxFrames && this.#units - oldest.units < this.#limits.maxBytes)
        break;
      this.#kept.shift();
      this.#frames -= oldest.frames;
      this.#units -= oldest.units;
      for (let part = 0; part < oldest.parts; part++) this.#store.delete(batchKey(oldest.first, part));
    }
  }

  /**
   * Marks the log ended (`interrupted`: by a restart), with the window of frames it keeps, so that
   * later resumes read it a batch at a time, not whole.
   */
  end(interrupted = false): void {
    if (!this.#meta) throw new Error("The response log was never begun.");
    this.#meta = {
      ...this.#meta,
      done: true,
      ...(interrupted ? { interrupted: true as const } : {}),
      window: this.window(),
    };
    this.#store.put(META_KEY, this.#meta);
  }

  /**
   * The frames a resume may start after, as `ResponseLog.restore` trims the stored batches: the
   * newest within the bounds, the newest frame whatever its size. Only the oldest kept batch can
   * hold frames past them (the rest were deleted whole), so this walks at most that batch.
   */
  window(): { first: number; next: number } {
    const oldest = this.#kept[0];
    if (!oldest) return { first: 0, next: 0 };
    const next = oldest.first + this.#frames;
    let first = oldest.first;
    let units = this.#units;
    while (next - first > 1 && (next - first > this.#limits.maxFrames || units > this.#limits.maxBytes)) {
      const index = first - oldest.first;
      if (index >= oldest.ends.length) break;
      units -= oldest.ends[index]! - (index === 0 ? 0 : oldest.ends[index - 1]!);
      first++;
    }
    return { first, next };
  }
}

/**
 * The stored header of a log, or `undefined` when none was written (the response never started
 * here, or it expired).
 *
 * @example
 * ```ts
 * if (loadMeta(store)?.done) serveFromStorage();
 * ```
 */
export function loadMeta(store: FrameStore): StoredMeta | undefined {
  return store.get(META_KEY) as StoredMeta | undefined;
}

/**
 * Deletes a stored log (not the tool results a run recorded beside it).
 *
 * @example
 * ```ts
 * deleteResponseLog(keyedStore(ctx.storage.kv, id));
 * ```
 */
export function deleteResponseLog(store: FrameStore): void {
  for (const [key] of [...store.list({ prefix: "log:" })]) store.delete(key);
}
