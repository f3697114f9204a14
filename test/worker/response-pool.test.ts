// Resumable responses share a pool of Durable Objects per location: the response id names its
// object, each response keeps its own keys there, and one alarm per object serves every expiry.
// Two responses run in one object here at once: each is served, resumed, cancelled, restarted and
// expired on its own.
import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Expiries } from "../../worker/resumable/expiries.ts";
import { deleteResponse, keyedStore } from "../../worker/resumable/keyed-store.ts";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import {
  mintedResponseObject,
  newResponseId,
  objectNameOf,
  responseIdKey,
} from "../../worker/resumable/response-id.ts";
import { attach as attachTo } from "../../worker/resumable/response-pool.ts";
import { loadResponseLog } from "../../worker/resumable/response-log-reads.ts";
import type { RunnableTool } from "../../src/index.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { parseRunRequest } from "../../worker/request/parse-run-request.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import { runStart } from "../../worker/resumable/run-start.ts";
import { framesOf, restart, runExpiryAlarm, settled } from "./durable-support.ts";
import {
  chatChunk,
  FakeUpstream,
  liveOpenAI,
  ManualTimers,
  newTestResponseId,
  testMac,
  objectOf,
  openAIChunks,
  readSSE,
  responseObjects,
  responses,
  streamRequest,
  testEnv,
  validBody,
  weatherCall,
  worker,
} from "./support.ts";

const UUID = "1b4e28ba-2fa1-41d2-883f-0016d3cca427";

describe("response ids name their pool object", () => {
  it("a new id is <place>-<slot>.<uuid>.<mac>: the colo in lower case (any without one), a slot below the pool size", async () => {
    const key = await responseIdKey(undefined);
    expect(await newResponseId("SJC", 16, key)).toMatch(/^sjc-\d{1,2}\.[0-9a-f-]{36}\.[\w-]{22}$/);
    for (const colo of [undefined, "", "sjc1", "S C", 42, "../x"])
      expect(await newResponseId(colo, 16, key)).toMatch(/^any-\d{1,2}\.[0-9a-f-]{36}\.[\w-]{22}$/);
    const ids = await Promise.all(Array.from({ length: 400 }, () => newResponseId("AMS", 4, key)));
    const slots = new Set(ids.map((id) => Number(objectNameOf(id)!.slice(4))));
    expect([...slots].sort()).toEqual([0, 1, 2, 3]);
    const single = await Promise.all(Array.from({ length: 50 }, () => newResponseId("AMS", 1, key)));
    expect(new Set(single.map(objectNameOf))).toEqual(new Set(["ams-0"]));
  });

  it("only a well-formed id names an object", () => {
    const mac = "x1Vb0kq7Qd2aY3mT9cW8pA";
    expect(objectNameOf(`sjc-3.${UUID}.${mac}`)).toBe("sjc-3");
    expect(objectNameOf(`any-9999.${UUID}.${mac}`)).toBe("any-9999");
    for (const bad of [
      UUID,
      `sjc-3.${UUID}`,
      `SJC-3.${UUID}.${mac}`,
      `sjc-10000.${UUID}.${mac}`,
      `sjc-3.${UUID}x.${mac}`,
      `sjc-3.${UUID.toUpperCase()}.${mac}`,
      `sj-3.${UUID}.${mac}`,
      `sjc-3:${UUID}.${mac}`,
      `sjc-3.${UUID}.${mac}x`,
      `sjc-3.${UUID}.${mac.slice(1)}`,
      "",
      "not-an-id",
    ]) {
      expect(objectNameOf(bad)).toBeUndefined();
    }
  });

  it("only an id this Worker minted, with its key and within the pool, reaches an object", async () => {
    let touched = 0;
    const spy = new Proxy(responses, {
      get(target, name) {
        touched++;
        const member = Reflect.get(target, name) as unknown;
        return typeof member === "function" ? member.bind(target) : member;
      },
    });
    const key = await responseIdKey("the deploy's secret");
    const id = await newResponseId("SJC", 16, key);
    expect(await mintedResponseObject(spy, id, 16, key)).toBeDefined();
    expect(touched).toBeGreaterThan(0);
    touched = 0;
    const [unsigned, mac] = [id.slice(0, id.lastIndexOf(".")), id.slice(id.lastIndexOf(".") + 1)];
    const flipped = `${unsigned}.${mac[0] === "A" ? "B" : "A"}${mac.slice(1)}`;
    const elsewhere = `${unsigned.replace(/^sjc-\d+/, "ams-1")}.${mac}`;
    const outside = await newResponseId("SJC", 1000, key);
    for (const [forged, objects, withKey] of [
      [flipped, 16, key],
      [elsewhere, 16, key],
      [`${unsigned}.${testMac()}`, 16, key],
      [id, 16, await responseIdKey("another secret")],
      [id, 16, await responseIdKey(undefined)],
      [outside, Number(objectNameOf(outside)!.slice(4)), key],
      [unsigned, 16, key],
    ] as const) {
      expect(await mintedResponseObject(spy, forged, objects, withKey)).toBeUndefined();
    }
    expect(touched).toBe(0);
  });
});

