import type { KvStorage } from "./keyed-store.ts";

/**
 * When each response of a pool object is dropped, in the object's storage: an index sorted by
 * time (`exp:<ms>:<id>`, the one alarm of the object set for its earliest entry) and, for a
 * response whose time may move (a resumable log), its own entry (`exp-of:<id>`), so that a later
 * time replaces the earlier one. A stored `/v1/responses` response, whose time never moves, has
 * the index entry alone ({@link Expiries.add}): one write.
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

  /**
   * Response `id`, which has no entry yet and whose time never moves (a stored response, its id
   * just minted), is dropped at `at`: the index entry alone, no read and no own entry. The caller
   * moves the alarm when it is later than `at` (the alarm is never later than the earliest entry).
   */
  add(id: string, at: number): void {
    this.#kv.put(indexKey(at, id), id);
  }

  /** The responses whose time has come by `now`, earliest first, each with its time. */
  due(now: number): { id: string; at: number }[] {
    const entries: { id: string; at: number }[] = [];
    for (const [key, id] of this.#kv.list({ start: INDEX, end: indexKey(now + 1, "") }))
      entries.push({ id: id as string, at: timeOf(key) });
    return entries;
  }

  /** Forgets response `id`'s entry (it was dropped); `at`, its time, for one {@link Expiries.add} made. */
  forget(id: string, at?: number): void {
    const own = this.#kv.get(ownKey(id));
    if (typeof own === "number") this.#kv.delete(indexKey(own, id));
    if (at !== undefined && at !== own) this.#kv.delete(indexKey(at, id));
    this.#kv.delete(ownKey(id));
  }

  /** At most `limit` entries of the index after entry `cursor` (from its start without), in order: their keys and ids. */
  page(cursor: string | undefined, limit: number): [string, string][] {
    const start = cursor === undefined ? INDEX : `${cursor}\u0000`;
    return [...this.#kv.list({ prefix: INDEX, start, limit })].map(([key, id]) => [key, id as string]);
  }

  /** The earliest time in the index, or `undefined` when it is empty. */
  next(): number | undefined {
    for (const [key] of this.#kv.list({ prefix: INDEX, limit: 1 })) return timeOf(key);
    return undefined;
  }
}

const INDEX = "exp:";
/** Times are zero-padded to 15 digits, so the keys sort by time. */
const indexKey = (at: number, id: string): string => `${INDEX}${String(at).padStart(15, "0")}:${id}`;
const ownKey = (id: string): string => `exp-of:${id}`;
const timeOf = (key: string): number => Number(key.slice(INDEX.length, INDEX.length + 15));
