// Helpers for the tests of the RESPONSES Durable Objects: a hard restart, and letting an object
// run until a condition holds (round trips into it, no timer).
import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import type { ResponseBuffer } from "../../worker/durable/response-buffer.ts";
import { loadResponseLog } from "../../worker/durable/response-log-storage.ts";
import { responses } from "./support.ts";

/**
 * Restarts every Durable Object at once (abortAllDurableObjects: memory and in-flight work gone,
 * storage kept; evictDurableObject would first wait for in-flight responses to drain), and
 * returns a stub of object `id` (a stub of an object that was reset is broken) after checking
 * that it meets a new instance.
 */
export async function restart(id: string, stub: DurableObjectStub): Promise<DurableObjectStub> {
  const before = await runInDurableObject(stub, (instance: ResponseBuffer) => instance);
  await abortAllDurableObjects();
  const fresh = responses.get(responses.idFromName(id));
  expect(await runInDurableObject(fresh, (instance: ResponseBuffer) => instance)).not.toBe(before);
  return fresh;
}

/** Lets the object run (a round trip into it at a time, no timer) until `check` holds. */
export async function settled(stub: DurableObjectStub, check: () => boolean | Promise<boolean>, rounds = 200): Promise<boolean> {
  for (let round = 0; round < rounds; round++) {
    if (await check()) return true;
    await runInDurableObject(stub, () => undefined);
  }
  return check();
}

/** The SSE frames of a text, split after each blank line (each frame is one event). */
export const framesOf = (text: string): string[] => text.split(/(?<=\n\n)/).filter((frame) => frame !== "");

/** The frames in the object's storage, one string each. */
export function storedFrames(stub: DurableObjectStub): Promise<string[]> {
  return runInDurableObject(stub, (_instance, state) => (loadResponseLog(state.storage.kv)?.batches ?? []).flatMap((batch) => framesOf(batch.text)));
}
