import type { FrameStore, KvListOptions } from "./response-log-storage.ts";

/** The part of `SyncKvStorage` (`ctx.storage.kv`) a {@link keyedStore} reads. */
export interface KvStorage {
  get(key: string): unknown;
  put(key: string, value: unknown): void;
  delete(key: string): boolean;
  list(options?: KvListOptions): Iterable<[string, unknown]>;
}

/**
 * One response's view of its pool object's storage: every key under `r:<id>:`, so the log
 * writer, the loader and the tool records of one response never see another's, and
 * {@link deleteResponse} drops all of it.
 *
 * @example
 * ```ts
 * const store = keyedStore(ctx.storage.kv, id);
 * store.put("log:meta", meta); // stored as `r:<id>:log:meta`
 * ```
 */
export function keyedStore(kv: KvStorage, id: string): FrameStore {
  const base = prefixOf(id);
  return {
    get: (key) => kv.get(base + key),
    put: (key, value) => kv.put(base + key, value),
    delete: (key) => kv.delete(base + key),
    *list(options) {
      const { prefix = "", start, end, ...rest } = options ?? {};
      const range = {
        prefix: base + prefix,
        ...(start !== undefined ? { start: base + start } : {}),
        ...(end !== undefined ? { end: base + end } : {}),
        ...rest,
      };
      for (const [key, value] of kv.list(range)) yield [key.slice(base.length), value];
    },
  };
}

/**
 * Deletes everything response `id` stored (its log, a run's body and tool records).
 *
 * @example
 * ```ts
 * deleteResponse(ctx.storage.kv, id);
 * ```
 */
export function deleteResponse(kv: KvStorage, id: string): void {
  for (const [key] of [...kv.list({ prefix: prefixOf(id) })]) kv.delete(key);
}

const prefixOf = (id: string): string => `r:${id}:`;
