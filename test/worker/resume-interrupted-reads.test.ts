// A log that a restart cut is ended once, on its first resume, which reads it whole. Every resume
// after that is served like any finished log: the batch holding the frame after its Last-Event-ID,
// then one batch per read of the client, never the whole log again (every resume of an interrupted
// 8 MB log once decoded all of it, so a few clients resuming it at once held many copies in the
// object's memory). Storage reads are counted through the store the cursor reads.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { keyedStore } from "../../worker/resumable/keyed-store.ts";
import { toBatch } from "../../worker/resumable/response-log.ts";
import { LogWriter, type FrameStore } from "../../worker/resumable/response-log-storage.ts";
import { storedLogCursor } from "../../worker/resumable/stored-cursor.ts";
import { restoreStoredLog } from "../../worker/resumable/stored-log-attach.ts";
import { newTestResponseId, objectOf } from "./support.ts";

const BATCHES = 100;
const FRAMES_PER_BATCH = 10;
const FRAMES = BATCHES * FRAMES_PER_BATCH;
const frame = (n: number): string =>
  `event: text-delta\nid: ${n}\ndata: {"type":"text-delta","text":"${"x".repeat(40)}"}\n\n`;

/** `store`, counting the values it hands out. */
function counting(store: FrameStore) {
  const seen = { values: 0 };
  const wrapped: FrameStore = {
    get: (key) => {
      seen.values++;
      return store.get(key);
    },
    put: (key, value) => store.put(key, value),
    delete: (key) => store.delete(key),
    *list(options) {
      for (const entry of store.list(options)) {
        seen.values++;
        yield entry;
      }
    },
  };
  return { store: wrapped, seen };
}

async function readAll(cursor: { read(): Promise<{ type: string; text?: string }> }): Promise<string> {
  let text = "";
  for (let step = await cursor.read(); step.type === "frames"; step = await cursor.read()) text += step.text;
  return text;
}

/** A log cut by a restart (written, never ended), ended by a first resume; then `check` on its store and that resume's text. */
function withInterruptedLog<T>(
  limits: { maxFrames: number; maxBytes: number },
  check: (store: FrameStore, firstResume: string) => T | Promise<T>,
): Promise<T> {
  const id = newTestResponseId();
  return runInDurableObject(objectOf(id), async (_instance, state) => {
    const store = keyedStore(state.storage.kv, id);
    const writer = new LogWriter(store, limits);
    writer.begin("stream", { "content-type": "text/event-stream" });
    for (let b = 0; b < BATCHES; b++) {
      const first = b * FRAMES_PER_BATCH;
      writer.append(
        toBatch(
          first,
          Array.from({ length: FRAMES_PER_BATCH }, (_, i) => frame(first + i)),
        ),
      );
    }
    const restored = restoreStoredLog(state, id, store, 60_000)!;
    const cursor = restored.log.open(restored.log.first - 1);
    return check(store, await readAll(cursor));
  });
}

describe("resuming a response a restart cut, after its first resume ended it", () => {
  it("a resume of its last frames reads their batch alone, not the whole log", async () => {
    await withInterruptedLog({ maxFrames: 1_000_000, maxBytes: 1 << 30 }, async (store, firstResume) => {
      // The ending: the frames before the cut, then `error` (id FRAMES) and `abort` (id FRAMES + 1).
      expect(firstResume).toContain(`id: ${FRAMES + 1}\n`);
      const { store: counted, seen } = counting(store);
      const stored = storedLogCursor(counted, FRAMES - 1);
      expect(stored).toBeDefined();
      const text = await readAll(stored!.cursor);
      expect(text).toBe(firstResume.slice(firstResume.indexOf(`event: error\nid: ${FRAMES}\n`)));
      // The header and the ending's one batch: one batch of the 101 read.
      expect(seen.values).toBe(2);
    });
  });

  it("every later resume serves what the first one did, with the same ids, from any point", async () => {
    await withInterruptedLog({ maxFrames: 1_000_000, maxBytes: 1 << 30 }, async (store, firstResume) => {
      expect(await readAll(storedLogCursor(store, -1)!.cursor)).toBe(firstResume);
      expect(await readAll(storedLogCursor(store, 494)!.cursor)).toBe(
        firstResume.slice(firstResume.indexOf("id: 495\n") - "event: text-delta\n".length),
      );
      expect(() => storedLogCursor(store, FRAMES + 2)).toThrow(expect.objectContaining({ status: 400 }));
    });
  });

  it("a log past its bounds keeps the window the first resume had: older ids are 410", async () => {
    await withInterruptedLog({ maxFrames: 95, maxBytes: 1 << 30 }, async (store, firstResume) => {
      // 95 frames kept: the last 93 written before the cut, then the ending's two.
      const oldest = FRAMES + 2 - 95;
      expect(firstResume.startsWith(`event: text-delta\nid: ${oldest}\n`)).toBe(true);
      expect(await readAll(storedLogCursor(store, oldest - 1)!.cursor)).toBe(firstResume);
      expect(() => storedLogCursor(store, oldest - 2)).toThrow(expect.objectContaining({ status: 410 }));
    });
  });
});
