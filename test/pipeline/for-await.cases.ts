import fc from "fast-check";
import { streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { eventually, recordingSource } from "../support/sources.ts";
import { collect, fromChunks, splitAt, twoCallsChunks } from "../support/streams.ts";

const recordings = allFixtures.filter((f) => supportedProvider(f) !== undefined);

/** The stream as the async iterable it is in every runtime (the test project's types leave that out). */
const iterable = <T>(stream: ReadableStream<T>): AsyncIterable<T> => stream as unknown as AsyncIterable<T>;

/** Events read with `for await`. */
async function iterate<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const event of iterable(stream)) out.push(event);
  return out;
}

const EXPECTED_TYPES = [
  "tool-call-start",
  "tool-call-delta",
  "tool-call-delta",
  "text-delta",
  "tool-call-start",
  "tool-call-delta",
  "tool-call-delta",
  "tool-call",
  "tool-call",
  "finish",
];

/** Iterates `stream` (typed as the async iterable every runtime's `ReadableStream` is). */
const iteratorOf = <T>(stream: ReadableStream<T>, options?: { preventCancel?: boolean }): AsyncIterator<T> =>
  (stream as unknown as { values(options?: { preventCancel?: boolean }): AsyncIterator<T> }).values(options);

group("streamToolCalls read with for await", (test) => {
  test("every recording, re-chunked anywhere: for await gives exactly the events a reader gives", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: recordings.length - 1 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.boolean(),
        async (which, offsets, partialArguments) => {
          const fixture = recordings[which]!;
          const provider = supportedProvider(fixture)!;
          const chunks = splitAt(
            fixture.body,
            offsets.map((offset) => offset % fixture.body.length),
          );
          // Each event as it was when it was handed out (a live partial value moves on later).
          const snapshot = (event: ToolCallEvent): string => JSON.stringify(event);
          const read: string[] = [];
          const reader = streamToolCalls(fromChunks(chunks), { provider, partialArguments }).getReader();
          for (let r = await reader.read(); !r.done; r = await reader.read()) read.push(snapshot(r.value));
          const iterated: string[] = [];
          for await (const event of iterable(streamToolCalls(fromChunks(chunks), { provider, partialArguments })))
            iterated.push(snapshot(event));
          assertEquals(iterated, read, fixture.name);
        },
      ),
      { seed: 37, numRuns: 80 },
    );
  }).needs("recordings");

  test("the stream is locked while it is iterated, closed and unlocked after", async () => {
    const stream = streamToolCalls(fromChunks(twoCallsChunks()), { provider: "openai" });
    const seen: string[] = [];
    for await (const event of iterable(stream)) {
      seen.push(event.type);
      assert(stream.locked, "locked while iterated");
      let threw = false;
      try {
        stream.getReader();
      } catch {
        threw = true;
      }
      assert(threw, "a second reader is refused");
    }
    assertEquals(seen, EXPECTED_TYPES);
    assert(!stream.locked, "unlocked at the end");
    assertEquals(await stream.getReader().read(), { done: true, value: undefined });
  });

  test("nothing runs ahead of the consumer: the chunks read before each event are those a reader reads", async () => {
    const pulls = async (useIterator: boolean): Promise<number[]> => {
      const source = recordingSource(twoCallsChunks());
      const stream = streamToolCalls(source.stream, { provider: "openai" });
      const counts: number[] = [];
      if (useIterator) for await (const _ of iterable(stream)) counts.push(source.pulled);
      else {
        const reader = stream.getReader();
        while (!(await reader.read()).done) counts.push(source.pulled);
      }
      return counts;
    };
    assertEquals(await pulls(true), await pulls(false));
  });

  test("break cancels the source (the fetch stops) and unlocks the stream", async () => {
    const source = recordingSource(twoCallsChunks());
    const stream = streamToolCalls(source.stream, { provider: "openai" });
    for await (const event of iterable(stream)) if (event.type === "text-delta") break;
    await eventually(() => source.cancelled !== undefined, "the source saw the cancel");
    assert(!stream.locked, "unlocked");
    assertEquals(await stream.getReader().read(), { done: true, value: undefined }, "the stream is closed");
  });

  test("values({ preventCancel: true }): after a break a reader goes on with the next event, none lost or repeated", async () => {
    const source = recordingSource(twoCallsChunks());
    const stream = streamToolCalls(source.stream, { provider: "openai" });
    const iterator = iteratorOf(stream, { preventCancel: true });
    const seen: string[] = [];
    for (;;) {
      const { done, value } = await iterator.next();
      if (done) break;
      seen.push(value.type);
      // The first chunk made two events: the second is still held by the iterator.
      if (seen.length === 1) break;
    }
    await iterator.return!();
    assert(source.cancelled === undefined, "not cancelled");
    assert(!stream.locked, "unlocked");
    const rest = await collect(stream);
    assertEquals([...seen, ...rest.map((e) => e.type)], EXPECTED_TYPES);
  });

  test("next() called many times without waiting: the answers come in order, then done", async () => {
    const iterator = iteratorOf(streamToolCalls(fromChunks(twoCallsChunks()), { provider: "openai" }));
    const answers = await Promise.all(Array.from({ length: EXPECTED_TYPES.length + 2 }, () => iterator.next()));
    assertEquals(
      answers.map((answer) => (answer.done ? "done" : answer.value.type)),
      [...EXPECTED_TYPES, "done", "done"],
    );
  });

  test("return() while a next() waits for the source: it waits for that answer, then cancels", async () => {
    const source = recordingSource(twoCallsChunks());
    const iterator = iteratorOf(streamToolCalls(source.stream, { provider: "openai" }));
    const first = iterator.next();
    const returned = iterator.return!("bye");
    assertEquals((await first).done, false);
    assertEquals(await returned, { done: true, value: "bye" });
    await eventually(() => source.cancelled !== undefined, "the source saw the cancel");
    assertEquals(await iterator.next(), { done: true, value: undefined }, "done after return");
  });

  test("a stream read in part by a reader, then iterated: the iteration goes on from the next event", async () => {
    const stream = streamToolCalls(fromChunks(twoCallsChunks()), { provider: "openai" });
    const reader = stream.getReader();
    const first = await reader.read();
    reader.releaseLock();
    // The first chunk made two events: the second waits in the stream's own queue.
    const rest = await iterate(stream);
    assertEquals([first.value!.type, ...rest.map((e) => e.type)], EXPECTED_TYPES);
  });

  test("the signal while iterating: the abort comes, then the end", async () => {
    const controller = new AbortController();
    const source = recordingSource(twoCallsChunks());
    const seen: string[] = [];
    for await (const event of iterable(
      streamToolCalls(source.stream, { provider: "openai", signal: controller.signal }),
    )) {
      seen.push(event.type);
      if (event.type === "text-delta") controller.abort();
    }
    assertEquals(seen, ["tool-call-start", "tool-call-delta", "tool-call-delta", "text-delta", "abort"]);
    await eventually(() => source.cancelled !== undefined, "the source saw the cancel");
  });

  test("an iterator asked for its async iterator is itself, as the platform's", async () => {
    const iterator = iteratorOf(streamToolCalls(fromChunks(twoCallsChunks()), { provider: "openai" }));
    assert((iterator as unknown as AsyncIterable<ToolCallEvent>)[Symbol.asyncIterator]() === iterator, "itself");
    await iterator.return!();
  });
});
