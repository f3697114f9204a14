import { Expiries } from "./expiries.ts";
import { deleteResponse } from "./keyed-store.ts";
import type { StoredQuota } from "./stored-quota.ts";
import { keptBytes } from "./stored-responses.ts";

/**
 * What the alarm of a pool object (`response-buffer.ts`) does: drop the responses whose time to
 * live has passed, then wait for the next expiry.
 *
 * @module
 */

/**
 * Drops each finished log (and a run's tool records) whose time to live has passed at `now`; one
 * that is `live` (still running, or being opened again: a retry of a run a restart cut, whose
 * records must outlive it) is kept `resumeTtlMs` more; a stored response gives back what it
 * counted in `quota`. Then arms the alarm for the next expiry.
 *
 * @example
 * ```ts
 * await expireDue(ctx.storage, Date.now(), settings.resumeTtlMs, (id) => running.has(id), () => running.size === 0);
 * ```
 */
export async function expireDue(
  storage: DurableObjectStorage,
  now: number,
  resumeTtlMs: number,
  live: (id: string) => boolean,
  idle: () => boolean,
  quota?: StoredQuota,
): Promise<void> {
  const { kv } = storage;
  const expiries = new Expiries(kv);
  for (const { id, at } of expiries.due(now)) {
    if (live(id)) {
      expiries.set(id, now + resumeTtlMs);
    } else {
      quota?.give(keptBytes(kv, id));
      deleteResponse(kv, id);
      expiries.forget(id, at);
    }
  }
  quota?.save();
  const next = expiries.next();
  if (next !== undefined) await storage.setAlarm(next);
  // Nothing left to expire, so nothing here is kept: this also clears an object of the
  // one-per-response layout (its keys unprefixed, no index), whose own alarm lands here.
  else if (idle()) {
    await storage.deleteAll();
    quota?.cleared();
  }
}
