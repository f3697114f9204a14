// A resumable response (or run) whose provider answered, but whose start then failed (its log's
// header could not be written: a storage fault) gives back everything it held: its first client's
// kept place (else that client later meets 429 client_busy, the object object_busy), and its
// provider request, cancelled (else it runs on unread, a cost the client never sees). The client
// gets the Worker's JSON 500, not a response that hangs. A log write that fails mid-response
// cancels the provider request as well, and ends the bodies of its clients.
import { runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { MAX_READERS_PER_RESPONSE, ResponseReaders } from "../../worker/resumable/response-readers.ts";
import { newResponseId, responseIdKey } from "../../worker/resumable/response-id.ts";
import { runStart } from "../../worker/resumable/run-start.ts";
import { parseRunRequest } from "../../worker/request/parse-run-request.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { failNextPut, settled } from "./durable-support.ts";
import { attach } from "../../worker/resumable/response-pool.ts";
import { FakeUpstream, liveOpenAI, ManualTimers, mintedTestResponseId, objectOf, validBody } from "./support.ts";

/** One chunk of an OpenAI stream: some text. */
const HI = 'data: {"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n';

/** An object of one place whose provider answers (`chunks`), then stalls; two ids of it. */
async function oneplaceObject(chunks: string[] = []) {
  const clock = new ManualTimers();
  const upstream = new FakeUpstream({ kind: "sse", chunks, then: "stall" });
  const first = await mintedTestResponseId();
  const stub = objectOf(first);
  const readers = new ResponseReaders(MAX_READERS_PER_RESPONSE, 1);
  await runInDurableObject(stub, (instance: ResponseBuffer) => {
    instance.useReaders(readers);
    instance.useRuntime({ fetch: upstream.fetch, timers: clock }, { ...liveOpenAI, IDLE_TIMEOUT_MS: "60000" }, {});
  });
  const [, colo, slot] = /^([a-z]+)-(\d+)\./.exec(first)!;
  const second = await newResponseId(colo!, 16, await responseIdKey(undefined), Number(slot));
  return { upstream, stub, readers, ids: [first, second] as const };
}

/** Makes the object's next storage transaction throw, as a full or failing storage does. */
function failNextTransaction(stub: DurableObjectStub<ResponseBuffer>): Promise<void> {
  return runInDurableObject(stub, (_instance, state) => {
    const storage = state.storage;
    const transactionSync = storage.transactionSync.bind(storage);
    storage.transactionSync = () => {
      storage.transactionSync = transactionSync;
      throw new Error("SQLITE_FULL: database or disk is full");
    };
  });
}

type Start = (stub: DurableObjectStub<ResponseBuffer>, id: string) => Promise<Response | undefined>;

const starts: Record<"stream" | "run", Start> = {
  stream: (stub: DurableObjectStub<ResponseBuffer>, id: string) =>
    stub.startStream(id, parseStreamRequest(validBody(), providerNames), "client"),
  run: (stub: DurableObjectStub<ResponseBuffer>, id: string) => {
    const text = JSON.stringify({
      provider: "openai",
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Hi" }],
    });
    return stub.startRun(id, runStart(parseRunRequest(JSON.parse(text), providerNames, {}), text), false, "client");
  },
};

for (const [kind, start] of Object.entries(starts)) {
  it(`a ${kind} whose log cannot be begun gives its place back, cancels its provider request, and answers 500`, async () => {
    const { upstream, stub, readers, ids } = await oneplaceObject();
    await failNextTransaction(stub);
    const failed = (await start(stub, ids[0]))!;
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: { code: "internal_error", message: expect.any(String) } });
    expect(upstream.requests).toHaveLength(1);
    // The provider's side sees its request cancelled, not read on by nobody.
    expect(await settled(stub, () => upstream.cancelled !== undefined)).toBe(true);
    expect(await runInDurableObject(stub, (instance: ResponseBuffer) => instance.isRunning(ids[0]))).toBe(false);
    // Its place given back: the object's one place takes the next response of the same client.
    expect(readers.total).toBe(0);
    expect(await start(stub, ids[1])).toBeUndefined();
    expect(readers.total).toBe(1);
    await stub.cancel(ids[1]);
  });
}

it("a run whose request body cannot be kept has not started: its place is given back, its provider request cancelled", async () => {
  const { upstream, stub, readers, ids } = await oneplaceObject();
  // The body's write fails: the run must not go on without it (a retry could not be told from another run).
  await failNextPut(stub, (key) => key.endsWith(":run:body"));
  const failed = (await starts.run(stub, ids[0]))!;
  expect(failed.status).toBe(500);
  expect(await settled(stub, () => upstream.cancelled !== undefined)).toBe(true);
  expect(await runInDurableObject(stub, (instance: ResponseBuffer) => instance.isRunning(ids[0]))).toBe(false);
  // Nothing of it was kept (a log without its body would answer each retry of it a 409).
  const kept = await runInDurableObject(stub, (_instance, state) => [
    ...state.storage.kv.list({ prefix: `r:${ids[0]}:` }),
  ]);
  expect(kept).toEqual([]);
  expect(readers.total).toBe(0);
  expect(await starts.run(stub, ids[1])).toBeUndefined();
  await stub.cancel(ids[1]);
});

it("a stream whose log write fails mid-response cancels its provider request and ends its client's body", async () => {
  const { upstream, stub, readers, ids } = await oneplaceObject([HI]);
  await failNextPut(stub, (key) => key.includes(":log:b:"));
  expect(await starts.stream(stub, ids[0])).toBeUndefined();
  const reading = await attach(stub, ids[0], -1, "GET", "client");
  expect(reading.status).toBe(200);
  let ended = false;
  const body = reading.text().finally(() => {
    ended = true;
  });
  // Not read on by nobody, its frames no longer stored; its client not left waiting for frames that never come.
  expect(await settled(stub, () => upstream.cancelled !== undefined)).toBe(true);
  expect(await settled(stub, () => ended)).toBe(true);
  await body.catch(() => undefined);
  expect(await settled(stub, () => readers.total === 0)).toBe(true);
});
