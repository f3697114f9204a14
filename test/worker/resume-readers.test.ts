// The clients reading one resumable response at once are bounded (MAX_READERS_PER_RESPONSE, the
// first client's included): each holds a body, a heartbeat and a place the log wakes at every
// write, so many GETs of one id would cost the object's other responses. One more is a 429
// `too_many_readers` in the Worker's error shape, with the `retry-after` of the next heartbeat
// (which finds a vanished reader's place free); a client that leaves gives its place back, and a
// HEAD takes none. Another response of the same object is not touched.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { HttpError } from "../../worker/response/json-error.ts";
import {
  MAX_READERS_PER_CLIENT,
  MAX_READERS_PER_OBJECT,
  MAX_READERS_PER_RESPONSE,
  ResponseReaders,
} from "../../worker/resumable/response-readers.ts";
import { attach as attachTo } from "../../worker/resumable/response-pool.ts";
import { keyedStore } from "../../worker/resumable/keyed-store.ts";
import { toBatch } from "../../worker/resumable/log-batch.ts";
import { LogWriter } from "../../worker/resumable/response-log-storage.ts";
import { settled } from "./durable-support.ts";
import { newResponseId, objectNameOf, responseIdKey } from "../../worker/resumable/response-id.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import {
  chatChunk,
  FakeUpstream,
  liveOpenAI,
  ManualTimers,
  mintedTestResponseId,
  objectOf,
  openAIChunks,
  startResponse,
  validBody,
} from "./support.ts";

const textFrame = (n: number): string =>
  `event: text-delta\nid: ${n}\ndata: {"type":"text-delta","text":"Hello. "}\n\n`;

const stalling = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: openAIChunks([chatChunk({ content: "Hello. " })]).slice(0, 1),
    then: "stall",
  });

describe("the readers of one resumable response", () => {
  it("are at most MAX_READERS_PER_RESPONSE: one more is a 429 naming why, until one leaves", async () => {
    const clock = new ManualTimers();
    const { id, stub, response, attach } = await startResponse(stalling(), clock, { IDLE_TIMEOUT_MS: "60000" });
    expect(response.status).toBe(200);
    const readers = [response];
    for (let i = 1; i < MAX_READERS_PER_RESPONSE; i++) readers.push(await attach(-1));
    expect(readers.map((reader) => reader.status)).toEqual(readers.map(() => 200));
    const count = () => runInDurableObject(stub, (instance: ResponseBuffer) => instance.readersOf(id));
    expect(await count()).toBe(MAX_READERS_PER_RESPONSE);

    // Failed before: every GET took one more place (no bound).
    const refused = await attach(-1);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("15");
    expect(await refused.json()).toEqual({
      error: { code: "too_many_readers", message: expect.stringContaining(`${MAX_READERS_PER_RESPONSE} clients`) },
    });
    expect(await count()).toBe(MAX_READERS_PER_RESPONSE);
    // A HEAD takes no place, so it is answered still.
    const head = await attachTo(stub, id, -1, "HEAD");
    expect(head.status).toBe(200);

    // Another response of the same object is read as ever.
    const other = await startResponse(stalling(), clock, { IDLE_TIMEOUT_MS: "60000" });
    expect(other.response.status).toBe(200);

    // A client that leaves gives its place back: the next one is served.
    await readers.pop()!.body!.cancel("client left");
    expect(await settled(stub, async () => (await count()) === MAX_READERS_PER_RESPONSE - 1)).toBe(true);
    const next = await attach(-1);
    expect(next.status).toBe(200);
    for (const reader of [...readers, next, other.response]) await reader.body!.cancel("done");
    expect(await settled(stub, async () => (await count()) === 0)).toBe(true);
  });

  it("of a finished response, served from storage, are bounded alike and leave at their end", async () => {
    // A finished log of more batches than the answer's pipe takes ahead of a client that reads
    // nothing: a log that fits in it is handed over whole, and its reader leaves at once.
    const id = await mintedTestResponseId();
    const stub = objectOf(id);
    await runInDurableObject(stub, (_instance, state) => {
      const writer = new LogWriter(keyedStore(state.storage.kv, id), { maxFrames: 1000, maxBytes: 1 << 20 });
      writer.begin("stream", { "content-type": "text/event-stream" });
      for (let batch = 0; batch < 16; batch++) writer.append(toBatch(batch, [textFrame(batch)]));
      writer.append(toBatch(16, ['event: finish\nid: 16\ndata: {"type":"finish","reason":"stop"}\n\n']));
      writer.end();
    });
    const attach = (after: number) => attachTo(stub, id, after);
    const count = () => runInDurableObject(stub, (instance: ResponseBuffer) => instance.readersOf(id));
    expect(await count()).toBe(0);
    const readers: Response[] = [];
    for (let i = 0; i < MAX_READERS_PER_RESPONSE; i++) readers.push(await attach(-1));
    expect(readers.map((reader) => reader.status)).toEqual(readers.map(() => 200));
    expect((await attach(-1)).status).toBe(429);
    // A client that reads to the end leaves.
    expect(await readers.pop()!.text()).toContain("event: finish");
    expect(await settled(stub, async () => (await count()) === MAX_READERS_PER_RESPONSE - 1)).toBe(true);
    for (const reader of readers) await reader.body!.cancel("done");
    expect(await settled(stub, async () => (await count()) === 0)).toBe(true);
  });
});

