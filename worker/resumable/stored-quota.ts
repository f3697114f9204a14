import type { KvStorage } from "./keyed-store.ts";

/**
 * What the stored `/v1/responses` responses of one pool object take, bounded
 * (`MAX_STORED_BYTES_PER_OBJECT`). An isolate stores all of its responses in one object
 * (`stored-response-pool.ts`), kept `STORE_TTL_MS` (30 days by default), and that object also runs
 * the resumable responses of its pool slot: unbounded, one client storing many large responses
 * filled the one database every other client of the object writes to (a SQLite-backed object
 * holds at most 10 GB; past it every write of the object fails). Past the bound a response is not
 * stored (it says `store: false`), and a request that asks for `store: true` is OpenAI's 429
 * `insufficient_quota` until a keep fits again (`stored-response-pool.ts`).
 *
 * The count is one row of the object's storage, written with the commit of the keeps it counts (no
 * read of its own on a keep: the object reads it once, then counts in memory); a deleted or
 * expired response gives back what its header says it took. Responses an older Worker stored
 * (a header without `bytes`) are counted by a walk of the object's expiry index, a page per commit
 * of keeps (`stored-count.ts`), which writes their `bytes` into their headers.
 *
 * @module
 */

/**
 * The row of the count. It sorts right after the expiry index's entries (`exp:<ms>:<id>`,
 * `expiries.ts`; `;` follows `:`), whose newest a keep writes in the same commit: the two rows share
 * a leaf page of the object's database, so a commit writes one page fewer than with the count
 * among the responses' rows (bench/load/stored-callgrind.ts).
 */
const USED_KEY = "exp;used";
/** Where an older Worker kept the count: read while {@link USED_KEY} is absent, deleted at the next save. */
const OLDER_USED_KEY = "stored:used";

/**
 * The bytes a stored response takes, as counted: two per UTF-16 unit of its text and its earlier
 * items, the most V8's serializer writes for a string (one per unit for a Latin-1 one): the bound
 * is never under what is written, and nothing is encoded to count it.
 *
 * @example
 * ```ts
 * storedBytes('{"id":"resp_1"}', "[]"); // 34
 * ```
 */
export function storedBytes(text: string, earlier: string | undefined): number {
  return BYTES_PER_UNIT * (text.length + (earlier?.length ?? 0));
}

/** Bytes counted per UTF-16 unit of a stored response (see {@link storedBytes}). */
export const BYTES_PER_UNIT = 2;

/**
 * The count of one object's stored bytes, read once, then kept in memory and written when it
 * changed ({@link StoredQuota.save}, in the commit of what changed it).
 *
 * @example
 * ```ts
 * const quota = new StoredQuota(ctx.storage.kv);
 * if (quota.take(storedBytes(text, earlier), limit)) writeKept(storage, op, now, bytes);
 * quota.save();
 * ```
 */
export class StoredQuota {
  readonly #kv: KvStorage;
  #used: number | undefined;
  #changed = false;
  /** The count was read from {@link OLDER_USED_KEY}: that row goes at the next save. */
  #older = false;

  /** The count in `kv`, an object's storage. */
  constructor(kv: KvStorage) {
    this.#kv = kv;
  }

  /** Bytes the object's stored responses take now. */
  get used(): number {
    if (this.#used === undefined) {
      const used = this.#kv.get(USED_KEY) as number | undefined;
      const older = used === undefined ? (this.#kv.get(OLDER_USED_KEY) as number | undefined) : undefined;
      this.#older = older !== undefined;
      this.#used = used ?? older ?? 0;
    }
    return this.#used;
  }

  /** Counts `bytes` more when the total stays within `limit` (true); else counts nothing (false). */
  take(bytes: number, limit: number): boolean {
    const used = this.used;
    if (used + bytes > limit) return false;
    this.#used = used + bytes;
    this.#changed = true;
    return true;
  }

  /** Counts `bytes` less: a stored response deleted, or one whose write failed. */
  give(bytes: number): void {
    if (bytes === 0) return;
    this.#used = Math.max(0, this.used - bytes);
    this.#changed = true;
  }

  /** Writes the count when it changed: once per commit, whatever it counted. */
  save(): void {
    if (!this.#changed) return;
    this.#kv.put(USED_KEY, this.#used);
    this.#changed = false;
    if (!this.#older) return;
    this.#kv.delete(OLDER_USED_KEY);
    this.#older = false;
  }

  /** Forgets the count: the object's storage was deleted whole. */
  cleared(): void {
    this.#used = 0;
    this.#changed = false;
    this.#older = false;
  }
}
