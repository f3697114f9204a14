// A response being opened holds its first client's place (`ResponseReaders.opening`) until its
// provider answers; every way the opening can fail gives the place back, so that failed starts
// never lock a client, or the object, out. One that opens keeps the place for its client's first
// attach: no other client takes it meanwhile, and a client that never comes gives it back.
import { runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { MAX_READERS_PER_RESPONSE, ResponseReaders } from "../../worker/resumable/response-readers.ts";
import { newResponseId, responseIdKey } from "../../worker/resumable/response-id.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { settled } from "./durable-support.ts";
import { attach } from "../../worker/resumable/response-pool.ts";
import { FakeUpstream, liveOpenAI, ManualTimers, mintedTestResponseId, objectOf, validBody } from "./support.ts";

it("a response whose opening fails gives its place back: a provider's 4xx or 5xx, a network error, a cancel while it hangs", async () => {
  const clock = new ManualTimers();
  const upstream = new FakeUpstream({ kind: "hang" });
  const first = await mintedTestResponseId();
  const stub = objectOf(first);
  // An object of one place: a place kept by a failed opening refuses every later start.
  const readers = new ResponseReaders(MAX_READERS_PER_RESPONSE, 1);
  await runInDurableObject(stub, (instance: ResponseBuffer) => {
    instance.useReaders(readers);
    instance.useRuntime({ fetch: upstream.fetch, timers: clock }, { ...liveOpenAI, IDLE_TIMEOUT_MS: "60000" });
  });
  const [, colo, slot] = /^([a-z]+)-(\d+)\./.exec(first)!;
  const key = await responseIdKey(undefined);
  const ids = [first, ...(await Promise.all([1, 2, 3].map(() => newResponseId(colo!, 16, key, Number(slot)))))];
  const start = (id: string) => stub.startStream(id, parseStreamRequest(validBody(), providerNames), "client");
  const body = JSON.stringify({ error: { message: "no", type: "invalid_request_error" } });
  const failures = [
    { kind: "response", status: 400, body, headers: { "content-type": "application/json" } },
    { kind: "response", status: 503, body, headers: { "content-type": "application/json" } },
    { kind: "network-error" },
  ] as const;
  for (const [i, answer] of failures.entries()) {
    upstream.answer = answer;
    const failed = (await start(ids[i]!))!;
    expect(failed.status).not.toBe(429);
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(readers.total).toBe(0);
  }
  // One that hangs holds the place while it opens, and gives it back when cancelled.
  upstream.answer = { kind: "hang" };
  const hanging = start(ids[3]!);
  expect(await settled(stub, () => upstream.requests.length === failures.length + 1)).toBe(true);
  expect(readers.total).toBe(1);
  await stub.cancel(ids[3]!);
  await hanging.catch(() => undefined);
  expect(readers.total).toBe(0);
  expect(readers.ofClient("client")).toBe(0);
});

/** An object of `objectLimit` places and shares of `share`, whose provider answers, then stalls; `count` ids of it. */
async function stallingObject(objectLimit: number, share: number, count: number) {
  const clock = new ManualTimers();
  const upstream = new FakeUpstream({ kind: "sse", chunks: [], then: "stall" });
  const first = await mintedTestResponseId();
  const stub = objectOf(first);
  const readers = new ResponseReaders(MAX_READERS_PER_RESPONSE, objectLimit, share);
  await runInDurableObject(stub, (instance: ResponseBuffer) => {
    instance.useReaders(readers);
    instance.useRuntime({ fetch: upstream.fetch, timers: clock }, { ...liveOpenAI, IDLE_TIMEOUT_MS: "60000" });
  });
  const [, colo, slot] = /^([a-z]+)-(\d+)\./.exec(first)!;
  const key = await responseIdKey(undefined);
  const more = await Promise.all(Array.from({ length: count - 1 }, () => newResponseId(colo!, 16, key, Number(slot))));
  const start = (id: string, client: string) =>
    stub.startStream(id, parseStreamRequest(validBody(), providerNames), client);
  return { clock, stub, readers, ids: [first, ...more], start };
}

it("a response that opens keeps its client's place through to that client's attach: another client cannot take it meanwhile", async () => {
  // An object of 3 places and shares of 1: a client holding one place opens another response.
  const { stub, readers, ids, start } = await stallingObject(3, 1, 2);
  expect(await start(ids[0]!, "a")).toBeUndefined();
  const reading = await attach(stub, ids[0]!, -1, "GET", "a");
  expect(reading.status).toBe(200);
  expect(await start(ids[1]!, "a")).toBeUndefined();
  // Another client comes between the opening and the opening client's attach: it takes the last free place.
  const other = await attach(stub, ids[0]!, -1, "GET", "b");
  expect(other.status).toBe(200);
  // Failed before: the opening's place was given back at the open, so this attach counted again and
  // found client "a" past its share of a busy object: a 429 client_busy on its own running response.
  const own = await attach(stub, ids[1]!, -1, "GET", "a");
  expect(own.status).toBe(200);
  expect(readers.total).toBe(3);
  expect(readers.ofClient("a")).toBe(2);
  for (const body of [reading, other, own]) await body.body!.cancel("done");
  expect(await settled(stub, () => readers.total === 0)).toBe(true);
  for (const id of ids) await stub.cancel(id);
});

it("a response whose client never attaches gives its kept place back when it is given up at the detached limit", async () => {
  const { clock, stub, readers, ids, start } = await stallingObject(1, 1, 2);
  const limit = clock.whenScheduled(120_000);
  expect(await start(ids[0]!, "a")).toBeUndefined();
  await limit;
  // Kept for its client: the object's one place is taken.
  expect(readers.total).toBe(1);
  expect((await start(ids[1]!, "b"))!.status).toBe(429);
  // The detached limit passes with no client: the response is cancelled, and its place given back.
  await runInDurableObject(stub, () => clock.fire(clock.handlesOf(120_000)[0]!));
  expect(await settled(stub, () => readers.total === 0)).toBe(true);
  expect(await start(ids[1]!, "b")).toBeUndefined();
  await stub.cancel(ids[1]!);
});
