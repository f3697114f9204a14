import fc from "fast-check";
import {
  formatToolCallEvent,
  ProtocolEncoderStream,
  readyBatches,
  streamToolCalls,
  ToolCallEventEncoderStream,
  type EncodableEvent,
  type ToolCallEvent,
} from "../../src/index.ts";
import { ENCODERS, encodeAll } from "../support/encoders.ts";
import { sseRecordings, supportedProvider } from "../support/fixture-provider.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks, splitAt, textOf } from "../support/streams.ts";

/** A few recordings of each protocol the library reads as SSE, with tool calls and text. */
const recordings = sseRecordings();

/**
 * A byte source that gives its chunks one at a time and waits between them: each `release()`
 * lets the next chunk through, as a provider that sends a chunk and then thinks.
 */
function stalledSource(chunks: readonly Uint8Array[]): {
  stream: ReadableStream<Uint8Array>;
  release: () => void;
  pulls: () => number;
} {
  let waiting: (() => void) | undefined;
  let pulls = 0;
  let i = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        pulls++;
        if (i === 1) await new Promise<void>((resolve) => (waiting = resolve));
        if (i < chunks.length) controller.enqueue(chunks[i++]!);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, release: () => waiting?.(), pulls: () => pulls };
}

group("readyBatches", (test) => {
  test("a recording re-chunked anywhere encodes to the same bytes batched as one event at a time", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: recordings.length - 1 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (which, offsets) => {
          const fixture = recordings[which]!;
          const provider = supportedProvider(fixture)!;
          const cuts = offsets.map((offset) => offset % fixture.body.length);
          const events = () => streamToolCalls(fromChunks(splitAt(fixture.body, cuts)), { provider });
          const single = await collect(events().pipeThrough(new ToolCallEventEncoderStream()));
          const batched = await collect(readyBatches(events()).pipeThrough(new ToolCallEventEncoderStream()));
          assertEquals(textOf(batched), textOf(single), fixture.name);
          assert(batched.length <= single.length, "never more chunks than events");
          const all = await collect(events());
          assertEquals(textOf(single), all.map((event, id) => formatToolCallEvent(event, id)).join(""));
          for (const [name, encoder] of Object.entries(ENCODERS)) {
            const chunks = await collect(
              readyBatches<EncodableEvent>(events()).pipeThrough(new ProtocolEncoderStream(encoder())),
            );
            assertEquals(textOf(chunks), encodeAll(encoder(), all), `${name}: ${fixture.name}`);
          }
        },
      ),
      { seed: 16, numRuns: 40 },
    );
  }).needs("recordings");

  test("the events of one network chunk become one batch, and the batches hold every event in order", async () => {
    const fixture = recordings.find((f) => f.text.split("\n\n").length > 8)!;
    const provider = supportedProvider(fixture)!;
    const all = await collect(streamToolCalls(fromChunks([fixture.body]), { provider }));
    const batches = await collect(readyBatches(streamToolCalls(fromChunks([fixture.body]), { provider })));
    assertEquals(batches.flat(), all);
    // The whole body is one chunk: its events are all ready after the first one.
    assert(batches.length <= 2, `one chunk, ${batches.length} batches`);
  }).needs("recordings");

  test("an upstream that sends one chunk and then waits: its events reach the client before the next chunk", async () => {
    const fixture = recordings.find((f) => f.text.split("\n\n").length > 8)!;
    const provider = supportedProvider(fixture)!;
    const frames = fixture.text.split("\n\n");
    const head = bytes(`${frames.slice(0, 6).join("\n\n")}\n\n`);
    const expected = await collect(streamToolCalls(fromChunks([head]), { provider }));
    const source = stalledSource([head, fixture.body.slice(head.length)]);
    const body = readyBatches(streamToolCalls(source.stream, { provider }))
      .pipeThrough(new ToolCallEventEncoderStream())
      .getReader();
    // The source holds its second chunk until released: were an event held back waiting for it,
    // these reads would never settle (and the test would fail on its timeout).
    let received = "";
    const want = expected
      .filter((e) => e.type !== "abort" && e.type !== "finish" && e.type !== "error")
      .map((e, id) => formatToolCallEvent(e, id))
      .join("");
    while (received.length < want.length) received += new TextDecoder().decode((await body.read()).value);
    assertEquals(received, want);
    assertEquals(source.pulls(), 2, "the second chunk was asked for and not yet given");
    source.release();
    const rest = textOf(
      await collect(
        new ReadableStream({
          pull: async (c) => {
            const r = await body.read();
            if (r.done) c.close();
            else c.enqueue(r.value);
          },
        }),
      ),
    );
    const whole = await collect(streamToolCalls(fromChunks([fixture.body]), { provider }));
    assertEquals(received + rest, whole.map((e, id) => formatToolCallEvent(e, id)).join(""));
  }).needs("recordings");

  test("a source that fails passes on what it gave first, then errors", async () => {
    const events: ToolCallEvent[] = [
      { type: "text-delta", text: "a" },
      { type: "text-delta", text: "b" },
    ];
    let i = 0;
    const source = new ReadableStream<ToolCallEvent>({
      pull(controller) {
        if (i < events.length) controller.enqueue(events[i++]!);
        else controller.error(new Error("gone"));
      },
    });
    const reader = readyBatches(source).getReader();
    assertEquals((await reader.read()).value, events);
    let error: unknown;
    await reader.read().catch((e: unknown) => (error = e));
    assert(error instanceof Error && error.message === "gone", "the error comes after the items");
  });

  test("a source that is always ready gives batches of at most maxItems, and cancelling reaches it", async () => {
    let cancelled: unknown;
    let n = 0;
    const source = new ReadableStream<number>({
      pull: (c) => c.enqueue(n++),
      cancel: (reason) => void (cancelled = reason),
    });
    const reader = readyBatches(source, { maxItems: 5 }).getReader();
    assertEquals((await reader.read()).value, [0, 1, 2, 3, 4]);
    assertEquals((await reader.read()).value, [5, 6, 7, 8, 9]);
    await reader.cancel("enough");
    assertEquals(cancelled, "enough");
    let threw = false;
    try {
      readyBatches(fromChunks([1]), { maxItems: 0 });
    } catch (error) {
      threw = error instanceof RangeError;
    }
    assert(threw, "maxItems 0 is refused");
  });
});