describe("one object's storage, many responses", () => {
  it("keyedStore keeps each response's keys apart; deleteResponse drops one response's and nothing else", async () => {
    const stub = objectOf(newTestResponseId());
    await runInDurableObject(stub, (_instance, state) => {
      const [a, b] = [`sjc-1.${UUID}.${testMac()}`, `sjc-1.${UUID.replace("1b", "2c")}.${testMac()}`];
      const [first, second] = [keyedStore(state.storage.kv, a), keyedStore(state.storage.kv, b)];
      first.put("log:meta", 1);
      first.put("log:b:1", "x");
      second.put("log:meta", 2);
      second.put("tool:call_1", { state: "started" });
      expect(first.get("log:meta")).toBe(1);
      expect([...first.list({ prefix: "log:" })]).toEqual([
        ["log:b:1", "x"],
        ["log:meta", 1],
      ]);
      expect([...second.list()].map(([key]) => key)).toEqual(["log:meta", "tool:call_1"]);
      deleteResponse(state.storage.kv, a);
      expect([...first.list()]).toEqual([]);
      expect([...state.storage.kv.list()].map(([key]) => key)).toEqual([`r:${b}:log:meta`, `r:${b}:tool:call_1`]);
    });
  });

  it("Expiries: the earliest time first, a later time replaces an earlier one, due up to and including now, an added entry forgotten by its time", async () => {
    const stub = objectOf(newTestResponseId());
    await runInDurableObject(stub, (_instance, state) => {
      const expiries = new Expiries(state.storage.kv);
      expect(expiries.next()).toBeUndefined();
      expect(expiries.set("a", 5_000)).toBe(true);
      expect(expiries.set("b", 9_000)).toBe(false);
      expect(expiries.set("c", 1_000)).toBe(true);
      expect(expiries.next()).toBe(1_000);
      // Moved later: c's entry at 1,000 is gone.
      expect(expiries.set("c", 20_000)).toBe(false);
      expect(expiries.next()).toBe(5_000);
      const due = (now: number): string[] => expiries.due(now).map((entry) => entry.id);
      expect(due(4_999)).toEqual([]);
      expect(expiries.due(5_000)).toEqual([{ id: "a", at: 5_000 }]);
      expect(due(100_000)).toEqual(["a", "b", "c"]);
      expiries.forget("a");
      expiries.forget("unknown");
      expect(due(100_000)).toEqual(["b", "c"]);
      // A stored response's entry: the index alone, forgotten by its time.
      expiries.add("d", 3_000);
      expect(expiries.next()).toBe(3_000);
      expect(expiries.due(4_000)).toEqual([{ id: "d", at: 3_000 }]);
      expiries.forget("d", 3_000);
      expiries.forget("b");
      expiries.forget("c");
      expect(expiries.next()).toBeUndefined();
      expect([...state.storage.kv.list()]).toEqual([]);
    });
  });
});

