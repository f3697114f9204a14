// The memory of resumable responses is bounded per isolate, not only per response. A running log
// holds only what its attached clients have yet to read (the rest is in storage, where a resume
// reads it), so it costs its slowest client's lag; and all the running logs of an isolate (of one
// object or of several) hold at most RESUME_MEMORY_BYTES together. Past it, the clients that hold
// the most are cut: the slowest of the largest log, whose connection fails as for lagging (a frame
// queued for a client that reads nothing would never reach it), and which resumes from storage with
// its Last-Event-ID. The other responses and their clients are not touched; every response runs on.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type LogBatch, OVER_BUDGET } from "../../worker/resumable/log-batch.ts";
import { isolateLogBudget, LogBudget } from "../../worker/resumable/log-budget.ts";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { ResponseLog } from "../../worker/resumable/response-log.ts";
import { settled } from "./durable-support.ts";
import { chatChunk, FakeUpstream, ManualTimers, openAIChunks, startResponse } from "./support.ts";

const CHUNK = 8000;
const contents = (count: number) =>
  Array.from({ length: count }, (_, i) => `${String(i).padStart(4, "0")}${"x".repeat(CHUNK)}`);
const texts = (count: number) => contents(count).map((content) => chatChunk({ content }));
const upstreamOf = (count: number) =>
  new FakeUpstream({ kind: "sse", chunks: openAIChunks([...texts(count), chatChunk({}, "stop")]) });
/** The text an answer streamed, checked against its finish's: every chunk's, once, in order. */
function streamed(answer: string): string {
  let text = "";
  let finished: string | undefined;
  for (const line of answer.split("\n").filter((l) => l.startsWith("data: "))) {
    const event = JSON.parse(line.slice(6)) as { type: string; text?: string };
    if (event.type === "text-delta") text += event.text;
    if (event.type === "finish") finished = event.text;
  }
  expect(finished).toBe(text);
  return text;
}
const whole = (count: number) => contents(count).join("");

describe("the memory of an isolate's resumable responses", () => {
  it("past RESUME_MEMORY_BYTES, cuts the client that holds the most; the other reads on, the cut one resumes from storage", async () => {
    const clock = new ManualTimers();
    const overrides = { RESUME_WRITE_WINDOW_MS: "0", IDLE_TIMEOUT_MS: "60000" };
    // The isolate's bound is RESUME_MEMORY_BYTES of its bindings: this test gives both objects a budget of their own.
    const budget = new LogBudget(60000);
    const running = (stub: DurableObjectStub<ResponseBuffer>, id: string) =>
      runInDurableObject(stub, (instance: ResponseBuffer) => instance.isRunning(id));
    // Neither client reads while the responses run: A's holds 2 chunks, B's would hold 20.
    const a = await startResponse(upstreamOf(2), clock, overrides, budget);
    expect(await settled(a.stub, async () => !(await running(a.stub, a.id)))).toBe(true);
    const b = await startResponse(upstreamOf(20), clock, overrides, budget);
    expect(await settled(b.stub, async () => !(await running(b.stub, b.id)))).toBe(true);
    // Failed before: B's client held all 20 chunks in memory, and nothing was cut.
    await expect(b.response.text()).rejects.toThrow();
    expect(streamed(await a.response.text())).toBe(whole(2));
    // B ran on to its end: its client's resume from the start reads all of it from storage.
    const resumed = await b.attach(-1);
    expect(resumed.status).toBe(200);
    expect(streamed(await resumed.text())).toBe(whole(20));
    expect(budget.total).toBe(0);
  });
});

describe("the bound on an isolate's memory", () => {
  it("is the isolate's RESUME_MEMORY_BYTES, from its bindings: a response's own settings do not move it", async () => {
    const clock = new ManualTimers();
    // One response's settings (the tests' overrides) say 60,000; the isolate's bindings, the
    // default 33,554,432. Its client reads nothing while it runs: it holds 20 chunks, 160,000 units.
    const overrides = { RESUME_MEMORY_BYTES: "60000", RESUME_WRITE_WINDOW_MS: "0", IDLE_TIMEOUT_MS: "60000" };
    const lagging = await startResponse(upstreamOf(20), clock, overrides);
    const running = () =>
      runInDurableObject(lagging.stub, (instance: ResponseBuffer) => instance.isRunning(lagging.id));
    expect(await settled(lagging.stub, async () => !(await running()))).toBe(true);
    // Failed before: the budget took the limit of the latest response started (60,000 here, and
    // whatever the next one says), so this client was cut.
    expect(streamed(await lagging.response.text())).toBe(whole(20));
    expect(isolateLogBudget(env).limit).toBe(33_554_432);
    expect(isolateLogBudget(env).total).toBe(0);
  });
});

/** Storage behind a log: the batches written so far. */
function storageOf(batches: LogBatch[]) {
  return {
    first: () => batches[0]?.first ?? 0,
    batchHolding: (frame: number) =>
      batches.find((batch) => batch.first <= frame && frame < batch.first + batch.ends.length),
  };
}

describe("a running log backed by storage", () => {
  it("holds only what its readers have yet to read; a reader from before that reads storage first, no gap, no duplicate", async () => {
    const written: LogBatch[] = [];
    const log = new ResponseLog({ maxFrames: 100, maxBytes: 1 << 20 }, 0, { older: storageOf(written) });
    const append = (frames: string[]) => written.push(log.append(frames));
    append(["a", "b"]);
    append(["c"]);
    // Nobody reads: nothing is held.
    expect(log.held).toBe(0);
    const cursor = log.open(0);
    append(["d", "e"]);
    expect(log.held).toBe(2);
    const read: string[] = [];
    for (let i = 0; i < 3; i++) {
      const step = await cursor.read();
      if (step.type === "frames") read.push(step.text);
    }
    expect(read).toEqual(["b", "c", "de"]);
    expect(log.held).toBe(0);
    cursor.close();
  });
});

describe("LogBudget.relieve", () => {
  it("cuts only the slowest reader of the log that holds the most, until the total is within the limit", async () => {
    const budget = new LogBudget(5);
    const small = new ResponseLog({ maxFrames: 100, maxBytes: 1 << 20 }, 0, { older: storageOf([]), budget });
    const large = new ResponseLog({ maxFrames: 100, maxBytes: 1 << 20 }, 0, { older: storageOf([]), budget });
    const smallReader = small.open(-1);
    const slow = large.open(-1);
    const fast = large.open(-1);
    const reasons: string[] = [];
    slow.onCut?.((reason) => reasons.push(reason));
    fast.onCut?.((reason) => reasons.push(`fast: ${reason}`));
    smallReader.onCut?.((reason) => reasons.push(`small: ${reason}`));
    small.append(["1", "2"]);
    large.append(["a", "b"]);
    expect(await fast.read()).toEqual({ type: "frames", text: "ab" });
    expect(budget.total).toBe(4);
    // Past 5: the large log's slowest reader goes, and what it held with it.
    large.append(["c", "d"]);
    expect(reasons).toEqual([OVER_BUDGET]);
    await expect(slow.read()).rejects.toThrow(OVER_BUDGET);
    expect(budget.total).toBe(4);
    expect(await fast.read()).toEqual({ type: "frames", text: "cd" });
    expect(await smallReader.read()).toEqual({ type: "frames", text: "12" });
    expect(budget.total).toBe(0);
  });
});
