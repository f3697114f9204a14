import type { LogBatch, ResponseLogLimits } from "./response-log.ts";

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
 *   frame. A batch's text is split into values of at most {@link CHUNK_UNITS} UTF-16 units
 *   (V8-serialized: at most 2 bytes a unit), far below the 2 MB key+value limit of SQLite-backed
 *   objects whatever one frame weighs. Local workerd does not enforce that limit.
 * - V8 serialization keeps every string exactly, so a value may end between the two halves of a
 *   surrogate pair; SQL `TEXT` would convert to UTF-8 and needs a schema.
 * - Reads are synchronous too, so a fresh instance rebuilds the log inside the resume request,
 *   and `deleteAll()` (the expiry alarm) removes all of it.
 *
 * @module
 */

/**
 * Most UTF-16 units of frame text in one stored value.
 *
 * @example
 * ```ts
 * splitText("x".repeat(CHUNK_UNITS + 1)).length; // 2
 * ```
 */
export const CHUNK_UNITS = 256 * 1024;

const META_KEY = "log:meta";
const BATCH_PREFIX = "log:b:";
/** Keys sort by batch, then part: sequence numbers and part indexes are zero-padded. */
const batchKey = (first: number, part: number): string => `${BATCH_PREFIX}${String(first).padStart(12, "0")}:${String(part).padStart(5, "0")}`;

/** What kind of response a log holds: it says how an interrupted one is ended. */
export type LogKind = "stream" | "run";

/** A response's stored header: written when it starts, and again, `done`, when it ends. */
export interface StoredMeta {
  /** Format version. */
  version: 2;
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
}

/** The stored log: its header and its batches. */
export interface StoredLog {
  /** The header. */
  meta: StoredMeta;
  /** The kept batches, in order. */
  batches: LogBatch[];
}

/** One stored value: a part of a batch's text (the first part also carries the frame ends). */
interface StoredPart {
  first: number;
  text: string;
  ends?: number[];
}

/** The part of `SyncKvStorage` (`ctx.storage.kv`) used here. */
export interface FrameStore {
  get(key: string): unknown;
  put(key: string, value: unknown): void;
  delete(key: string): boolean;
  list(options?: { prefix?: string }): Iterable<[string, unknown]>;
}

/**
 * `text` cut into pieces of at most `units` UTF-16 units (the last may be shorter).
 *
 * @example
 * ```ts
 * splitText("abcde", 2); // ["ab", "cd", "e"]
 * ```
 */
export function splitText(text: string, units: number = CHUNK_UNITS): string[] {
  const parts: string[] = [];
  for (let start = 0; start < text.length || start === 0; start += units) parts.push(text.slice(start, start + units));
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
  readonly #chunkUnits: number;
  /** The batches written and not yet deleted, oldest first. */
  readonly #kept: Array<{ first: number; frames: number; units: number; parts: number }> = [];
  #frames = 0;
  #units = 0;
  #meta: StoredMeta | undefined;

  /** A writer over `store`, keeping what `limits` allow. */
  constructor(store: FrameStore, limits: ResponseLogLimits, chunkUnits: number = CHUNK_UNITS) {
    this.#store = store;
    this.#limits = limits;
    this.#chunkUnits = chunkUnits;
  }

  /** Writes the header of a running log; with `replacing`, deletes the earlier log first (a run retried after a restart cut it). */
  begin(kind: LogKind, headers: Record<string, string>, replacing = false): void {
    if (replacing) deleteResponseLog(this.#store);
    this.#meta = { version: 2, kind, headers, limits: this.#limits, done: false };
    this.#store.put(META_KEY, this.#meta);
  }

  /** Goes on writing a log loaded back from storage (to end one a restart cut). */
  reopen(meta: StoredMeta): void {
    this.#meta = meta;
  }

  /** Writes one batch, and deletes the oldest batches that fell out of the bounds. */
  append(batch: LogBatch): void {
    if (batch.ends.length === 0) return;
    const parts = splitText(batch.text, this.#chunkUnits);
    parts.forEach((text, part) => this.#store.put(batchKey(batch.first, part), part === 0 ? { first: batch.first, text, ends: batch.ends } : { first: batch.first, text }));
    this.#kept.push({ first: batch.first, frames: batch.ends.length, units: batch.text.length, parts: parts.length });
    this.#frames += batch.ends.length;
    this.#units += batch.text.length;
    // The oldest batch goes once the newer ones alone fill the bounds: none of its frames is kept.
    while (this.#kept.length > 1) {
      const oldest = this.#kept[0]!;
      if (this.#frames - oldest.frames < this.#limits.maxFrames && this.#units - oldest.units < this.#limits.maxBytes) break;
      this.#kept.shift();
      this.#frames -= oldest.frames;
      this.#units -= oldest.units;
      for (let part = 0; part < oldest.parts; part++) this.#store.delete(batchKey(oldest.first, part));
    }
  }

  /** Marks the log ended (`interrupted`: by a restart). */
  end(interrupted = false): void {
    if (!this.#meta) throw new Error("The response log was never begun.");
    this.#meta = { ...this.#meta, done: true, ...(interrupted ? { interrupted: true as const } : {}) };
    this.#store.put(META_KEY, this.#meta);
  }
}

/**
 * The stored log, or `undefined` when none was written (never started here, or expired and
 * deleted). It may hold a few frames past the bounds (those sharing a batch with kept ones):
 * `ResponseLog.restore` trims them.
 *
 * @example
 * ```ts
 * const stored = loadResponseLog(keyedStore(ctx.storage.kv, id)); // { meta, batches } | undefined
 * ```
 */
export function loadResponseLog(store: FrameStore): StoredLog | undefined {
  const meta = loadMeta(store);
  if (meta === undefined) return undefined;
  const batches: LogBatch[] = [];
  for (const [, value] of store.list({ prefix: BATCH_PREFIX })) {
    const part = value as StoredPart;
    const last = batches.at(-1);
    if (part.ends) {
      if (last && last.first + last.ends.length !== part.first) throw new Error("The stored response log is incomplete.");
      batches.push({ first: part.first, text: part.text, ends: part.ends });
    } else if (last?.first === part.first) last.text += part.text;
    else throw new Error("The stored response log is incomplete.");
  }
  for (const batch of batches) if (batch.ends.at(-1) !== batch.text.length) throw new Error("The stored response log is incomplete.");
  return { meta, batches };
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
