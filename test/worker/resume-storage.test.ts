// Resumable responses across an eviction: the log is written to the Durable Object's storage as
// it runs, a batch at a time, and once a response ends (finish, upstream error, client cancel,
// detached limit) it lives there only, so that a fresh instance (the idle object evicted, its
// memory gone) still serves every Last-Event-ID exactly until the expiry alarm deletes it.
// Eviction is the real one (evictDurableObject tears the instance down and keeps storage); the
// upstream and the clock are injected. A restart mid-response: resume-restart.test.ts.
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { toBatch } from "../../worker/resumable/log-batch.ts";
import { keyedStore } from "../../worker/resumable/keyed-store.ts";
import { loadBatchHolding, loadResponseLog } from "../../worker/resumable/response-log-reads.ts";
import { CHUNK_BYTES, LogWriter, splitBytes, type StoredLog } from "../../worker/resumable/response-log-storage.ts";
import { memoryFrameStore } from "./memory-frame-store.ts";
import {
  chatChunk,
  FakeUpstream,
  ManualTimers,
  newTestResponseId,
  objectOf,
  openAIChunks,
  readSSE,
  responses,
  startResponse,
  streamRequest,
  testEnv,
  validBody,
  weatherCall,
  worker,
} from "./support.ts";
import { runExpiryAlarm } from "./durable-support.ts";

const wholeRun = [
  chatChunk({ content: "Checking. " }),
  weatherCall(0, "call_1", '{"city":'),
  weatherCall(0, "", '"Paris"}'),
  chatChunk({}, "tool_calls"),
];
const opening = openAIChunks(wholeRun).slice(0, 2);

const storedOf = (id: string): Promise<StoredLog | undefined> =>
  runInDurableObject(objectOf(id), (_instance, state) => loadResponseLog(keyedStore(state.storage.kv, id)));
/** The stored frames, one string each. */
const storedFrames = async (id: string): Promise<string[]> =>
  ((await storedOf(id))?.batches ?? []).flatMap((batch) => framesOf(batch.text));
/** Every key in the object's storage (all of it is one response's, or the expiry index). */
const keysOf = (stub: DurableObjectStub<ResponseBuffer>): Promise<string[]> =>
  runInDurableObject(stub, (_instance, state) => [...state.storage.kv.list()].map(([key]) => key));

/** Evicts the object for real, and checks that the next request meets a new instance. */
async function evict(stub: DurableObjectStub<ResponseBuffer>): Promise<void> {
  const before = await runInDurableObject(stub, (instance: ResponseBuffer) => instance);
  await evictDurableObject(stub);
  const after = await runInDurableObject(stub, (instance: ResponseBuffer) => instance);
  expect(after).not.toBe(before);
}

/** The SSE frames of a body, split after each blank line (each frame is one event). */
const framesOf = (text: string): string[] => text.split(/(?<=\n\n)/).filter((frame) => frame !== "");

/** Reads the first frame of a response, then disconnects. */
async function readOneThenLeave(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel("client disconnected");
  return new TextDecoder().decode(value);
}

const endings = {
  /** The provider finishes. */
  finish: async () => {
    const { id, stub, response, attach } = await startResponse(
      new FakeUpstream({ kind: "sse", chunks: openAIChunks(wholeRun) }),
      new ManualTimers(),
    );
    await response.text();
    return { id, stub, attach };
  },
  /** The provider connection breaks mid-call. */
  error: async () => {
    const { id, stub, response, attach } = await startResponse(
      new FakeUpstream({ kind: "sse", chunks: opening, then: "fail" }),
      new ManualTimers(),
    );
    await response.text();
    return { id, stub, attach };
  },
  /** The client cancels with DELETE while the provider stalls mid-call. */
  cancel: async () => {
    const { id, stub, response, attach } = await startResponse(
      new FakeUpstream({ kind: "sse", chunks: opening, then: "stall" }),
      new ManualTimers(),
      { IDLE_TIMEOUT_MS: "60000" },
    );
    const env = testEnv({ RESPONSES: responses });
    const reader = response.body!.getReader();
    await reader.read();
    expect(
      (await worker().call(new Request(`http://localhost:8787/v1/stream/${id}`, { method: "DELETE" }), env)).status,
    ).toBe(204);
    while (!(await reader.read()).done);
    return { id, stub, attach };
  },
  /** Nobody is attached past DETACHED_LIMIT_MS while the provider stalls mid-call. */
  detached: async () => {
    const clock = new ManualTimers();
    const { id, stub, response, attach } = await startResponse(
      new FakeUpstream({ kind: "sse", chunks: opening, then: "stall" }),
      clock,
      {
        DETACHED_LIMIT_MS: "7000",
        IDLE_TIMEOUT_MS: "60000",
      },
    );
    const armed = clock.whenScheduled(7000);
    await readOneThenLeave(response);
    await runInDurableObject(stub, () => armed);
    await runInDurableObject(stub, () => clock.fireWhere((ms) => ms === 7000));
    // Reading to the end waits for the abort, so the response has ended when this returns.
    await (await attach(0)).text();
    return { id, stub, attach };
  },
};
const lastEvent = { finish: "finish", error: "abort", cancel: "abort", detached: "abort" } as const;

