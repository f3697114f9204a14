// Resumable responses across an eviction: once a response ends (finish, upstream error, client
// cancel, detached limit), its kept frames are written to the Durable Object's storage, so that a
// fresh instance (the idle object evicted, its memory gone) still serves every Last-Event-ID
// exactly until the expiry alarm deletes them. Eviction is the real one (evictDurableObject tears
// the instance down and keeps storage); the upstream and the clock are injected.
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ResponseBuffer } from "../../worker/durable/response-buffer.ts";
import { ResponseLog } from "../../worker/durable/response-log.ts";
import { CHUNK_UNITS, loadResponseLog, packFrames, saveResponseLog, unpackFrames, type StoredLog } from "../../worker/durable/response-log-storage.ts";
import { chatChunk, FakeUpstream, ManualTimers, openAIChunks, readSSE, responses, startResponse, streamRequest, testEnv, validBody, weatherCall, worker } from "./support.ts";

const wholeRun = [chatChunk({ content: "Checking. " }), weatherCall(0, "call_1", '{"city":'), weatherCall(0, "", '"Paris"}'), chatChunk({}, "tool_calls")];
const opening = openAIChunks(wholeRun).slice(0, 2);

const storedOf = (stub: DurableObjectStub): Promise<StoredLog | undefined> => runInDurableObject(stub, (_instance, state) => loadResponseLog(state.storage.kv));
const keysOf = (stub: DurableObjectStub): Promise<string[]> => runInDurableObject(stub, (_instance, state) => [...state.storage.kv.list()].map(([key]) => key));

/** Evicts the object for real, and checks that the next request meets a new instance. */
async function evict(stub: DurableObjectStub): Promise<void> {
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
    const { stub, response, attach } = await startResponse(new FakeUpstream({ kind: "sse", chunks: openAIChunks(wholeRun) }), new ManualTimers());
    await response.text();
    return { stub, attach };
  },
  /** The provider connection breaks mid-call. */
  error: async () => {
    const { stub, response, attach } = await startResponse(new FakeUpstream({ kind: "sse", chunks: opening, then: "fail" }), new ManualTimers());
    await response.text();
    return { stub, attach };
  },
  /** The client cancels with DELETE while the provider stalls mid-call. */
  cancel: async () => {
    const { id, stub, response, attach } = await startResponse(new FakeUpstream({ kind: "sse", chunks: opening, then: "stall" }), new ManualTimers(), { IDLE_TIMEOUT_MS: "60000" });
    const env = testEnv({ RESPONSES: responses });
    const reader = response.body!.getReader();
    await reader.read();
    expect((await worker().call(new Request(`http://localhost:8787/v1/stream/${id}`, { method: "DELETE" }), env)).status).toBe(204);
    while (!(await reader.read()).done);
    return { stub, attach };
  },
  /** Nobody is attached past DETACHED_LIMIT_MS while the provider stalls mid-call. */
  detached: async () => {
    const clock = new ManualTimers();
    const { stub, response, attach } = await startResponse(new FakeUpstream({ kind: "sse", chunks: opening, then: "stall" }), clock, {
      DETACHED_LIMIT_MS: "7000",
      IDLE_TIMEOUT_MS: "60000",
    });
    const armed = clock.whenScheduled(7000);
    await readOneThenLeave(response);
    await runInDurableObject(stub, () => armed);
    await runInDurableObject(stub, () => clock.fireWhere((ms) => ms === 7000));
    // Reading to the end waits for the abort, so the response has ended when this returns.
    await (await attach(0)).text();
    return { stub, attach };
  },
};
const lastEvent = { finish: "finish", error: "abort", cancel: "abort", detached: "abort" } as const;

