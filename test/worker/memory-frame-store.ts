import type { FrameStore } from "../../worker/resumable/response-log-storage.ts";

/** A `FrameStore` in memory (a Durable Object's synchronous KV API): `list` sorted by key, as storage lists. */
export function memoryFrameStore(): FrameStore & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return {
    values,
    get: (key) => values.get(key),
    put: (key, value) => void values.set(key, value),
    delete: (key) => values.delete(key),
    list: ({ prefix = "" } = {}) =>
      [...values].filter(([key]) => key.startsWith(prefix)).sort(([a], [b]) => (a < b ? -1 : 1)),
  };
}
