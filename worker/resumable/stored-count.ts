import { Expiries } from "./expiries.ts";
import type { KvStorage } from "./keyed-store.ts";
import type { StoredQuota } from "./stored-quota.ts";
import { countOlder } from "./stored-responses.ts";

/**
 * The stored `/v1/responses` responses an older Worker kept, before their object counted its
 * stored bytes (`MAX_STORED_BYTES_PER_OBJECT`, `stored-quota.ts`): nothing counted them, so an
 * object could hold the bound and, beside it, whatever they took (up to the database's 10 GB) for
 * their `STORE_TTL_MS`. They are counted once, a page at a time: each commit of keeps first walks
 * {@link PAGE} more entries of the object's expiry index (one per stored response or resumable
 * log), and counts each older response it finds (`countOlder`: its header and at most two pieces
 * read), so no request pays for the whole walk. Where it stopped is a row of its own, and so is
 * its end, after which a keep reads nothing for it (the end is remembered in memory too). A
 * response kept meanwhile is counted as it is kept, one an older Worker kept is counted by the
 * walk, so none twice.
 *
 * @module
 */

/** Entries of the expiry index walked per commit at most: a header holds up to 512 Ki characters, so 8 Mi read at most. */
const PAGE = 16;
/** The row of the index entry the walk stopped after. */
const CURSOR_KEY = "stored:count-cursor";
/** The row that says the walk ended: every older response is counted. */
const DONE_KEY = "stored:count-done";

/**
 * The walk that counts an object's older stored responses.
 *
 * @example
 * ```ts
 * const older = new OlderStoredCount(ctx.storage.kv);
 * older.step(quota); // before the keeps of a commit take their bytes
 * quota.save();
 * ```
 */
export class OlderStoredCount {
  readonly #kv: KvStorage;
  readonly #page: number;
  #done: boolean | undefined;

  /** The walk of `kv`, an object's storage, `page` index entries per step. */
  constructor(kv: KvStorage, page: number = PAGE) {
    this.#kv = kv;
    this.#page = page;
  }

  /** Walks one page more, counting each older response in `quota`; nothing once the walk ended. */
  step(quota: StoredQuota): void {
    this.#done ??= this.#kv.get(DONE_KEY) === true;
    if (this.#done) return;
    const cursor = this.#kv.get(CURSOR_KEY) as string | undefined;
    const entries = new Expiries(this.#kv).page(cursor, this.#page);
    for (const [, id] of entries) {
      const bytes = countOlder(this.#kv, id);
      if (bytes !== undefined) quota.take(bytes, Number.POSITIVE_INFINITY);
    }
    if (entries.length < this.#page) {
      this.#done = true;
      this.#kv.put(DONE_KEY, true);
      this.#kv.delete(CURSOR_KEY);
    } else this.#kv.put(CURSOR_KEY, entries[entries.length - 1]![0]);
  }
}
