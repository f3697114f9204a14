import type { KvStorage } from "./keyed-store.ts";

/**
 * When each response of a pool object is dropped, in the object's storage: an index sorted by
 * time (`exp:<ms>:<id>`, the one alarm of the object set for its earliest entry) and each
 * response's own entry (`exp-of:<id>`), so that a later time replaces the earlier one.
 *
 * @example
 * ```ts
 * const expiries = new Expiries(ctx.storage.kv);
 * if (expiries.set(id, Date.now() + ttl)) await ctx.storage.setAlarm(expiries.next()!);
 * ```
 */
export class Expiries {
  readonly #kv: KvStorage;

  /** The index in `kv`. */
  constructor(kv: KvStorage) {
    this.#kv = kv;
  }

  /**
   * Response `id` is dropped at `at` (no earlier: an earlier time is replaced). True when the
   * object's alarm must move to {@link Expiries.next}: this entry is now the earliest.
   */
  set(id: string, at: number): boolean {
    const earlier = this.#kv.get(ownKey(id));
    if (typeof earlier === "number") this.#kv.delete(indexKey(earlier, id));
    this.#kv.put(indexKey(at, id), id);
    this.#kv.put(ownKey(id), at);
    return this.next() === at;
  }

  /** The responses whose time has come by `now`, earliest first. */
  due(now: number): string[] {
    const ids: string[] = [];
    for (const [, id] of this.#kv.list({ start: INDEX, end: indexKey(now + 1, "") })) ids.push(id as string);
    return ids;
  }

  /** Forgets response `id`'s entry (it was dropped). */
  forget(id: string): void {
    const at = this.#kv.get(ownKey(id));
    if (typeof at === "number") this.#kv.delete(indexKey(at, id));
    this.#kv.delete(ownKey(id));
  }

  /** The earliest time in the index, or `undefined` when it is empty. */
  next(): number | undefined {
    for (const [key] of this.#kv.list({ prefix: INDEX, limit: 1 }))
      return Number(key.slice(INDEX.length, INDEX.length + 15));
    return undefined;
  }
}

const INDEX = "exp:";
/** Times are zero-padded to 15 digits, so the keys sort by time. */
const indexKey = (at: number, id: string): string => `${INDEX}${String(at).padStart(15, "0")}:${id}`;
const ownKey = (id: string): string => `exp-of:${id}`;
