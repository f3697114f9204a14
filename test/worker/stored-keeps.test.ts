// StoredKeeps: the stored responses a pool object gets in one turn are written together, each
// answered once written (found, or not for an id that is not a response id), each readable after;
// past the bound of one commit, the rest are written in the next turns all the same. Commits are
// counted: keeps that come together in one, one each past a bound of one response. After a commit of
// several responses the next keep waits a little for others (its timer asked for more than 0 ms), after
// a commit of one only a turn; a keep the isolate sends alone, after a commit of one, no wait at all.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { objectNameOf } from "../../worker/resumable/response-id.ts";
import { StoredKeeps } from "../../worker/resumable/stored-keeps.ts";
import { OlderStoredCount } from "../../worker/resumable/stored-count.ts";
import { StoredQuota } from "../../worker/resumable/stored-quota.ts";
import { storedResponseOp, writeKept } from "../../worker/resumable/stored-responses.ts";
import { newTestResponseId, objectOf, testMac } from "./support.ts";

/** Keeps in `storage` that record the wait each keep asks for, and write at the next turn all the same. */
function recordingKeeps(storage: DurableObjectStorage): { keeps: StoredKeeps; waits: number[] } {
  const waits: number[] = [];
  const keeps = new StoredKeeps(storage, undefined, (write, ms) => {
    waits.push(ms);
    setTimeout(write, 0);
  });
  return { keeps, waits };
}

