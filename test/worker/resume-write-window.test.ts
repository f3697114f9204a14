// The write window of a resumable response's log (RESUME_WRITE_WINDOW_MS): frames that come within the
// window after a write wait for it to close and are written together, one storage write and one
// chunk to each client; the first frame, and any that come after the window, are written at
// once. A client sees only what was written, so a restart loses only frames no client saw.
// The provider's chunks are sent one at a time by the test, and the clock is set by hand.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { keyedStore } from "../../worker/resumable/keyed-store.ts";
import { loadResponseLog } from "../../worker/resumable/response-log-reads.ts";
import { attach } from "../../worker/resumable/response-pool.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import type { Timers } from "../../worker/runtime.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { framesOf, restart, settled } from "./durable-support.ts";
import {
  chatChunk,
  liveOpenAI,
  ManualTimers,
  newTestResponseId,
  objectOf,
  openAIChunks,
  readSSE,
  validBody,
  weatherCall,
} from "./support.ts";

const [hello, checking, call, more, finish] = openAIChunks([
  chatChunk({ content: "Hello. " }),
  chatChunk({ content: "Checking. " }),
  weatherCall(0, "call_1", '{"city":'),
  weatherCall(0, "", '"Paris"}'),
  chatChunk({}, "tool_calls"),
]) as [string, string, string, string, string];

/** A response whose provider chunks the test sends, on a clock the test sets. */
async function windowed() {
  const id = newTestResponseId();
  const stub = objectOf(id);
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    await request.text();
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
  const timers = new ManualTimers();
  let now = 1_000;
  const clock: Timers = {
    setTimeout: (callback, ms) => timers.setTimeout(callback, ms),
    clearTimeout: (handle) => timers.clearTimeout(handle),
    now: () => now,
  };
  await runInDurableObject(stub, (instance: ResponseBuffer) =>
    instance.useRuntime(
      { fetch, timers: clock },
      // The log's own window, not the plain answers' (WRITE_WINDOW_MS), which a resumable response never uses.
      { ...liveOpenAI, IDLE_TIMEOUT_MS: "60000", RESUME_WRITE_WINDOW_MS: "40", WRITE_WINDOW_MS: "25" },
    ),
  );
  const request = parseStreamRequest(validBody(), providerNames);
  const response = (await stub.startStream(id, request)) ?? (await attach(stub, id, -1));
  return {
    id,
    stub,
    response,
    timers,
    /** Moves the clock to `ms` after its start. */
    at: (ms: number) => void (now = 1_000 + ms),
    /** Sends provider chunks (inside the object: the body is its I/O) and lets the object read them. */
    send: async (...chunks: string[]) => {
      await runInDurableObject(stub, () => {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      });
      await settled(stub, () => false, 30);
    },
    end: () => runInDurableObject(stub, () => controller.close()),
    /** Closes the write window: fires its timer, as if its time had come. */
    closeWindow: (ms: number) => runInDurableObject(stub, () => timers.fireWhere((delay) => delay === ms)),
    /** The log in storage: its batches (one per write), as frames. */
    stored: () =>
      runInDurableObject(stub, (_instance, state) =>
        (loadResponseLog(keyedStore(state.storage.kv, id))?.batches ?? []).map((batch) => framesOf(batch.text)),
      ),
  };
}

const decoder = new TextDecoder();
const eventsOf = async (frames: readonly string[]) => (await readSSE(new Response(frames.join("")))).events;

describe("the write window of a resumable response's log", () => {
  it("the first frame is written and sent at once; frames within the window wait and go out together; a frame after the window at once", async () => {
    const r = await windowed();
    const reader = r.response.body!.getReader();
    await r.send(hello);
    expect(framesOf(decoder.decode((await reader.read()).value))).toHaveLength(1);
    expect(await r.stored()).toHaveLength(1);

    // 10 ms after that write: two network chunks, held for the rest of the window (30 ms).
    r.at(10);
    await r.send(checking, call);
    expect(r.timers.pendingDelays).toContain(30);
    let arrived = false;
    const next = reader.read().then((step) => ((arrived = true), step));
    await settled(r.stub, () => arrived, 30);
    expect(arrived).toBe(false);
    expect(await r.stored()).toHaveLength(1);

    await r.closeWindow(30);
    const together = framesOf(decoder.decode((await next).value));
    expect(await eventsOf(together)).toMatchObject([
      { type: "text-delta", text: "Checking. " },
      { type: "tool-call-start", id: "call_1" },
      { type: "tool-call-delta", argumentsDelta: '{"city":' },
    ]);
    const stored = await r.stored();
    expect(stored).toHaveLength(2);
    expect(stored[1]).toEqual(together);

    // Long after the last write: written and sent at once, no timer.
    r.at(500);
    await r.send(more);
    expect(await eventsOf(framesOf(decoder.decode((await reader.read()).value)))).toMatchObject([
      { type: "tool-call-delta", argumentsDelta: '"Paris"}' },
    ]);
    expect(await r.stored()).toHaveLength(3);
    expect(r.timers.pendingDelays).not.toContain(40);

    // The end writes what waits without waiting for the window.
    r.at(510);
    await r.send(finish);
    await r.end();
    let rest = "";
    for (let step = await reader.read(); !step.done; step = await reader.read()) rest += decoder.decode(step.value);
    expect((await eventsOf(framesOf(rest))).map((event) => event.type)).toEqual(["tool-call", "finish"]);
    expect((await r.stored()).flat()).toHaveLength(7);
  });

  it("a restart while frames wait in the window loses only those, which no client saw: a resume gets every frame it saw, then 'interrupted'", async () => {
    const r = await windowed();
    const reader = r.response.body!.getReader();
    await r.send(hello);
    const seen = framesOf(decoder.decode((await reader.read()).value));
    r.at(5);
    await r.send(checking, call);
    expect(await r.stored()).toEqual([seen]);

    const fresh = await restart(r.id, r.stub);
    const resumed = await attach(fresh, r.id, 0);
    const { messages, events } = await readSSE(resumed);
    expect(messages.map((message) => message.id)).toEqual(["1", "2"]);
    expect(events).toMatchObject([
      { type: "error", error: { code: "interrupted" } },
      { type: "abort", reason: "stream-failed" },
    ]);
    const whole = await (await attach(fresh, r.id, -1)).text();
    expect(framesOf(whole).slice(0, 1)).toEqual(seen);
  });
});
