// Gemini sends no end marker: its last chunk is the one with `finishReason` (and the usage).
// Behind a proxy that keeps the connection open, the chain ends there, the body cancelled, rather
// than waiting for a close that does not come. A finish without the usage waits for the trailing
// usage chunk; a second candidate still open, or a `CONTINUATION` finish, is not the end.
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { bytes, collect } from "../../support/streams.ts";

const sse = (payload: unknown): Uint8Array => bytes(`data: ${JSON.stringify(payload)}\r\n\r\n`);
const usage = (total: number) => ({ promptTokenCount: 4, candidatesTokenCount: total - 4, totalTokenCount: total });

/** The payloads, then a body that neither sends nor closes; `cancelled` is its cancel's reason. */
function heldOpen(payloads: readonly unknown[]) {
  const state: { cancelled?: unknown } = {};
  let next = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (next < payloads.length) return controller.enqueue(sse(payloads[next++]));
        return new Promise<void>(() => {});
      },
      cancel(reason) {
        state.cancelled = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, state };
}

/** Reads the chain for as many microtask turns as it may take; `undefined` if it never ended. */
async function readHeld(payloads: readonly unknown[]) {
  const { body, state } = heldOpen(payloads);
  const abort = new AbortController();
  let events: ToolCallEvent[] | undefined;
  const read = collect(streamToolCalls(body, { provider: "gemini", signal: abort.signal }));
  void read.then((all) => (events = all));
  for (let turn = 0; turn < 5000 && events === undefined; turn++) await Promise.resolve();
  const result = { events, cancelled: state.cancelled };
  // A chain still waiting is stopped, so that no test leaves one behind.
  abort.abort();
  await read;
  return result;
}

const text = (value: string, extra: Record<string, unknown> = {}, index = 0) => ({
  content: { role: "model", parts: [{ text: value }] },
  index,
  ...extra,
});

group("Gemini: the end of the response", (test) => {
  test("the chunk with finishReason and the usage ends the chain; the body held open is cancelled", async () => {
    const { events, cancelled } = await readHeld([
      { candidates: [text("Hel")], usageMetadata: usage(6) },
      { candidates: [text("lo.", { finishReason: "STOP" })], usageMetadata: usage(8) },
    ]);
    assert(events !== undefined, "the chain ended");
    const finish = events.at(-1);
    assert(finish?.type === "finish" && finish.reason === "stop", "a stop finish");
    assertEquals([finish.text, finish.usage?.totalTokens], ["Hello.", 8]);
    assertEquals(cancelled, "The response ended.");
  });

  test("a finish without the usage waits for the trailing usage chunk, then ends", async () => {
    const { events } = await readHeld([
      { candidates: [text("Hi.", { finishReason: "STOP" })] },
      { usageMetadata: usage(7) },
    ]);
    const finish = events?.at(-1);
    assert(finish?.type === "finish", "the chain ended with a finish");
    assertEquals(finish.usage?.totalTokens, 7);
  });

  test("a prompt blocked (no candidate, a blockReason) ends the chain", async () => {
    const { events } = await readHeld([{ promptFeedback: { blockReason: "SAFETY" }, usageMetadata: usage(4) }]);
    const finish = events?.at(-1);
    assert(finish?.type === "finish" && finish.reason === "content-filter", "a content-filter finish");
  });

  test("not the end: a second candidate still open, or a CONTINUATION finish", async () => {
    const twoCandidates = await readHeld([
      { candidates: [text("A", { finishReason: "STOP" }), text("B", {}, 1)], usageMetadata: usage(6) },
    ]);
    assertEquals(twoCandidates.events, undefined);
    const continued = await readHeld([
      { candidates: [text("A", { finishReason: "CONTINUATION", continuationToken: "t1" })], usageMetadata: usage(6) },
    ]);
    assertEquals(continued.events, undefined);
  });
});
