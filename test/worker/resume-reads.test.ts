// A resume of a finished response costs work proportional to what it sends: it reads the stored
// batch that holds the frame after its Last-Event-ID, then one batch per read of the client, never
// the whole log (an 8 MB log resumed at its end once cost a whole decode on the object's one thread).
// A log that a restart cut is ended once, on its first resume, which reads it whole; every resume
// after that is served the same way (each once decoded the whole log again, so a few clients
// resuming it at once held a copy each in the object's memory).
// Storage reads and the bytes decoded are counted through the store the cursor reads.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { keyedStore } from "../../worker/resumable/keyed-store.ts";
import { toBatch } from "../../worker/resumable/log-batch.ts";
import { type FrameStore, loadMeta, LogWriter } from "../../worker/resumable/response-log-storage.ts";
import { storedLogCursor } from "../../worker/resumable/stored-cursor.ts";
import { restoreStoredLog } from "../../worker/resumable/stored-log-attach.ts";
import { newTestResponseId, objectOf } from "./support.ts";

const BATCHES = 200;
const FRAMES_PER_BATCH = 10;
const FRAMES = BATCHES * FRAMES_PER_BATCH;
const frame = (n: number): string =>
  `event: text-delta\nid: ${n}\ndata: {"type":"text-delta","text":"${"x".repeat(40)}"}\n\n`;

/** `store`, counting the values it hands out and their stored bytes. */
function counting(store: FrameStore) {
  const seen = { values: 0, bytes: 0 };
  const count = (value: unknown): void => {
    seen.values++;
    seen.bytes += (value as { bytes?: Uint8Array } | undefined)?.bytes?.length ?? 0;
  };
  const wrapped: FrameStore = {
    get: (key) => {
      const value = store.get(key);
      count(value);
      return value;
    },
    put: (key, value) => store.put(key, value),
    delete: (key) => store.delete(key),
    *list(options) {
      for (const entry of store.list(options)) {
        count(entry[1]);
        yield entry;
      }
    },
  };
  return { store: wrapped, seen };
}

/** A log of BATCHES batches written to `store` (begun, not ended): its writer. */
function writtenLog(store: FrameStore, limits: { maxFrames: number; maxBytes: number }): LogWriter {
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
  return writer;
}

/** A finished log of BATCHES batches written to a fresh object's storage, then `check` on it. */
function withFinishedLog<T>(check: (store: FrameStore) => T | Promise<T>): Promise<T> {
  const id = newTestResponseId();
  return runInDurableObject(objectOf(id), async (_instance, state) => {
    const store = keyedStore(state.storage.kv, id);
    const writer = writtenLog(store, { maxFrames: 1_000_000, maxBytes: 1 << 30 });
    writer.end();
    return check(store);
  });
}

async function readAll(cursor: { read(): Promise<{ type: string; text?: string }> }): Promise<string> {
  let text = "";
  for (let step = await cursor.read(); step.type === "frames"; step = await cursor.read()) text += step.text;
  return text;
}

