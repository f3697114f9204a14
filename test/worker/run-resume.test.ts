// Resumable runs (POST /v1/run through the RESPONSES Durable Objects): a client that goes away
// while tools run resumes with Last-Event-ID and gets the rest; a retry of the run (the same body
// with x-response-id) never runs a tool call twice, even after a restart of the object cut the
// run while its tools ran. The tool counts its executions per call id: each must be 1. The model is
// a fake OpenAI upstream, the tools wait on gates the test opens; cut points are seeded.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { JsonValue, RunnableTool } from "../../src/index.ts";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { runStart } from "../../worker/resumable/run-start.ts";
import { attach as attachTo } from "../../worker/resumable/response-pool.ts";
import { parseRunRequest } from "../../worker/request/parse-run-request.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { framesOf, restart, settled, storedFrames } from "./durable-support.ts";
import {
  chatChunk,
  liveOpenAI,
  ManualTimers,
  newTestResponseId,
  objectOf,
  openAIChunks,
  readSSE,
  responses,
  testEnv,
  worker,
} from "./support.ts";

const body = JSON.stringify({
  provider: "openai",
  model: "gpt-4o-mini",
  messages: [{ role: "user", content: "Count twice." }],
  tools: ["count"],
});
const countCall = (index: number, id: string, args: string) =>
  chatChunk({ tool_calls: [{ index, id, function: { name: "count", arguments: args } }] });

/** The model: step 1 calls `count` twice, step 2 (the results sent back) answers. */
async function model(url: string, init: RequestInit): Promise<Response> {
  const request = new Request(url, init);
  const { messages } = (await request.json()) as { messages: Array<{ role: string }> };
  const answered = messages.some((message) => message.role === "tool");
  const chunks = answered
    ? openAIChunks([chatChunk({ content: "Both counted." }), chatChunk({}, "stop")])
    : openAIChunks([
        chatChunk({ content: "Counting. " }),
        countCall(0, "call_a", '{"n":'),
        countCall(0, "", "1}"),
        countCall(1, "call_b", '{"n":2}'),
        chatChunk({}, "tool_calls"),
      ]);
  return new Response(chunks.join(""), { headers: { "content-type": "text/event-stream" } });
}

/** A tool that counts its executions per call id and waits until the test opens the call's gate. */
function countingTool() {
  const runs = new Map<string, number>();
  const gates = new Map<string, () => void>();
  const tool: RunnableTool = {
    description: "Counts.",
    parameters: { type: "object", properties: { n: { type: "number" } } },
    run: async (args, { call }) => {
      runs.set(call.id!, (runs.get(call.id!) ?? 0) + 1);
      await new Promise<void>((resolve) => gates.set(call.id!, resolve));
      return { counted: (args as { n: JsonValue }).n };
    },
  };
  return { tools: { count: tool }, runs, gates };
}

/** Seeded numbers in [0, bound). */
function seeded(seed: number): (bound: number) => number {
  let state = seed;
  return (bound) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % bound;
  };
}

/** Sends the run (or its retry) to the object `id`, its runtime and tools injected first. */
async function post(id: string, tools: Record<string, RunnableTool>, retry: boolean, text = body) {
  const stub = objectOf(id);
  const clock = new ManualTimers();
  await runInDurableObject(stub, (instance: ResponseBuffer) =>
    instance.useRuntime({ fetch: model, timers: clock }, liveOpenAI, tools),
  );
  const run = runStart(parseRunRequest(JSON.parse(text), providerNames, tools), text);
  const response = (await stub.startRun(id, run, retry)) ?? (await attachTo(stub, id, -1));
  return {
    stub,
    response,
    /** Closes the log's write window (RESUME_WRITE_WINDOW_MS): what waits in it is written. */
    closeWindow: () => runInDurableObject(stub, () => clock.fireWhere((ms) => ms <= 100)),
    attach: (after: number) => attachTo(stub, id, after),
  };
}