describe("the readers of one object", () => {
  it("are at most 1,024 over all its responses: one more, of any response, is a 429 object_busy, until one leaves", () => {
    const readers = new ResponseReaders();
    const leaves: (() => void)[] = [];
    // 64 responses, each read by its 16 (a client of its own): within every bound.
    for (let response = 0; response < 64; response++)
      for (let i = 0; i < MAX_READERS_PER_RESPONSE; i++) leaves.push(readers.take(`r${response}`, `c${response}`));
    // Failed before: a 65th response took its 16 places too (the bound was per response only).
    const refused = (() => {
      try {
        readers.take("r64", "c64");
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(429);
    expect((refused as HttpError).body).toMatchObject({ code: "object_busy" });
    expect((refused as HttpError).headers).toEqual({ "retry-after": "15" });
    expect(readers.total).toBe(1024);
    // A new response is refused alike, before its provider is called.
    expect(() => readers.checkRoom("c64")).toThrow(HttpError);
    // A response at its own bound still says so.
    expect(() => readers.take("r0", "c0")).toThrow(
      expect.objectContaining({ body: expect.objectContaining({ code: "too_many_readers" }) }),
    );
    // One that leaves gives its place back to any response's next client.
    leaves.pop()!();
    expect(readers.take("r64", "c64")).toBeTypeOf("function");
    expect(readers.total).toBe(1024);
  });
});

describe("a new response of a full object", () => {
  it("is a 429 object_busy before its provider is called", async () => {
    const clock = new ManualTimers();
    const first = await startResponse(stalling(), clock, { IDLE_TIMEOUT_MS: "60000" });
    // The object's own bound made 1 (16 per response as ever): its first response's client fills it.
    const upstream = stalling();
    await runInDurableObject(first.stub, (instance: ResponseBuffer) => {
      const readers = new ResponseReaders(MAX_READERS_PER_RESPONSE, 1);
      readers.take(first.id, "");
      instance.useReaders(readers);
      instance.useRuntime({ fetch: upstream.fetch, timers: clock }, { ...liveOpenAI, IDLE_TIMEOUT_MS: "60000" });
    });
    // Another response of the same pool object (its colo and slot).
    const [, colo, slot] = /^([a-z]+)-(\d+)\./.exec(first.id)!;
    const id = await newResponseId(colo, 16, await responseIdKey(undefined), Number(slot));
    expect(objectNameOf(id)).toBe(objectNameOf(first.id));
    // Failed before (15e3c00a's check in #begin reverted): the provider was called, a 200.
    const refused = (await first.stub.startStream(id, parseStreamRequest(validBody(), providerNames)))!;
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("15");
    expect(await refused.json()).toMatchObject({ error: { code: "object_busy" } });
    expect(upstream.requests).toHaveLength(0);
    await first.response.body!.cancel("done");
  });
});

describe("one client's share of an object's readers", () => {
  it("is all but the last MAX_READERS_PER_CLIENT places: past it a 429 client_busy, while other clients still get in", () => {
    const readers = new ResponseReaders();
    const take = (client: string, response: number) => readers.take(`${client}-r${response}`, client);
    const refusal = (act: () => unknown) => {
      try {
        act();
      } catch (error) {
        return error as HttpError;
      }
      throw new Error("not refused");
    };
    // One client reads response after response, one place each (as many GETs of new ids would).
    const greedy: (() => void)[] = [];
    for (let i = 0; i < MAX_READERS_PER_OBJECT - MAX_READERS_PER_CLIENT; i++) greedy.push(take("greedy", i));
    // Failed before: it took all 1,024 places, and every other client was an object_busy.
    const refused = refusal(() => take("greedy", 768));
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "client_busy", message: expect.stringContaining("768 responses") });
    expect(refused.headers).toEqual({ "retry-after": "15" });
    expect(readers.ofClient("greedy")).toBe(768);
    // A new response of its is refused alike; another client's is not.
    expect(() => readers.checkRoom("greedy")).toThrow(HttpError);
    expect(() => readers.checkRoom("other")).not.toThrow();
    // The others share the last 256 places, each within its own share.
    for (let i = 0; i < MAX_READERS_PER_CLIENT / 2; i++) take("second", i);
    for (let i = 0; i < MAX_READERS_PER_CLIENT / 2; i++) take("third", i);
    expect(readers.total).toBe(MAX_READERS_PER_OBJECT);
    expect(refusal(() => take("fourth", 0)).body).toMatchObject({ code: "object_busy" });
    // A place the greedy client gives back goes to a client under its share first: the greedy one
    // stays refused while the object has no more than 256 places free.
    greedy.pop()!();
    expect(refusal(() => take("greedy", 900)).body).toMatchObject({ code: "client_busy" });
    expect(take("fourth", 0)).toBeTypeOf("function");
  });

  it("holds through the object: a client's GETs past its share are refused, another client's are served", async () => {
    const clock = new ManualTimers();
    const { id, stub, response } = await startResponse(stalling(), clock, { IDLE_TIMEOUT_MS: "60000" });
    // An object of 6 places and shares of 2 (16 per response as ever): its first client holds one.
    await runInDurableObject(stub, (instance: ResponseBuffer) => {
      const readers = new ResponseReaders(MAX_READERS_PER_RESPONSE, 6, 2);
      readers.take(id, "greedy");
      instance.useReaders(readers);
    });
    const readers = [response];
    for (let i = 0; i < 3; i++) readers.push(await attachTo(stub, id, -1, "GET", "greedy"));
    expect(readers.map((reader) => reader.status)).toEqual([200, 200, 200, 200]);
    // Failed before: `client` was not read, and the object served its fifth GET too.
    const refused = await attachTo(stub, id, -1, "GET", "greedy");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: "client_busy" } });
    const other = await attachTo(stub, id, -1, "GET", "other");
    expect(other.status).toBe(200);
    for (const reader of [...readers, other]) await reader.body!.cancel("done");
  });

  it("counts the responses a client is opening: many opened at once take no more than its share", () => {
    const readers = new ResponseReaders(MAX_READERS_PER_RESPONSE, 6, 2);
    // Four responses of one client being opened at once (their providers yet to answer).
    const opening = Array.from({ length: 4 }, () => readers.opening("greedy"));
    expect(readers.ofClient("greedy")).toBe(4);
    // Failed before: the responses being opened counted for the object alone, so the greedy client
    // held none and its fifth and sixth were opened too, filling the object.
    expect(() => readers.opening("greedy")).toThrow(
      expect.objectContaining({ status: 429, body: expect.objectContaining({ code: "client_busy" }) }),
    );
    expect(() => readers.checkRoom("greedy")).toThrow(HttpError);
    // Another client still gets in, within the object's bound.
    const other = readers.opening("other");
    expect(readers.total).toBe(5);
    // An opening ended (its first client takes its own place, or it failed) gives its place back.
    opening.pop()!();
    opening.pop()!();
    expect(readers.ofClient("greedy")).toBe(2);
    expect(readers.total).toBe(3);
    const again = readers.opening("greedy");
    for (const release of [...opening, other, again]) release();
    expect(readers.total).toBe(0);
    expect(readers.ofClient("greedy")).toBe(0);
  });

  it("holds through the object for responses being opened: a client's starts past its share are refused before its provider is called", async () => {
    const clock = new ManualTimers();
    const upstream = new FakeUpstream({ kind: "hang" });
    const first = await mintedTestResponseId();
    const stub = objectOf(first);
    await runInDurableObject(stub, (instance: ResponseBuffer) => {
      instance.useReaders(new ResponseReaders(MAX_READERS_PER_RESPONSE, 6, 2));
      instance.useRuntime({ fetch: upstream.fetch, timers: clock }, { ...liveOpenAI, IDLE_TIMEOUT_MS: "60000" });
    });
    // More responses of the same pool object (its colo and slot).
    const [, colo, slot] = /^([a-z]+)-(\d+)\./.exec(first)!;
    const key = await responseIdKey(undefined);
    const ids = [
      first,
      ...(await Promise.all(Array.from({ length: 5 }, () => newResponseId(colo, 16, key, Number(slot))))),
    ];
    const start = (id: string, client: string) =>
      stub.startStream(id, parseStreamRequest(validBody(), providerNames), client);
    // The greedy client opens four at once: their providers have yet to answer.
    const opening = ids.slice(0, 4).map((id) => start(id, "greedy"));
    expect(await settled(stub, () => upstream.requests.length === 4)).toBe(true);
    let answered: Response | undefined;
    const fifth = start(ids[4]!, "greedy").then((answer) => void (answered = answer));
    expect(await settled(stub, () => answered !== undefined || upstream.requests.length > 4)).toBe(true);
    // Failed before: its fifth was opened too (a provider call), though it held four of six places.
    expect(upstream.requests).toHaveLength(4);
    expect(answered!.status).toBe(429);
    expect(await answered!.json()).toMatchObject({ error: { code: "client_busy" } });
    // Another client's is opened.
    const other = start(ids[5]!, "other");
    expect(await settled(stub, () => upstream.requests.length === 5)).toBe(true);
    for (const id of ids) await stub.cancel(id);
    await Promise.allSettled([...opening, fifth, other]);
  });
});