/** Two responses started in one object: `a` finishes, `b` stalls after its first chunk. */
async function twoInOneObject() {
  const pool = newTestResponseId().split(".")[0]!;
  const [a, b] = [`${pool}.${crypto.randomUUID()}.${testMac()}`, `${pool}.${crypto.randomUUID()}.${testMac()}`];
  const stub = objectOf(a);
  expect(objectOf(b).id.toString()).toBe(stub.id.toString());
  // In the order they are started: b, then a.
  const upstreams = [
    new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([chatChunk({ content: "Second. " }), weatherCall(0, "call_b", '{"city":')]).slice(0, 2),
      then: "stall",
    }),
    new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([
        chatChunk({ content: "First. " }),
        weatherCall(0, "call_a", '{"city":"Oslo"}'),
        chatChunk({}, "tool_calls"),
      ]),
    }),
  ];
  let next = 0;
  const fetch = (url: string, init: RequestInit): Promise<Response> => upstreams[next++]!.fetch(url, init);
  await runInDurableObject(stub, (instance: ResponseBuffer) =>
    // Every chunk written as it comes (no write window on this manual clock).
    instance.useRuntime(
      { fetch, timers: new ManualTimers() },
      { ...liveOpenAI, IDLE_TIMEOUT_MS: "60000", RESUME_WRITE_WINDOW_MS: "0" },
    ),
  );
  const request = parseStreamRequest(validBody(), providerNames);
  const start = async (id: string) => (await stub.startStream(id, request)) ?? (await attachTo(stub, id, -1));
  const attach = (id: string, after = -1) => attachTo(stub, id, after);
  const second = await start(b);
  const reader = second.body!.getReader();
  const secondFirst = new TextDecoder().decode((await reader.read()).value);
  const first = framesOf(await (await start(a)).text());
  return { stub, a, b, first, secondFirst, reader, attach, upstreams };
}

describe("two responses in one object", () => {
  it("each is served and resumed from its own log, ids from 0; a finished one is in storage only while the other runs", async () => {
    const { stub, a, b, first, secondFirst, reader, attach } = await twoInOneObject();
    const messages = (await readSSE(new Response(first.join("")))).messages;
    expect(messages.map((m) => m.id)).toEqual(messages.map((_, i) => String(i)));
    expect(first.join("")).toContain("First. ");
    expect(first.join("")).not.toContain("Second. ");
    expect(secondFirst).toContain("Second. ");
    expect(secondFirst).toContain("id: 0\n");
    expect(
      await runInDurableObject(stub, (instance: ResponseBuffer) => [instance.isRunning(a), instance.isRunning(b)]),
    ).toEqual([false, true]);
    for (let lastSeen = -1; lastSeen < first.length; lastSeen++)
      expect(framesOf(await (await attach(a, lastSeen)).text())).toEqual(first.slice(lastSeen + 1));
    const resumed = (await attach(b, 0)).body!.getReader();
    const rest = (await readSSE(new Response((await resumed.read()).value))).messages;
    expect(rest[0]!.id).toBe("1");
    expect(rest.map((m) => m.data).join("")).toContain("call_b");
    expect(rest.map((m) => m.data).join("")).not.toContain("call_a");
    await resumed.cancel();
    await reader.cancel();
  });

  it("a cancel stops only its own response", async () => {
    const { stub, a, b, reader, upstreams } = await twoInOneObject();
    await stub.cancel(a);
    expect(upstreams[0]!.cancelled).toBeUndefined();
    await stub.cancel(b);
    let text = "";
    for (let step = await reader.read(); !step.done; step = await reader.read())
      text += new TextDecoder().decode(step.value);
    expect((await readSSE(new Response(text))).events.at(-1)).toMatchObject({ type: "abort" });
    expect(upstreams[0]!.cancelled).toBeDefined();
  });

  it("the expiry alarm drops the finished response, keeps the running one and its storage, and waits for the next expiry", async () => {
    const { stub, a, b, reader, attach } = await twoInOneObject();
    expect(await runExpiryAlarm(stub)).toBe(true);
    expect((await attach(a)).status).toBe(404);
    const keys = await runInDurableObject(stub, (_instance, state) => [...state.storage.kv.list()].map(([key]) => key));
    expect(keys.filter((key) => key.startsWith(`r:${a}:`) || key.includes(a))).toEqual([]);
    expect(keys.filter((key) => key.startsWith(`r:${b}:`)).length).toBeGreaterThan(0);
    expect(await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm())).not.toBeNull();
    const resumed = await attach(b, -1);
    expect(resumed.status).toBe(200);
    await resumed.body!.cancel();
    await reader.cancel();
  });

  it("a restart cuts both: the finished one is served whole, the running one up to the cut and then error 'interrupted'", async () => {
    const { stub, a, b, first, reader, upstreams } = await twoInOneObject();
    expect(await settled(stub, () => upstreams[0]!.pulled === 2)).toBe(true);
    const written = await runInDurableObject(stub, (_instance, state) =>
      loadResponseLog(keyedStore(state.storage.kv, b))!.batches.flatMap((batch) => framesOf(batch.text)),
    );
    await reader.cancel();
    await abortAllDurableObjects();
    // A stub of an object that was reset is broken: a new one reaches the fresh instance.
    const attach = (id: string) => attachTo(objectOf(id), id, -1);
    expect(framesOf(await (await attach(a)).text())).toEqual(first);
    const cut = framesOf(await (await attach(b)).text());
    expect(cut.slice(0, written.length)).toEqual(written);
    expect((await readSSE(new Response(cut.slice(written.length).join("")))).events).toMatchObject([
      { type: "error", error: { code: "interrupted" } },
      { type: "abort" },
    ]);
  });

  it("a response id that does not name an object is 404 at the object too", async () => {
    const stub = objectOf(newTestResponseId());
    for (const id of ["", UUID, "x"]) {
      const answer = await attachTo(stub, id, -1);
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual({
        error: { code: "unknown_response", message: "No response with this id is in flight or recent." },
      });
    }
  });
});