describe("resumable responses after an eviction", () => {
  for (const [ending, run] of Object.entries(endings) as Array<
    [keyof typeof endings, (typeof endings)[keyof typeof endings]]
  >) {
    it(`${ending}: the frames are in storage, the log ended, and a fresh instance serves every Last-Event-ID exactly`, async () => {
      const { id, stub, attach } = await run();
      const served = await attach(-1);
      const headers = [...served.headers];
      const whole = framesOf(await served.text());
      expect((await readSSE(new Response(whole.join("")))).events.at(-1)!.type).toBe(lastEvent[ending]);
      expect((await storedOf(id))?.meta).toEqual({
        version: 3,
        kind: "stream",
        headers: Object.fromEntries(headers),
        limits: { maxFrames: 20_000, maxBytes: 8_388_608 },
        done: true,
        // Every frame kept: a resume is served from the batch holding its next frame.
        window: { first: 0, next: whole.length },
      });
      expect(await storedFrames(id)).toEqual(whole);
      // Finished: served from storage only, nothing held in memory.
      expect(await runInDurableObject(stub, (instance: ResponseBuffer) => instance.isRunning(id))).toBe(false);

      await evict(stub);
      for (let lastSeen = -1; lastSeen < whole.length; lastSeen++) {
        const resumed = await attach(lastSeen);
        expect(resumed.status).toBe(200);
        expect([...resumed.headers]).toEqual(headers);
        expect(framesOf(await resumed.text())).toEqual(whole.slice(lastSeen + 1));
      }
      const past = await attach(whole.length);
      expect(past.status).toBe(400);
      expect(await past.json()).toMatchObject({
        error: {
          code: "invalid_request",
          message: `Last-Event-ID ${whole.length} is past the last event this response sent (${whole.length - 1}).`,
        },
      });
    });
  }

  it("through the route: a client resuming with Last-Event-ID after the eviction gets the rest, no duplicate and no gap", async () => {
    const env = testEnv({ RESPONSES: responses });
    const app = worker();
    const started = await app.call(streamRequest(validBody()), env);
    const id = started.headers.get("x-response-id")!;
    const whole = (await readSSE(started)).messages;
    expect(whole.length).toBeGreaterThan(3);
    await evict(objectOf(id));
    const cut = Math.floor(whole.length / 2);
    const resumed = await app.call(
      new Request(`http://localhost:8787/v1/stream/${id}`, { headers: { "last-event-id": whole[cut - 1]!.id! } }),
      env,
    );
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get("content-type")).toContain("text/event-stream");
    expect(resumed.headers.get("x-response-id")).toBe(id);
    const received = [...whole.slice(0, cut), ...(await readSSE(resumed)).messages];
    expect(received).toEqual(whole);
  });

  it("while the response is in flight each batch is in storage by the time a client reads it, and the log is not yet done", async () => {
    const { id, stub, response } = await startResponse(
      new FakeUpstream({ kind: "sse", chunks: opening, then: "stall" }),
      new ManualTimers(),
      { IDLE_TIMEOUT_MS: "60000" },
    );
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("event: text-delta");
    expect((await storedFrames(id)).slice(0, framesOf(first).length)).toEqual(framesOf(first));
    expect((await storedOf(id))?.meta.done).toBe(false);
    expect(await runInDurableObject(stub, (instance: ResponseBuffer) => instance.isRunning(id))).toBe(true);
    await reader.cancel();
  });

  it("the expiry alarm, in a fresh instance, deletes the stored frames; the id then answers 404 unknown_response", async () => {
    const { stub, attach } = await endings.finish();
    expect((await keysOf(stub)).length).toBeGreaterThan(0);
    await evict(stub);
    expect(await runExpiryAlarm(stub)).toBe(true);
    expect(await keysOf(stub)).toEqual([]);
    for (const after of [-1, 0]) {
      const expired = await attach(after);
      expect(expired.status).toBe(404);
      expect(await expired.json()).toEqual({
        error: { code: "unknown_response", message: "No response with this id is in flight or recent." },
      });
    }
    await evict(stub);
    expect((await attach(-1)).status).toBe(404);
  });

  it("the expiry alarm in the instance that ran the response deletes the stored frames too", async () => {
    const { stub, attach } = await endings.finish();
    expect(await runExpiryAlarm(stub)).toBe(true);
    expect(await keysOf(stub)).toEqual([]);
    await evict(stub);
    expect((await attach(-1)).status).toBe(404);
  });

  it("what is kept is bounded like the log: past RESUME_MAX_EVENTS only the newest frames are served after an eviction, and resuming before them is 410", async () => {
    const calls = Array.from({ length: 6 }, (_, index) => weatherCall(index, `call_${index}`, "{}"));
    const upstream = new FakeUpstream({ kind: "sse", chunks: openAIChunks([...calls, chatChunk({}, "tool_calls")]) });
    const { id, stub, response, attach } = await startResponse(upstream, new ManualTimers(), {
      RESUME_MAX_EVENTS: "4",
    });
    const whole = framesOf(await response.text());
    const last = whole.length - 1;
    // Storage drops whole batches: it may hold more frames than the bound (the rest of a batch), never fewer.
    const stored = await storedFrames(id);
    expect(stored.length).toBeGreaterThanOrEqual(4);
    expect(stored).toEqual(whole.slice(-stored.length));
    await evict(stub);
    expect(framesOf(await (await attach(last - 4)).text())).toEqual(whole.slice(-4));
    expect((await attach(last - 5)).status).toBe(410);
  });

  it("past RESUME_MAX_BYTES only the newest frame is served after an eviction, whatever its size", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: openAIChunks(wholeRun) });
    const { stub, response, attach } = await startResponse(upstream, new ManualTimers(), { RESUME_MAX_BYTES: "1" });
    const whole = framesOf(await response.text());
    await evict(stub);
    expect(framesOf(await (await attach(whole.length - 2)).text())).toEqual(whole.slice(-1));
    expect((await attach(whole.length - 3)).status).toBe(410);
  });
});

