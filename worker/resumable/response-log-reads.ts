import {
  BATCH_PREFIX,
  batchKey,
  loadMeta,
  type FrameStore,
  type StoredLog,
  type StoredPart,
} from "./response-log-storage.ts";
import type { LogBatch } from "./log-batch.ts";

/**
 * Reading a response's stored log back (`response-log-storage.ts` writes it): whole, or one batch.
 *
 * @module
 */

/** Exact: a leading U+FEFF is kept; bytes that are not UTF-8 (a part lost mid-batch) are an incomplete log, not text. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const incomplete = (): Error => new Error("The stored response log is incomplete.");

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
  const stored: Array<{ first: number; parts: Uint8Array[]; ends: number[] }> = [];
  for (const [, value] of store.list({ prefix: BATCH_PREFIX })) {
    const part = value as StoredPart;
    const last = stored.at(-1);
    if (part.ends) {
      if (last && last.first + last.ends.length !== part.first) throw incomplete();
      stored.push({ first: part.first, parts: [part.bytes], ends: part.ends });
    } else if (last?.first === part.first) last.parts.push(part.bytes);
    else throw incomplete();
  }
  const batches = stored.map(({ first, parts, ends }): LogBatch => ({ first, text: decodeParts(parts, ends), ends }));
  return { meta, batches };
}

/** A batch's text from its parts, checked against its frame ends: a lost part is an incomplete log. */
function decodeParts(parts: readonly Uint8Array[], ends: readonly number[]): string {
  let text: string;
  try {
    text = STRICT_UTF8.decode(parts.length === 1 ? parts[0] : joined(parts));
  } catch {
    throw incomplete();
  }
  if (ends.at(-1) !== text.length) throw incomplete();
  return text;
}

/** One stored batch as a writer counts it ({@link storedBatches}): its frames, no text. */
export interface StoredBatchInfo {
  first: number;
  frames: number;
  /** UTF-16 units of its text. */
  units: number;
  /** Stored values it takes. */
  parts: number;
  ends: readonly number[];
}

/**
 * The stored batches of a log, in order, counted from their values one at a time: no text is
 * decoded, and no value is held past its turn (a log is up to `RESUME_MAX_BYTES`; what this
 * holds is the frame ends). What a writer needs to go on with a log another instance wrote.
 *
 * @example
 * ```ts
 * writer.resume(meta, storedBatches(store));
 * ```
 */
export function storedBatches(store: FrameStore): StoredBatchInfo[] {
  const batches: StoredBatchInfo[] = [];
  for (const [, value] of store.list({ prefix: BATCH_PREFIX })) {
    const part = value as StoredPart;
    const last = batches.at(-1);
    if (part.ends) {
      if (last && last.first + last.frames !== part.first) throw incomplete();
      batches.push({
        first: part.first,
        frames: part.ends.length,
        units: part.ends.at(-1) ?? 0,
        parts: 1,
        ends: part.ends,
      });
    } else if (last?.first === part.first) last.parts++;
    else throw incomplete();
  }
  return batches;
}

/**
 * The stored batch that holds frame `frame`, read alone (its parts, nothing else), or `undefined`
 * when no kept batch holds it: what a resume of a finished log reads, one batch per client read.
 *
 * @example
 * ```ts
 * const batch = loadBatchHolding(store, lastSeen + 1); // { first, text, ends } | undefined
 * ```
 */
export function loadBatchHolding(store: FrameStore, frame: number): LogBatch | undefined {
  // The last part of the batch with the greatest first frame at or before `frame`.
  const [found] = store.list({ prefix: BATCH_PREFIX, end: batchKey(frame + 1, 0), reverse: true, limit: 1 });
  if (!found) return undefined;
  const [key, last] = found as [string, StoredPart];
  const { first } = last;
  // A batch of one value (most are) is read once; a longer one, its earlier parts too.
  const parts = last.ends
    ? [last]
    : [...store.list({ start: batchKey(first, 0), end: key })].map(([, value]) => value as StoredPart).concat(last);
  const ends = parts[0]?.ends;
  if (!ends) throw incomplete();
  if (first + ends.length <= frame) return undefined;
  return {
    first,
    text: decodeParts(
      parts.map((part) => part.bytes),
      ends,
    ),
    ends,
  };
}

/** The parts of a batch as one array. */
function joined(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
