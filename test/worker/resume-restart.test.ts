// A restart of a response's Durable Object mid-response (the instance, its memory and its
// provider stream are gone at once, storage stays). The log was written to storage a batch
// at a time (a write window's frames at a time), so a resume from any Last-Event-ID serves every frame written before the cut, with no
// duplicate and no gap, then an `error` of code `interrupted` and the `abort` that ends a stream.
// Cut points are seeded; the upstream and the clock are injected.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { joinDeltas, type ToolCallEvent } from "../../src/index.ts";
import { attach as attachTo } from "../../worker/resumable/response-pool.ts";
import { framesOf, restart, settled, storedFrames } from "./durable-support.ts";
import { chatChunk, FakeUpstream, ManualTimers, openAIChunks, readSSE, startResponse, weatherCall } from "./support.ts";

/** A response of many upstream chunks: text, two calls in fragments, the finish. */
const chunks = openAIChunks([
  chatChunk({ content: "Checking " }),
  chatChunk({ content: "both. " }),
  weatherCall(0, "call_1", '{"ci'),
  weatherCall(0, "", 'ty":"Par'),
  weatherCall(0, "", 'is"}'),
  weatherCall(1, "call_2", '{"city"'),
  weatherCall(1, "", ':"Rome"}'),
  chatChunk({}, "tool_calls"),
]);

/** Seeded numbers in [0, bound) (no Math.random in tests). */
function seeded(seed: number): (bound: number) => number {
  let state = seed;
  return (bound) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % bound;
  };
}

/** The uninterrupted run, for reference. */
async function referenceRun(): Promise<string[]> {
  const { response } = await startResponse(new FakeUpstream({ kind: "sse", chunks }), new ManualTimers());
  return framesOf(await response.text());
}

/**
 * The frames' events are the reference's beginning: the same events with each stream's fragments
 * joined (how a chunk's fragments fall into frames depends on what the upstream had ready), the
 * last one possibly cut short.
 */
async function expectBeginning(frames: readonly string[], reference: readonly string[]): Promise<void> {
  const read = async (text: readonly string[]): Promise<ToolCallEvent[]> => [
    ...joinDeltas((await readSSE(new Response(text.join("")))).events),
  ];
  const [got, whole] = [await read(frames), await read(reference)];
  expect(got.slice(0, -1)).toEqual(whole.slice(0, got.length - 1));
  const [last, full] = [got.at(-1)!, whole[got.length - 1]!];
  if (last.type === "tool-call-delta" && full.type === "tool-call-delta")
    expect(full.argumentsDelta.startsWith(last.argumentsDelta)).toBe(true);
  else if (last.type === "text-delta" && full.type === "text-delta") expect(full.text.startsWith(last.text)).toBe(true);
  else expect(last).toEqual(full);
}

describe("resume after a restart mid-response", () => {
  it("the reference run has many frames", async () => {
    expect((await referenceRun()).length).toBeGreaterThan(8);
  });

  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`seed ${seed}: every frame written before the cut is served once, in order, then error 'interrupted' and abort`, async () => {
      const reference = await referenceRun();
      const random = seeded(seed * 7919);
      // The provider sends `cut` chunks, then nothing more: the restart comes while it is silent.
      const cut = 1 + random(chunks.length - 2);
      const upstream = new FakeUpstream({ kind: "sse", chunks: chunks.slice(0, cut), then: "stall" });
      const clock = new ManualTimers();
      const { id, stub, response } = await startResponse(upstream, clock, { IDLE_TIMEOUT_MS: "60000" });
      let current = stub;
      const attach = (after: number) => attachTo(current, id, after);
      // The client reads the first chunk (a batch), and more below.
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = decoder.decode((await reader.read()).value, { stream: true });
      expect(await settled(stub, () => upstream.pulled === cut)).toBe(true);
      // Seeded: the log's write window (RESUME_WRITE_WINDOW_MS) closes before the cut, or the frames
      // after the first write still wait in it (then no client has seen them, and they are lost).
      if (random(2) === 0) await runInDurableObject(stub, () => clock.fireWhere((ms) => ms <= 100));
      const written = await storedFrames(id);
      expect(written.length).toBeGreaterThan(0);
      // What was written is the reference run's beginning: no gap, no duplicate.
      await expectBeginning(written, reference);
      // The client read some of it (at least the first frame, maybe all) and went away.
      const count = 1 + random(written.length);
      while (framesOf(text).length < count) text += decoder.decode((await reader.read()).value, { stream: true });
      await reader.cancel("client disconnected");
      const seen = (await readSSE(new Response(framesOf(text).slice(0, count).join("")))).messages;
      expect(seen.map((m) => Number(m.id))).toEqual([...Array(seen.length).keys()]);

      current = await restart(id, stub);
      const lastSeen = seen.length - 1;
      const resumed = await attach(lastSeen);
      expect(resumed.status).toBe(200);
      const rest = await readSSE(resumed);
      const received = [...seen.map((m) => m.id), ...rest.messages.map((m) => m.id)].map(Number);
      expect(received).toEqual([...Array(written.length + 2).keys()]);
      expect(framesOf(await (await attach(lastSeen)).text()).slice(0, written.length - seen.length)).toEqual(
        written.slice(seen.length),
      );
      expect(rest.events.slice(-2)).toEqual([
        { type: "error", error: { code: "interrupted", message: expect.stringContaining("interrupted") } },
        {
          type: "abort",
          reason: "stream-failed",
          discarded: [],
          error: { code: "interrupted", message: expect.any(String) },
        },
      ]);
      // The ending is stored once: another resume, after another restart, sees the same ids.
      const whole = await (await attach(-1)).text();
      current = await restart(id, current);
      expect(await (await attach(-1)).text()).toBe(whole);
      expect(framesOf(whole)).toHaveLength(written.length + 2);
      expect(await (await attach(written.length + 1)).text()).toBe("");
      // An id past the last one (never sent) is the client's mistake, not a dropped event.
      expect((await attach(written.length + 2)).status).toBe(400);
    });
  }
});