describe("response log storage", () => {
  const frames = ["id: 0\n\n", "😀 split", "x".repeat(23), "é😀😀", "\n"];
  const memory = memoryFrameStore;

  it("splitBytes cuts anywhere (even inside a UTF-8 character) into pieces of at most the given size, each with a buffer of its own", () => {
    const bytes = new TextEncoder().encode(frames.join(""));
    for (let size = 1; size <= 30; size++) {
      const parts = splitBytes(bytes, size);
      for (const part of parts) {
        expect(part.length).toBeLessThanOrEqual(size);
        expect(part.buffer.byteLength).toBe(part.length);
      }
      expect(new TextDecoder().decode(new Uint8Array(parts.flatMap((part) => [...part])))).toBe(frames.join(""));
    }
    expect(splitBytes(bytes, bytes.length)).toEqual([bytes]);
    expect(splitBytes(new Uint8Array(0), 4)).toEqual([new Uint8Array(0)]);
  });

  it("storage keeps batches split into one-byte values exactly (a leading U+FEFF too); a missing value is an error, not a shortened log", async () => {
    const stub = objectOf(newTestResponseId());
    await runInDurableObject(stub, (_instance, state) => {
      const writer = new LogWriter(state.storage.kv, { maxFrames: 100, maxBytes: 1000 }, 1);
      writer.begin("stream", { "content-type": "text/event-stream" });
      writer.append(toBatch(0, frames.slice(0, 2)));
      writer.append(toBatch(2, frames.slice(2)));
      writer.end();
      const stored = loadResponseLog(state.storage.kv)!;
      expect(stored.meta).toEqual({
        version: 3,
        kind: "stream",
        headers: { "content-type": "text/event-stream" },
        limits: { maxFrames: 100, maxBytes: 1000 },
        done: true,
        window: { first: 0, next: frames.length },
      });
      expect(stored.batches).toEqual([toBatch(0, frames.slice(0, 2)), toBatch(2, frames.slice(2))]);
      // One batch alone, its one-byte values joined: what a resume of a finished log reads.
      expect(loadBatchHolding(state.storage.kv, 1)).toEqual(toBatch(0, frames.slice(0, 2)));
      expect(loadBatchHolding(state.storage.kv, frames.length - 1)).toEqual(toBatch(2, frames.slice(2)));
      expect(loadBatchHolding(state.storage.kv, frames.length)).toBeUndefined();
      // A value lost inside the emoji (bytes 7 to 10) leaves bytes that are not UTF-8; one lost elsewhere, a short text.
      for (const lost of [8, 1]) {
        writer.begin("stream", {}, true);
        writer.append(toBatch(0, frames.slice(0, 2)));
        expect(loadResponseLog(state.storage.kv)!.batches).toEqual([toBatch(0, frames.slice(0, 2))]);
        const [key] = [...state.storage.kv.list({ prefix: "log:b:" })].map(([k]) => k).slice(lost, lost + 1);
        state.storage.kv.delete(key!);
        expect(() => loadResponseLog(state.storage.kv)).toThrow("incomplete");
      }
      const bom = new LogWriter(state.storage.kv, { maxFrames: 100, maxBytes: 1000 }, 1);
      bom.begin("stream", {}, true);
      bom.append(toBatch(0, ["\uFEFF😀\n\n"]));
      expect(loadResponseLog(state.storage.kv)!.batches).toEqual([toBatch(0, ["\uFEFF😀\n\n"])]);
    });
  });

  it("the writer deletes the batches the newer ones alone fill the bounds without, so storage stays bounded however long the response", () => {
    const store = memory();
    const writer = new LogWriter(store, { maxFrames: 5, maxBytes: 1_000_000 });
    writer.begin("run", {});
    for (let first = 0; first < 300; first += 3)
      writer.append(toBatch(first, [first, first + 1, first + 2].map(String)));
    const stored = loadResponseLog(store)!;
    expect(stored.batches.map((batch) => batch.first)).toEqual([294, 297]);
    expect(store.values.size).toBe(3);
    const bytes = new LogWriter(store, { maxFrames: 1000, maxBytes: 10 });
    bytes.begin("stream", {}, true); // a log is stored: it is replaced
    expect(loadResponseLog(store)!.batches).toEqual([]);
    for (let first = 0; first < 50; first++) bytes.append(toBatch(first, ["abcd"]));
    expect(loadResponseLog(store)!.batches.map((batch) => batch.first)).toEqual([47, 48, 49]);
  });

  it("at the default chunk size a batch of the default RESUME_MAX_BYTES is a few dozen values, each far under the 2 MB value limit", () => {
    // Local workerd does not enforce the per-value limit, so the bound is checked on the values.
    const store = memory();
    const writer = new LogWriter(store, { maxFrames: 20_000, maxBytes: 8 * 1024 * 1024 });
    writer.begin("stream", {});
    const frame = `${"é😀".repeat(40_000)}\n\n`;
    const big = Array.from({ length: Math.ceil((8 * 1024 * 1024) / frame.length) }, () => frame);
    writer.append(toBatch(0, big));
    // "é😀" is 3 UTF-16 units and 6 bytes of UTF-8.
    expect(store.values.size - 1).toBeLessThanOrEqual(Math.ceil((2 * (8 * 1024 * 1024 + frame.length)) / CHUNK_BYTES));
    for (const [, value] of store.values) {
      const { bytes = new Uint8Array(0), ends = [] } = value as { bytes?: Uint8Array; ends?: number[] };
      expect(bytes.buffer.byteLength + 9 * ends.length).toBeLessThan(1_000_000);
    }
    expect(loadResponseLog(store)!.batches).toEqual([toBatch(0, big)]);
  });

  it("nothing stored loads as undefined", () => {
    expect(loadResponseLog(memory())).toBeUndefined();
  });
});