describe("an object of the layout before the pool", () => {
  it("its expiry alarm, which lands in the pooled object's code, still drops its unprefixed log", async () => {
    // A response id of the old layout was a bare UUID naming its own object.
    const stub = responseObjects.get(responseObjects.idFromName(crypto.randomUUID()));
    await runInDurableObject(stub, async (_instance, state) => {
      state.storage.kv.put("log:meta", {
        version: 2,
        kind: "stream",
        headers: {},
        limits: { maxFrames: 10, maxBytes: 100 },
        done: true,
      });
      state.storage.kv.put("log:b:000000000000000", "id: 0\n\n");
      state.storage.kv.put("run:body", "{}");
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect(await runExpiryAlarm(stub)).toBe(true);
    expect(await runInDurableObject(stub, (_instance, state) => [...state.storage.kv.list()])).toEqual([]);
  });
});

describe("the expiry alarm and a run being retried", () => {
  it("keeps the records of a run a restart cut while its retry opens: the call it ran is not run twice", async () => {
    const id = newTestResponseId();
    const runs = new Map<string, number>();
    // Before the restart the call never ends (the restart cuts it); after, it would answer at once.
    let cutting = true;
    const count: RunnableTool = {
      description: "Counts.",
      parameters: { type: "object", properties: {} },
      run: async (_args, { call }) => {
        runs.set(call.id!, (runs.get(call.id!) ?? 0) + 1);
        if (cutting) await new Promise<never>(() => {});
        return { counted: true };
      },
    };
    const model = async (url: string, init: RequestInit): Promise<Response> => {
      const request = new Request(url, init);
      const { messages } = (await request.json()) as { messages: Array<{ role: string }> };
      const chunks = messages.some((message) => message.role === "tool")
        ? openAIChunks([chatChunk({ content: "Counted." }), chatChunk({}, "stop")])
        : openAIChunks([
            chatChunk({ tool_calls: [{ index: 0, id: "call_a", function: { name: "count", arguments: "{}" } }] }),
            chatChunk({}, "tool_calls"),
          ]);
      return new Response(chunks.join(""), { headers: { "content-type": "text/event-stream" } });
    };
    const body = JSON.stringify({
      provider: "openai",
      model: "m",
      messages: [{ role: "user", content: "Count." }],
      tools: ["count"],
    });
    const run = async (stub: DurableObjectStub<ResponseBuffer>, retry: number) =>
      (await stub.startRun(
        id,
        runStart(parseRunRequest(JSON.parse(body), providerNames, { count }), body),
        retry === 1,
      )) ?? (await attachTo(stub, id, -1));
    const stub = objectOf(id);
    await runInDurableObject(stub, (instance: ResponseBuffer) =>
      instance.useRuntime({ fetch: model, timers: new ManualTimers() }, liveOpenAI, { count }),
    );
    await (await run(stub, 0)).body!.cancel();
    expect(await settled(stub, () => runs.get("call_a") === 1)).toBe(true);
    const fresh = await restart(id, stub);
    cutting = false;
    // The retry's first model call is held open while the alarm runs as if the run's expiry had passed.
    let asked = false;
    let answer = (): void => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const held = async (url: string, init: RequestInit): Promise<Response> => {
      asked = true;
      await answered;
      return model(url, init);
    };
    await runInDurableObject(fresh, (instance: ResponseBuffer) =>
      instance.useRuntime({ fetch: held, timers: new ManualTimers() }, liveOpenAI, { count }),
    );
    const retrying = run(fresh, 1);
    expect(await settled(fresh, () => asked)).toBe(true);
    expect(await runExpiryAlarm(fresh)).toBe(true);
    answer();
    const events = (await readSSE(await retrying)).events as unknown as Array<Record<string, unknown>>;
    expect(events.find((event) => event["type"] === "tool-error" && event["id"] === "call_a")).toMatchObject({
      error: { message: expect.stringContaining("not run twice") },
    });
    expect(events.at(-1)).toMatchObject({ type: "loop-finish", reason: "no-tool-calls" });
    expect(runs.get("call_a")).toBe(1);
  });
});

describe("the pool through the routes", () => {
  const app = worker(new FakeUpstream({ kind: "network-error" }));

  it("the id names the request's location; RESPONSE_OBJECTS=1 puts every response of a location in one object, each resumable", async () => {
    const env = testEnv({ RESPONSES: responses, RESPONSE_OBJECTS: "1" });
    const located = new Request(streamRequest(validBody()), { cf: { colo: "AMS" } } as RequestInit);
    const started = await app.call(located, env);
    expect(started.headers.get("x-response-id")).toMatch(/^ams-0\.[0-9a-f-]{36}\.[\w-]{22}$/);
    await started.text();
    const both = await Promise.all([
      app.call(streamRequest(validBody()), env),
      app.call(streamRequest(validBody({ provider: "anthropic" })), env),
    ]);
    const ids = both.map((response) => response.headers.get("x-response-id")!);
    expect(ids.map((id) => objectNameOf(id))).toEqual(["any-0", "any-0"]);
    const wholes = await Promise.all(both.map(async (response) => (await readSSE(response)).messages));
    for (const [index, id] of ids.entries()) {
      const resumed = await app.call(
        new Request(`http://localhost:8787/v1/stream/${id}`, { headers: { "last-event-id": "0" } }),
        env,
      );
      expect((await readSSE(resumed)).messages).toEqual(wholes[index]!.slice(1));
    }
  });

  it("RESPONSE_OBJECTS must be an integer from 1 to 1000", async () => {
    for (const value of ["0", "1001", "many"]) {
      const answer = await app.call(
        streamRequest(validBody()),
        testEnv({ RESPONSES: responses, RESPONSE_OBJECTS: value }),
      );
      expect(answer.status).toBe(500);
      expect(await answer.json()).toEqual({
        error: {
          code: "worker_misconfigured",
          message: "This Worker is misconfigured (RESPONSE_OBJECTS): its operator's log says what to fix.",
        },
      });
    }
  });
});