describe("resumable responses after an eviction", () => {
  for (const [ending, run] of Object.entries(endings) as Array<[keyof typeof endings, (typeof endings)[keyof typeof endings]]>) {
    it(`${ending}: the kept frames are written to storage, and a fresh instance serves every Last-Event-ID exactly`, async () => {
      const { stub, attach } = await run();
      const served = await attach(-1);
      const headers = [...served.headers];
      const whole = framesOf(await served.text());
      expect((await readSSE(new Response(whole.join("")))).events.at(-1)!.type).toBe(lastEvent[ending]);
      expect(await storedOf(stub)).toEqual({ first: 0, frames: whole, headers: Object.fromEntries(headers) });

      await evict(stub);
      for (let lastSeen = -1; lastSeen < whole.length; lastSeen++) {
        const resumed = await attach(lastSeen);
        expect(resumed.status).toBe(200);
        expect([...resumed.headers]).toEqual(headers);
        expect(framesOf(await resumed.text())).toEqual(whole.slice(lastSeen + 1));
      }
      expect((await attach(whole.length)).status).toBe(410);
    });
  }

  it("through the route: a client resuming with Last-Event-ID after the eviction gets the rest, no duplicate and no gap", async () => {
    const env = testEnv({ RESPONSES: responses });
    const app = worker();
    const started = await app.call(streamRequest(validBody()), env);
    const id = started.headers.get("x-response-id")!;
    const whole = (await readSSE(started)).messages;
    expect(whole.length).toBeGreaterThan(3);
    await evict(responses.get(responses.idFromName(id)));
    const cut = Math.floor(whole.length / 2);
    const resumed = await app.call(new Request(`http://localhost:8787/v1/stream/${id}`, { headers: { "last-event-id": whole[cut - 1]!.id! } }), env);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get("content-type")).toContain("text/event-stream");
    expect(resumed.headers.get("x-response-id")).toBe(id);
    const received = [...whole.slice(0, cut), ...(await readSSE(resumed)).messages];
    expect(received).toEqual(whole);
  });

  it("while the response is in flight nothing is written to storage", async () => {
    const { stub, response } = await startResponse(new FakeUpstream({ kind: "sse", chunks: opening, then: "stall" }), new ManualTimers(), { IDLE_TIMEOUT_MS: "60000" });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("event: text-delta");
    expect(await keysOf(stub)).toEqual([]);
    await reader.cancel();
  });

  it("the expiry alarm, in a fresh instance, deletes the stored frames; the id then answers 404 unknown_response", async () => {
    const { stub, attach } = await endings.finish();
    expect((await keysOf(stub)).length).toBeGreaterThan(0);
    await evict(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await keysOf(stub)).toEqual([]);
    for (const after of [-1, 0]) {
      const expired = await attach(after);
      expect(expired.status).toBe(404);
      expect(await expired.json()).toEqual({ error: { code: "unknown_response", message: "No response with this id is in flight or recent." } });
    }
    await evict(stub);
    expect((await attach(-1)).status).toBe(404);
  });

  it("the expiry alarm in the instance that ran the response deletes the stored frames too", async () => {
    const { stub, attach } = await endings.finish();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await keysOf(stub)).toEqual([]);
    await evict(stub);
    expect((await attach(-1)).status).toBe(404);
  });

  it("what is written is bounded like the log: past RESUME_MAX_EVENTS only the newest frames, and resuming before them is 410", async () => {
    const calls = Array.from({ length: 6 }, (_, index) => weatherCall(index, `call_${index}`, "{}"));
    const upstream = new FakeUpstream({ kind: "sse", chunks: openAIChunks([...calls, chatChunk({}, "tool_calls")]) });
    const { stub, response, attach } = await startResponse(upstream, new ManualTimers(), { RESUME_MAX_EVENTS: "4" });
    const whole = framesOf(await response.text());
    const last = whole.length - 1;
    expect(await storedOf(stub)).toMatchObject({ first: last - 3, frames: whole.slice(-4) });
    await evict(stub);
    expect(framesOf(await (await attach(last - 4)).text())).toEqual(whole.slice(-4));
    expect((await attach(last - 5)).status).toBe(410);
  });

  it("past RESUME_MAX_BYTES only the newest frame is written, whatever its size", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: openAIChunks(wholeRun) });
    const { stub, response } = await startResponse(upstream, new ManualTimers(), { RESUME_MAX_BYTES: "1" });
    const whole = framesOf(await response.text());
    expect(await storedOf(stub)).toMatchObject({ first: whole.length - 1, frames: whole.slice(-1) });
  });
});

