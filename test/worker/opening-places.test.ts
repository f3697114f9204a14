// A response being opened holds its first client's place (`ResponseReaders.opening`) until its
// provider answers; every way the opening can fail gives the place back, so that failed starts
// never lock a client, or the object, out.
import { runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { MAX_READERS_PER_RESPONSE, ResponseReaders } from "../../worker/resumable/response-readers.ts";
import { newResponseId, responseIdKey } from "../../worker/resumable/response-id.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { settled } from "./durable-support.ts";
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