/** Reads `count` frames (at least one chunk), then disconnects. */
async function readFrames(response: Response, count: number): Promise<string[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (framesOf(text).length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel("client disconnected");
  return framesOf(text).slice(0, count);
}

const eventsOf = async (frames: string[]) =>
  (await readSSE(new Response(frames.join("")))).events as unknown as Array<Record<string, unknown>>;

describe("resumable runs: disconnects while tools run", () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: the client goes away and resumes (and retries) while the tools run; each call runs once and the rest arrives with no duplicate and no gap`, async () => {
      const random = seeded(seed * 104_729);
      const { tools, runs, gates } = countingTool();
      const id = newTestResponseId();
      const { stub, response, attach } = await post(id, tools, false);
      expect(response.status).toBe(200);
      const firstChunk = response.body!.getReader();
      await firstChunk.read();
      await firstChunk.cancel("client disconnected");
      expect(await settled(stub, () => gates.size === 2)).toBe(true);
      const written = await storedFrames(id);
      // A client that had read part of what was written before the tools finished.
      const seen = written.slice(0, 1 + random(written.length));
      // A retry of the running run reads it from the start; it runs nothing.
      const retried = await readFrames((await post(id, tools, true)).response, 1 + random(written.length));
      expect(retried).toEqual(written.slice(0, retried.length));
      // The tools finish, in a seeded order, while nobody is attached.
      const order = random(2) === 0 ? ["call_a", "call_b"] : ["call_b", "call_a"];
      await runInDurableObject(stub, () => order.forEach((call) => gates.get(call)!()));
      const rest = framesOf(await (await attach(seen.length - 1)).text());
      const received = [...seen, ...rest];
      const ids = (await readSSE(new Response(received.join("")))).messages.map((m) => Number(m.id));
      expect(ids).toEqual([...ids.keys()]);
      const events = await eventsOf(received);
      expect(events.at(-1)).toMatchObject({ type: "loop-finish", steps: 2, reason: "no-tool-calls" });
      expect(
        events
          .filter((event) => event.type === "tool-result")
          .map((event) => [event["id"], event["result"]])
          .sort(),
      ).toEqual([
        ["call_a", { counted: 1 }],
        ["call_b", { counted: 2 }],
      ]);
      expect(Object.fromEntries(runs)).toEqual({ call_a: 1, call_b: 1 });
      // A retry of the finished run reads the same log and runs nothing.
      const again = await (await post(id, tools, true)).response.text();
      expect(framesOf(again)).toEqual(received);
      expect(Object.fromEntries(runs)).toEqual({ call_a: 1, call_b: 1 });
    });
  }
});

describe("resumable runs: a restart while tools run", () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`seed ${seed}: the log ends 'interrupted'; a retry runs the loop again without running any call id twice`, async () => {
      const random = seeded(seed * 7_919);
      const { tools, runs, gates } = countingTool();
      const id = newTestResponseId();
      const { stub, response, closeWindow } = await post(id, tools, false);
      await response.body!.cancel("client disconnected");
      expect(await settled(stub, () => gates.size === 2)).toBe(true);
      // Seeded: none, one or both calls finish before the restart.
      const finished = ["call_a", "call_b"].slice(0, random(3));
      await runInDurableObject(stub, () => finished.forEach((call) => gates.get(call)!()));
      // Until what the finished calls lead to is written: their results, and with both, the end.
      const written = await (async () => {
        let frames: string[] = [];
        const caughtUp = async () => {
          await closeWindow();
          frames = await storedFrames(id);
          const events = await eventsOf(frames);
          const results = events.filter((event) => event.type === "tool-result").length;
          return results === finished.length && (finished.length < 2 || events.at(-1)?.type === "loop-finish");
        };
        expect(await settled(stub, caughtUp)).toBe(true);
        return frames;
      })();

      const fresh = await restart(id, stub);
      const lastSeen = random(written.length + 1) - 1;
      const rest = framesOf(await (await attachTo(fresh, id, lastSeen)).text());
      const whole = [...written.slice(0, lastSeen + 1), ...rest];
      const ids = (await readSSE(new Response(whole.join("")))).messages.map((m) => Number(m.id));
      expect(ids).toEqual([...ids.keys()]);
      expect(whole.slice(0, written.length)).toEqual(written);
      const events = await eventsOf(whole);
      const done = events.at(-1)!["type"] === "loop-finish" && events.at(-1)!["reason"] !== "aborted";
      if (!done) {
        expect(events.slice(-2)).toMatchObject([
          { type: "error", error: { code: "interrupted" } },
          { type: "loop-finish", reason: "aborted" },
        ]);
      }

      // The retry: the same request, the same tools (their counts), a new instance.
      const retry = await post(id, tools, true);
      expect(retry.response.status).toBe(200);
      const retried = await eventsOf(framesOf(await retry.response.text()));
      expect(retried.at(-1)).toMatchObject({ type: "loop-finish", reason: "no-tool-calls" });
      const outcome = (call: string) =>
        retried.find((event) => (event.type === "tool-result" || event.type === "tool-error") && event["id"] === call);
      for (const [call, n] of [
        ["call_a", 1],
        ["call_b", 2],
      ] as const) {
        if (finished.includes(call))
          expect(outcome(call)).toMatchObject({ type: "tool-result", result: { counted: n } });
        else
          expect(outcome(call)).toMatchObject({
            type: "tool-error",
            error: { message: expect.stringContaining("not run twice") },
          });
      }
      expect(Object.fromEntries(runs)).toEqual({ call_a: 1, call_b: 1 });
    });
  }
});

describe("resumable runs through the routes", () => {
  const env = testEnv({ RESPONSES: responses });
  const app = worker();
  const runRequest = (
    headers: Record<string, string> = {},
    text = JSON.stringify({
      provider: "openai",
      model: "m",
      messages: [{ role: "user", content: "What time is it in Paris?" }],
      tools: ["current_time"],
    }),
  ) =>
    new Request("http://localhost:8787/v1/run", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: text,
    });

  it("POST /v1/run answers with x-response-id; GET /v1/run/<id> with Last-Event-ID gets the rest; a retry of the finished run reads it again", async () => {
    const started = await app.call(runRequest(), env);
    expect(started.status).toBe(200);
    const id = started.headers.get("x-response-id")!;
    expect(id).toMatch(/^any-\d{1,2}\.[0-9a-f-]{36}\.[\w-]{22}$/);
    expect(started.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const whole = (await readSSE(started)).messages;
    expect(whole.at(-1)!.event).toBe("loop-finish");
    expect(whole.some((m) => m.event === "tool-result")).toBe(true);
    for (const cut of [0, 3, whole.length - 1]) {
      const resumed = await app.call(
        new Request(`http://localhost:8787/v1/run/${id}`, { headers: { "last-event-id": String(cut - 1) } }),
        env,
      );
      expect(resumed.status).toBe(200);
      expect((await readSSE(resumed)).messages).toEqual(whole.slice(cut));
    }
    const retried = await app.call(runRequest({ "x-response-id": id }), env);
    expect(retried.headers.get("x-response-id")).toBe(id);
    expect((await readSSE(retried)).messages).toEqual(whole);
  });

  it("a retry with another body is 409, of an unknown id 404, and a body error is still a 400 before any object", async () => {
    const started = await app.call(runRequest(), env);
    const id = started.headers.get("x-response-id")!;
    await started.text();
    const other = JSON.stringify({
      provider: "openai",
      model: "m",
      messages: [{ role: "user", content: "Something else." }],
      tools: ["current_time"],
    });
    expect((await app.call(runRequest({ "x-response-id": id }, other), env)).status).toBe(409);
    for (const unknown of [crypto.randomUUID(), "not-an-id"]) {
      const answer = await app.call(runRequest({ "x-response-id": unknown }), env);
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("unknown_response");
    }
    expect(
      (
        await app.call(
          runRequest({}, JSON.stringify({ provider: "openai", model: "m", messages: [], tools: ["nope"] })),
          env,
        )
      ).status,
    ).toBe(400);
  });
});