describe("response log storage", () => {
  const frames = ["", "id: 0\n\n", "😀 split", "x".repeat(23), "é😀😀", ""];

  it("packing splits frames anywhere (even between the halves of a surrogate pair) and unpacking restores them", () => {
    for (let units = 1; units <= 30; units++) {
      const chunks = packFrames(frames, units);
      for (const { text } of chunks) expect(text.length).toBeLessThanOrEqual(units);
      expect(chunks.map((c) => c.text).join("")).toBe(frames.join(""));
      expect(unpackFrames(chunks)).toEqual(frames);
    }
    expect(packFrames([], 4)).toEqual([]);
    expect(unpackFrames([])).toEqual([]);
  });

  it("storage keeps the split halves of surrogate pairs exactly; a missing chunk is an error, not a shortened log", async () => {
    const stub = responses.get(responses.idFromName(crypto.randomUUID()));
    await runInDurableObject(stub, (_instance, state) => {
      const log = { first: 5, frames, headers: { "content-type": "text/event-stream" } };
      state.storage.transactionSync(() => saveResponseLog(state.storage.kv, log, 1));
      expect(loadResponseLog(state.storage.kv)).toEqual(log);
      state.storage.kv.delete("log:chunk:3");
      expect(() => loadResponseLog(state.storage.kv)).toThrow("incomplete");
    });
  });

  it("at the default chunk size a log of the default RESUME_MAX_BYTES is a few dozen values, each far under the 2 MB value limit", () => {
    // Local workerd does not enforce the per-value limit, so the bound is checked on the values.
    const frame = "é😀".repeat(40_000) + "\n\n";
    const big = Array.from({ length: Math.ceil((8 * 1024 * 1024) / frame.length) }, () => frame);
    big.push("x".repeat(3 * CHUNK_UNITS + 5));
    const chunks = packFrames(big);
    expect(chunks.length).toBeLessThanOrEqual(Math.ceil((8 * 1024 * 1024 + 3 * CHUNK_UNITS + 5) / CHUNK_UNITS));
    for (const { text, ends } of chunks) expect(2 * text.length + 5 * ends.length).toBeLessThan(1_000_000);
    expect(unpackFrames(chunks)).toEqual(big);
  });

  it("nothing stored loads as undefined", async () => {
    const empty = new Map<string, unknown>();
    expect(loadResponseLog({ get: (key) => empty.get(key), put: (key, value) => empty.set(key, value) })).toBeUndefined();
  });
});

describe("ResponseLog.kept and ResponseLog.finished", () => {
  const frame = (n: number) => `id: ${n}\n\n`;

  it("kept() is the newest frames within the bounds, even while a lagging reader holds older ones", () => {
    const log = new ResponseLog({ maxFrames: 3, maxBytes: 1000 });
    const slow = log.open(-1);
    for (let n = 0; n < 5; n++) log.append(frame(n));
    expect([log.first, log.full]).toEqual([0, true]);
    expect(log.kept()).toEqual({ first: 2, frames: [2, 3, 4].map(frame) });
    slow.close();
    const bytes = new ResponseLog({ maxFrames: 100, maxBytes: 2 * frame(0).length });
    for (let n = 0; n < 5; n++) bytes.append(frame(n));
    expect(bytes.kept()).toEqual({ first: 3, frames: [3, 4].map(frame) });
    const huge = new ResponseLog({ maxFrames: 100, maxBytes: 1 });
    huge.append(frame(0));
    expect(huge.kept()).toEqual({ first: 0, frames: [frame(0)] });
  });

  it("finished() rebuilds an ended log that serves the frames after any kept id, then the end", async () => {
    const log = ResponseLog.finished({ maxFrames: 10, maxBytes: 1000 }, 7, [7, 8, 9].map(frame));
    expect([log.first, log.next, log.done]).toEqual([7, 10, true]);
    expect([5, 6, 9, 10].map((lastSeen) => log.canResumeAfter(lastSeen))).toEqual([false, true, true, false]);
    const cursor = log.open(7);
    expect([await cursor.read(), await cursor.read(), await cursor.read()]).toEqual([
      { type: "frame", text: frame(8) },
      { type: "frame", text: frame(9) },
      { type: "end" },
    ]);
    expect(() => log.append(frame(10))).toThrow("already ended");
  });
});
