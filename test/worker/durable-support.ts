// Helpers for the tests of the RESPONSES Durable Objects: a hard restart, and letting an object
// run until a condition holds (round trips into it, no timer).
import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { keyedStore } from "../../worker/resumable/keyed-store.ts";
import { loadResponseLog } from "../../worker/resumable/response-log-reads.ts";
import { objectOf } from "./support.ts";

/**
 * Restarts every Durable Object at once (abortAllDurableObjects: memory and in-flight work gone,
 * storage kept; evictDurableObject would first wait for in-flight responses to drain), and
 * returns a stub of object `id` (a stub of an object that was reset is broken) after checking
 * that it meets a new instance.
 */
export async function restart(
  id: string,
  stub: DurableObjectStub<ResponseBuffer>,
): Promise<DurableObjectStub<ResponseBuffer>> {
  const before = await runInDurableObject(stub, (instance: ResponseBuffer) => instance);
  await abortAllDurableObjects();
  const fresh = objectOf(id);
  expect(await runInDurableObject(fresh, (instance: ResponseBuffer) => instance)).not.toBe(before);
  return fresh;
}

/**
 * Runs the object's alarm as if every expiry set in it had passed (`runDurableObjectAlarm` fires
 * the alarm at once, before its time): true when an alarm was set.
 */
export async function runExpiryAlarm(stub: DurableObjectStub<ResponseBuffer>): Promise<boolean> {
  await runInDurableObject(stub, (instance: ResponseBuffer) =>
    instance.useAlarmClock(() => Date.now() + 24 * 60 * 60 * 1000),
  );
  try {
    return await runDurableObjectAlarm(stub);
  } finally {
    await runInDurableObject(stub, (instance: ResponseBuffer) => instance.useAlarmClock());
  }
}

/** Lets the object run (a round trip into it at a time, no timer) until `check` holds. */
export async function settled(
  stub: DurableObjectStub<ResponseBuffer>,
  check: () => boolean | Promise<boolean>,
  rounds = 200,
): Promise<boolean> {
  for (let round = 0; round < rounds; round++) {
    if (await check()) return true;
    await runInDurableObject(stub, () => undefined);
  }
  return check();
}

/** The SSE frames of a text, split after each blank line (each frame is one event). */
export const framesOf = (text: string): string[] => text.split(/(?<=\n\n)/).filter((frame) => frame !== "");

/** The frames of response `id` in its object's storage, one string each. */
export function storedFrames(id: string): Promise<string[]> {
  return runInDurableObject(objectOf(id), (_instance, state) =>
    (loadResponseLog(keyedStore(state.storage.kv, id))?.batches ?? []).flatMap((batch) => framesOf(batch.text)),
  );
}

/** Makes the object's next write of a key that `match` takes throw, as a full or failing storage does. */
export function failNextPut(stub: DurableObjectStub<ResponseBuffer>, match: (key: string) => boolean): Promise<void> {
  return runInDurableObject(stub, (_instance, state) => {
    const storage = state.storage;
    const kv = storage.kv;
    const own = Object.getOwnPropertyDescriptor(storage, "kv");
    const restore = () => (own ? Object.defineProperty(storage, "kv", own) : Reflect.deleteProperty(storage, "kv"));
    const failing = new Proxy(kv, {
      get(target, key) {
        if (key === "put")
          return (name: string, value: unknown) => {
            if (!match(name)) return target.put(name, value);
            restore();
            throw new Error("SQLITE_FULL: database or disk is full");
          };
        const member = Reflect.get(target, key, target) as unknown;
        return typeof member === "function" ? member.bind(target) : member;
      },
    });
    Object.defineProperty(storage, "kv", { configurable: true, get: () => failing });
  });
}