describe("StoredKeeps", () => {
  it("keeps that come together are each written and answered; one of an id that is not a response id is not", async () => {
    const first = newTestResponseId();
    const name = objectNameOf(first)!;
    await runInDurableObject(objectOf(first), async (_instance, state) => {
      // All in one commit; then a bound of 10 characters: one response per commit.
      for (const maxLength of [Number.MAX_SAFE_INTEGER, 10]) {
        const ids = [1, 2, 3, 4].map(() => `${name}.${crypto.randomUUID()}.${testMac()}`);
        // Each commit moves the alarm once (keepAlarmBy): its reads of the alarm count the commits.
        let commits = 0;
        const storage = new Proxy(state.storage, {
          get(target, key) {
            if (key === "getAlarm") commits++;
            const value = Reflect.get(target, key, target);
            return typeof value === "function" ? value.bind(target) : value;
          },
        });
        const keeps = new StoredKeeps(storage, maxLength);
        const keep = (id: string) =>
          keeps.keep({ type: "keep", id, owner: "o", text: `{"id":"${id}"}`, earlier: "[]", ttlMs: 60_000 });
        const answers = await Promise.all([...ids.map(keep), keep("not-a-response-id")]);
        expect(answers).toEqual([1, 2, 3, 4, 5].map((n) => ({ type: "done", found: n < 5 })));
        expect(commits).toBe(maxLength === 10 ? 4 : 1);
        const read = await storedResponseOp(
          state.storage,
          { type: "read", ids, withEarlier: ids, owner: "o", maxLength: 1_000_000 },
          Date.now(),
        );
        expect(read).toEqual({ type: "texts", texts: ids.map((id) => ({ text: `{"id":"${id}"}`, earlier: "[]" })) });
        expect(await state.storage.getAlarm()).toBeLessThanOrEqual(Date.now() + 60_000);
      }
    });
  });

  it("after a commit of several responses the next keep waits a little for others; after a commit of one, a turn", async () => {
    const first = newTestResponseId();
    const name = objectNameOf(first)!;
    await runInDurableObject(objectOf(first), async (_instance, state) => {
      const { keeps, waits } = recordingKeeps(state.storage);
      const keep = () =>
        keeps.keep({
          type: "keep",
          id: `${name}.${crypto.randomUUID()}.${testMac()}`,
          owner: "o",
          text: "{}",
          ttlMs: 60_000,
        });
      expect(await Promise.all([keep(), keep()])).toEqual([0, 1].map(() => ({ type: "done", found: true })));
      expect(await keep()).toEqual({ type: "done", found: true });
      expect(await keep()).toEqual({ type: "done", found: true });
      // The first keep: a turn; after the commit of two: a wait; after the commit of one: a turn.
      expect(waits.map((ms) => ms > 0)).toEqual([false, true, false]);
    });
  });

  it("a keep sent alone is written at once after a commit of one, and waits as any after a commit of several", async () => {
    const first = newTestResponseId();
    const name = objectNameOf(first)!;
    await runInDurableObject(objectOf(first), async (_instance, state) => {
      const { keeps, waits } = recordingKeeps(state.storage);
      const ids: string[] = [];
      const keep = (alone: boolean) => {
        const id = `${name}.${crypto.randomUUID()}.${testMac()}`;
        ids.push(id);
        return keeps.keep({ type: "keep", id, owner: "o", text: `{"id":"${id}"}`, ttlMs: 60_000, alone });
      };
      const found = { type: "done", found: true };
      // Alone at the object's first keep: written with no timer, and read back after its answer.
      expect(await keep(true)).toEqual(found);
      expect(waits).toEqual([]);
      const read = await storedResponseOp(
        state.storage,
        { type: "read", ids, withEarlier: [], owner: "o", maxLength: 1_000_000 },
        Date.now(),
      );
      expect(read).toEqual({ type: "texts", texts: ids.map((id) => ({ text: `{"id":"${id}"}`, earlier: null })) });
      // Two together (not alone: a turn), then one alone after that commit of two: it waits as any.
      expect(await Promise.all([keep(false), keep(false)])).toEqual([found, found]);
      expect(await keep(true)).toEqual(found);
      expect(waits.map((ms) => ms > 0)).toEqual([false, true]);
      // Alone after that commit of one: at once again.
      expect(await keep(true)).toEqual(found);
      expect(waits).toHaveLength(2);
    });
  });

  it("keeps waiting for their commit are bounded: past the bound a keep is busy at once, nothing written, and once they commit one waits again", async () => {
    const first = newTestResponseId();
    const name = objectNameOf(first)!;
    await runInDurableObject(objectOf(first), async (_instance, state) => {
      // The commit waits until the test lets it: keeps pile up meanwhile.
      const writes: (() => void)[] = [];
      const ids = [1, 2, 3, 4].map(() => `${name}.${crypto.randomUUID()}.${testMac()}`);
      const text = (id: string) => `{"id":"${id}"}`;
      const bound = 2 * text(ids[0]!).length;
      const keeps = new StoredKeeps(state.storage, undefined, (write) => void writes.push(write), undefined, bound);
      const keep = (id: string) => keeps.keep({ type: "keep", id, owner: "o", text: text(id), ttlMs: 60_000 });
      const waiting = [keep(ids[0]!), keep(ids[1]!)];
      // Failed before: a third keep joined the queue (no bound), however many came.
      expect(await keep(ids[2]!)).toEqual({ type: "busy" });
      expect(writes).toHaveLength(1);
      writes.shift()!();
      expect(await Promise.all(waiting)).toEqual([1, 2].map(() => ({ type: "done", found: true })));
      const read = (id: string) =>
        storedResponseOp(
          state.storage,
          { type: "read", ids: [id], withEarlier: [], owner: "o", maxLength: 1e6 },
          Date.now(),
        );
      expect(await read(ids[2]!)).toEqual({ type: "texts", texts: [null] });
      // The queue is empty again: the next keep waits for its commit, and is written.
      const next = keep(ids[3]!);
      for (const write of writes.splice(0)) write();
      expect(await next).toEqual({ type: "done", found: true });
      expect(await read(ids[3]!)).toEqual({ type: "texts", texts: [{ text: text(ids[3]!), earlier: null }] });
    });
  });

  it("counts the responses an older Worker stored uncounted, a page per commit, so the object's bound holds; their deletion gives them back", async () => {
    const first = newTestResponseId();
    const name = objectNameOf(first)!;
    await runInDurableObject(objectOf(first), async (_instance, state) => {
      const id = () => `${name}.${crypto.randomUUID()}.${testMac()}`;
      // Three responses as a Worker before MAX_STORED_BYTES_PER_OBJECT kept them: no bytes in their
      // headers, no count (one in pieces: its text past a piece, 512 Ki characters).
      const older = [id(), id(), id()];
      const texts = [`{"a":1}`, `{"b":"${"x".repeat(600 * 1024)}"}`, `{"c":3}`];
      older.forEach((old, i) =>
        writeKept(
          state.storage,
          { type: "keep", id: old, owner: "o", text: texts[i]!, earlier: "[]", ttlMs: 60_000 },
          Date.now(),
        ),
      );
      const olderBytes = texts.reduce((sum, text) => sum + 2 * (text.length + 2), 0);
      const quota = new StoredQuota(state.storage.kv);
      expect(quota.used).toBe(0);
      const keeps = new StoredKeeps(state.storage, undefined, undefined, quota);
      const keep = (kept: string, maxObjectBytes: number) =>
        keeps.keep({ type: "keep", id: kept, owner: "o", text: `{"id":"${kept}"}`, ttlMs: 60_000, maxObjectBytes });
      // A bound the older responses take nearly whole: the new one does not fit beside them.
      // Failed before: it was kept (the older ones counted nothing), past the bound.
      expect(await keep(id(), olderBytes + 10)).toEqual({ type: "full" });
      expect(quota.used).toBe(olderBytes);
      expect(new StoredQuota(state.storage.kv).used).toBe(olderBytes);
      // Counted once: the next commit counts them no more.
      const fits = id();
      expect(await keep(fits, olderBytes + 1000)).toEqual({ type: "done", found: true });
      const keptBytes = 2 * `{"id":"${fits}"}`.length;
      expect(quota.used).toBe(olderBytes + keptBytes);
      // An older one deleted gives back what it was counted.
      expect(
        await storedResponseOp(state.storage, { type: "forget", id: older[1]!, owner: "o" }, Date.now(), quota),
      ).toEqual({
        type: "done",
        found: true,
      });
      expect(quota.used).toBe(olderBytes + keptBytes - 2 * (texts[1]!.length + 2));
    });
  });

  it("OlderStoredCount walks the expiry index a page per step, from where it stopped, and reads nothing once it ended", async () => {
    const first = newTestResponseId();
    const name = objectNameOf(first)!;
    await runInDurableObject(objectOf(first), async (_instance, state) => {
      for (let i = 0; i < 3; i++) {
        const op = {
          type: "keep",
          id: `${name}.${crypto.randomUUID()}.${testMac()}`,
          owner: "o",
          text: "{}",
          ttlMs: 60_000,
        } as const;
        writeKept(state.storage, op, Date.now() + i);
      }
      const quota = new StoredQuota(state.storage.kv);
      const walk = new OlderStoredCount(state.storage.kv, 1);
      const counts: number[] = [];
      for (let i = 0; i < 4; i++) {
        walk.step(quota);
        counts.push(quota.used);
      }
      expect(counts).toEqual([4, 8, 12, 12]);
      // Ended: a new walk (a fresh instance) reads the end's row and counts nothing again.
      new OlderStoredCount(state.storage.kv, 1).step(quota);
      expect(quota.used).toBe(12);
    });
  });

  it("the count's row sorts beside the newest expiry entry, and a count an older Worker kept is read and moved", async () => {
    const first = newTestResponseId();
    const name = objectNameOf(first)!;
    await runInDurableObject(objectOf(first), async (_instance, state) => {
      const { kv } = state.storage;
      // The older layout: the count among the responses' rows (its walk of older responses ended).
      kv.put("stored:used", 1000);
      kv.put("stored:count-done", true);
      const quota = new StoredQuota(kv);
      const keeps = new StoredKeeps(state.storage, undefined, undefined, quota);
      const id = `${name}.${crypto.randomUUID()}.${testMac()}`;
      const text = `{"id":"${id}"}`;
      const keep = (maxObjectBytes: number) =>
        keeps.keep({ type: "keep", id, owner: "o", text, ttlMs: 60_000, maxObjectBytes });
      // Read: the older count holds the bound nearly whole, so the response does not fit beside it.
      expect(await keep(1000 + 2 * text.length - 1)).toEqual({ type: "full" });
      expect(await keep(1000 + 2 * text.length)).toEqual({ type: "done", found: true });
      // Moved: one row of the count, in the next key after the expiry index's newest entry, so a
      // commit's count and expiry entry share a page. Failed before: the count stayed "stored:used".
      const keys = [...kv.list()].map(([key]) => key);
      const newest = keys.filter((key) => key.startsWith("exp:")).at(-1)!;
      expect(newest.endsWith(id)).toBe(true);
      expect(keys[keys.indexOf(newest) + 1]).toBe("exp;used");
      expect(kv.get("exp;used")).toBe(1000 + 2 * text.length);
      expect(kv.get("stored:used")).toBeUndefined();
      expect(new StoredQuota(kv).used).toBe(1000 + 2 * text.length);
    });
  });
});
