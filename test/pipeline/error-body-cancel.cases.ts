// A non-2xx answer's body is read for the provider's error object before the `http-error` goes
// out; a consumer that cancels meanwhile, or whose signal aborts, must stop that read too: the
// body is cancelled (with the consumer's reason) and an abort ends the stream, never a hang on a
// body that trickles or stalls.
import { geminiInteractionsResumingBody } from "../../src/gemini-interactions.ts";
import { streamToolCallBatches, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { eventually } from "../support/sources.ts";
import { bytes } from "../support/streams.ts";

/** A 503 whose body sends the start of its error object, then nothing more; it records its cancel. */
function stalledError() {
  let sent = false;
  const state: { cancelled: { reason: unknown } | undefined; pulled: number } = { cancelled: undefined, pulled: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulled++;
        if (sent) return new Promise<void>(() => {});
        sent = true;
        controller.enqueue(bytes('{"error":{"message":'));
      },
      cancel(reason) {
        state.cancelled = { reason };
      },
    },
    { highWaterMark: 0 },
  );
  return { state, response: new Response(body, { status: 503 }) };
}

const entries = {
  streamToolCalls: (response: Response, signal?: AbortSignal) =>
    streamToolCalls(response, { provider: "openai", signal }) as ReadableStream<ToolCallEvent | ToolCallEvent[]>,
  streamToolCallBatches: (response: Response, signal?: AbortSignal) =>
    streamToolCallBatches(response, { provider: "openai", signal }) as ReadableStream<ToolCallEvent | ToolCallEvent[]>,
};

group("A non-2xx answer whose error body stalls", (test) => {
  for (const [name, open] of Object.entries(entries)) {
    test(`${name}: cancelling the events cancels the error body, with the reason`, async () => {
      const { state, response } = stalledError();
      const reader = open(response).getReader();
      const read = reader.read();
      await eventually(() => state.pulled === 2, "the error body is being read");
      await reader.cancel("client went away");
      await eventually(() => state.cancelled !== undefined, "the error body is cancelled");
      assertEquals(state.cancelled?.reason, "client went away");
      assertEquals((await read).done, true);
    });

    test(`${name}: the signal aborting ends the stream with a cancelled abort and cancels the error body`, async () => {
      const { state, response } = stalledError();
      const controller = new AbortController();
      const reader = open(response, controller.signal).getReader();
      const events: ToolCallEvent[] = [];
      const read = (async () => {
        for (let next = await reader.read(); !next.done; next = await reader.read())
          events.push(...[next.value].flat());
      })();
      await eventually(() => state.pulled === 2, "the error body is being read");
      controller.abort("stop");
      await read;
      assertEquals(
        events.map((event) => (event.type === "abort" ? `abort ${event.reason}` : event.type)),
        ["abort cancelled"],
      );
      assertEquals(state.cancelled !== undefined, true);
    });
  }

  test("geminiInteractionsResumingBody: return() while the error body is read cancels it", async () => {
    const { state, response } = stalledError();
    const body = geminiInteractionsResumingBody(response, { reopen: () => Promise.reject(new Error("no")) });
    const next = body.next().catch((error: unknown) => error);
    await eventually(() => state.pulled === 2, "the error body is being read");
    await body.return?.("client went away");
    await eventually(() => state.cancelled !== undefined, "the error body is cancelled");
    await next;
  });
});