describe("resuming a finished response from storage", () => {
  it("a resume that sends nothing reads the header alone; one that sends the last frames reads their batch alone", async () => {
    await withFinishedLog(async (store) => {
      const nothing = counting(store);
      expect(await readAll(storedLogCursor(nothing.store, FRAMES - 1)!.cursor)).toBe("");
      expect(nothing.seen).toEqual({ values: 1, bytes: 0 });

      const lastTwo = counting(store);
      const text = await readAll(storedLogCursor(lastTwo.store, FRAMES - 3)!.cursor);
      expect(text).toBe(frame(FRAMES - 2) + frame(FRAMES - 1));
      // The header and the batch's one value: one batch of the 200 read and decoded.
      expect(lastTwo.seen.values).toBe(2);
      const lastBatch = Array.from({ length: FRAMES_PER_BATCH }, (_, i) => frame(FRAMES - FRAMES_PER_BATCH + i));
      expect(lastTwo.seen.bytes).toBe(new TextEncoder().encode(lastBatch.join("")).length);
    });
  });

  it("each read of the client reads one batch more; a client that leaves reads nothing more", async () => {
    await withFinishedLog(async (store) => {
      const { store: counted, seen } = counting(store);
      const { cursor } = storedLogCursor(counted, 94)!;
      const first = await cursor.read();
      expect(first).toEqual({
        type: "frames",
        text: Array.from({ length: 5 }, (_, i) => frame(95 + i)).join(""),
      });
      const afterOne = seen.values;
      expect(await cursor.read()).toEqual({
        type: "frames",
        text: Array.from({ length: FRAMES_PER_BATCH }, (_, i) => frame(100 + i)).join(""),
      });
      expect(seen.values - afterOne).toBe(1);
      cursor.close();
      const afterClose = seen.values;
      expect(await cursor.read()).toEqual({ type: "end" });
      expect(seen.values).toBe(afterClose);
    });
  });

  it("the whole log resumed from its start is every frame in order, exactly", async () => {
    await withFinishedLog(async (store) => {
      const text = await readAll(storedLogCursor(store, -1)!.cursor);
      expect(text).toBe(Array.from({ length: FRAMES }, (_, i) => frame(i)).join(""));
    });
  });

  it("an id past the last event is 400 (never sent, not dropped) without reading a batch", async () => {
    await withFinishedLog(async (store) => {
      const { store: counted, seen } = counting(store);
      expect(() => storedLogCursor(counted, FRAMES)).toThrow(expect.objectContaining({ status: 400 }));
      expect(seen).toEqual({ values: 1, bytes: 0 });
    });
  });
});

/** A log cut by a restart (written, never ended), ended by a first resume; then `check` on its store and that resume's text. */
function withInterruptedLog<T>(
  limits: { maxFrames: number; maxBytes: number },
  check: (store: FrameStore, firstResume: string) => T | Promise<T>,
): Promise<T> {
  const id = newTestResponseId();
  return runInDurableObject(objectOf(id), async (_instance, state) => {
    const store = keyedStore(state.storage.kv, id);
    writtenLog(store, limits);
    expect(restoreStoredLog(state, id, store, 60_000)).toBe(true);
    // The first resume reads from the oldest frame kept, as any resume does: a batch at a time.
    const { first } = loadMeta(store)!.window!;
    return check(store, await readAll(storedLogCursor(store, first - 1)!.cursor));
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
      // The header and the ending's one batch: one batch of the 201 read.
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

describe("resuming a finished response an older Worker stored without its window", () => {
  it("its first resume gives it its window, not reading it whole: every resume then reads a batch, not the log", async () => {
    const id = newTestResponseId();
    await runInDurableObject(objectOf(id), async (_instance, state) => {
      const store = keyedStore(state.storage.kv, id);
      writtenLog(store, { maxFrames: 1_000_000, maxBytes: 1 << 30 }).end();
      const { window: _window, ...older } = loadMeta(store)!;
      store.put("log:meta", older);
      expect(storedLogCursor(store, FRAMES - 3)).toBeUndefined();
      // Its batches are counted a stored value at a time; none is decoded.
      const first = counting(store);
      expect(restoreStoredLog(state, id, first.store, 60_000)).toBeTruthy();
      expect(first.seen.values).toBe(BATCHES + 1);
      // Failed before: the first resume loaded the log whole and wrote no window, so every resume
      // after it loaded the whole log again (200 batches decoded to send two frames).
      const { store: counted, seen } = counting(store);
      expect(await readAll(storedLogCursor(counted, FRAMES - 3)!.cursor)).toBe(frame(FRAMES - 2) + frame(FRAMES - 1));
      expect(seen.values).toBe(2);
      expect(await readAll(storedLogCursor(store, -1)!.cursor)).toBe(
        Array.from({ length: FRAMES }, (_, i) => frame(i)).join(""),
      );
    });
  });
});
