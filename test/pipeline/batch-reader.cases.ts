// batchReader: the arrays of streamToolCallBatches taken from the chain directly, answered as the
// stream's own reader answers them (every recording re-chunked: stream-tool-call-batches.cases.ts;
// the write window's timer: batch-window.cases.ts), and readToolCallBatches, the same with no stream.
import {
  batchReader,
  type BatchReader,
  readToolCallBatches,
  streamToolCallBatches,
  type ToolCallEvent,
} from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { eventually, recordingSource } from "../support/sources.ts";
import { bytes, fromChunks, twoCallsChunks } from "../support/streams.ts";
import { openSource } from "../support/tool-fakes.ts";

/** Every array `reader` gives, each as the JSON of its events when it was given, then the end. */
async function arrays<T>(reader: BatchReader<T>): Promise<string[]> {
  const out: string[] = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(JSON.stringify(r.value));
  return out;
}

const typesOf = (batch: readonly ToolCallEvent[] | undefined): string[] => (batch ?? []).map((event) => event.type);

group("batchReader over streamToolCallBatches", (test) => {
  test("nothing runs ahead of the reader: the chunks read before each array are those the stream's reader reads", async () => {
    const pulls = async (direct: boolean): Promise<number[]> => {
      const source = recordingSource(twoCallsChunks());
      const stream = streamToolCallBatches(source.stream, { provider: "openai" });
      const reader = direct ? batchReader(stream) : stream.getReader();
      const counts: number[] = [];
      while (!(await reader.read()).done) counts.push(source.pulled);
      return counts;
    };
    assertEquals(await pulls(true), await pulls(false));
  });

  test("the stream is locked by it, closed at the end; a locked stream is refused as by getReader", async () => {
    const stream = streamToolCallBatches(fromChunks(twoCallsChunks()), { provider: "openai" });
    const reader = batchReader(stream);
    assert(stream.locked, "locked");
    let threw = false;
    try {
      batchReader(stream);
    } catch (error) {
      threw = error instanceof TypeError;
    }
    assert(threw, "a second reader is refused with a TypeError");
    const types = (await arrays(reader)).flatMap((json) => typesOf(JSON.parse(json) as ToolCallEvent[]));
    assertEquals(types.at(-1), "finish");
    assertEquals(await reader.read(), { done: true, value: undefined }, "done after the end");
    await reader.cancel("late");
  });

  test("cancel while a read waits on the body: the read is answered done at once and the body cancelled with the reason", async () => {
    const readers = [
      (body: ReadableStream<Uint8Array>) => batchReader(streamToolCallBatches(body, { provider: "openai" })),
      (body: ReadableStream<Uint8Array>) => readToolCallBatches(body, { provider: "openai" }),
    ];
    for (const open of readers) {
      const source = openSource<Uint8Array>();
      const reader = open(source.stream);
      source.push(twoCallsChunks()[0]!);
      assertEquals(typesOf((await reader.read()).value), ["tool-call-start", "tool-call-delta"]);
      // The body has nothing more: this read waits on it.
      const waiting = reader.read();
      await reader.cancel("client left");
      assertEquals(await waiting, { done: true, value: undefined });
      assertEquals(source.cancelled, { reason: "client left" });
      assertEquals(await reader.read(), { done: true, value: undefined }, "done after the cancel");
    }
  });

  test("reads asked for many at once are answered in order, then done", async () => {
    const stream = () => streamToolCallBatches(recordingSource(twoCallsChunks()).stream, { provider: "openai" });
    const expected = await arrays(stream().getReader());
    const reader = batchReader(stream());
    const answers = await Promise.all(Array.from({ length: expected.length + 2 }, () => reader.read()));
    assertEquals(
      answers.map((answer) => (answer.done ? "done" : JSON.stringify(answer.value))),
      [...expected, "done", "done"],
    );
  });

  test("the signal while reading: the abort comes, then the end, and the body is cancelled", async () => {
    for (const direct of [false, true]) {
      const controller = new AbortController();
      const source = recordingSource(twoCallsChunks());
      const options = { provider: "openai", signal: controller.signal } as const;
      // readToolCallBatches: the same with no stream.
      const reader = direct
        ? readToolCallBatches(source.stream, options)
        : batchReader(streamToolCallBatches(source.stream, options));
      await reader.read();
      controller.abort();
      const rest: string[] = [];
      for (let r = await reader.read(); !r.done; r = await reader.read()) rest.push(...typesOf(r.value));
      assertEquals(rest.at(-1), "abort");
      await eventually(() => source.cancelled !== undefined, "the body was cancelled");
    }
  });

  test("a stream read in part by its own reader, then by batchReader: it goes on from the next array", async () => {
    const stream = () => streamToolCallBatches(recordingSource(twoCallsChunks()).stream, { provider: "openai" });
    const expected = await arrays(stream().getReader());
    const partly = stream();
    const own = partly.getReader();
    const first = await own.read();
    own.releaseLock();
    assertEquals([JSON.stringify(first.value), ...(await arrays(batchReader(partly)))], expected);
  });

  test("a body that fails mid-call: the same arrays, then the same end, as the stream's own reader", async () => {
    const trace = async (direct: boolean): Promise<string[]> => {
      const source = recordingSource(twoCallsChunks().slice(0, 2), new TypeError("connection reset"));
      const stream = streamToolCallBatches(source.stream, { provider: "openai" });
      const reader = direct ? batchReader(stream) : stream.getReader();
      const out: string[] = [];
      try {
        for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(JSON.stringify(r.value));
        out.push("done");
      } catch (error) {
        out.push(`threw ${String(error)}`);
      }
      return out;
    };
    const direct = await trace(true);
    assertEquals(direct, await trace(false));
    assert(direct.length > 1, "arrays before the end");
  });

  test("never read, then cancelled: the body is not pulled, and is cancelled with the reason, as by the stream's own reader", async () => {
    const outcome = async (direct: boolean): Promise<unknown[]> => {
      const source = recordingSource(twoCallsChunks());
      const stream = streamToolCallBatches(source.stream, { provider: "openai" });
      const reader = direct ? batchReader(stream) : stream.getReader();
      await Promise.resolve();
      const pulledBefore = source.pulled;
      await reader.cancel("gone");
      await eventually(() => source.cancelled !== undefined, "the body was cancelled");
      return [pulledBefore, source.cancelled, await reader.read()];
    };
    const direct = await outcome(true);
    assertEquals(direct, await outcome(false));
    assertEquals(direct[1], { reason: "gone" });
  });

  test("any other stream is read by its own reader", async () => {
    const reader = batchReader(fromChunks([bytes("a"), bytes("b")]));
    assertEquals(new TextDecoder().decode((await reader.read()).value), "a");
    await reader.cancel();
    assertEquals(await reader.read(), { done: true, value: undefined });
  });
});

group("readToolCallBatches: the arrays with no stream", (test) => {
  const batchesOf = (body: ReadableStream<Uint8Array>, direct: boolean): BatchReader<ToolCallEvent[]> =>
    direct
      ? readToolCallBatches(body, { provider: "openai" })
      : batchReader(streamToolCallBatches(body, { provider: "openai" }));

  test("the same arrays after the same chunks of the body, and the same end, as batchReader over the stream", async () => {
    const trace = async (direct: boolean, error?: Error): Promise<string[]> => {
      const source = recordingSource(twoCallsChunks().slice(0, error ? 2 : undefined), error);
      const reader = batchesOf(source.stream, direct);
      const out: string[] = [];
      for (let r = await reader.read(); !r.done; r = await reader.read())
        out.push(`${source.pulled} ${JSON.stringify(r.value)}`);
      return [...out, JSON.stringify(await reader.read())];
    };
    assertEquals(await trace(true), await trace(false));
    assertEquals(
      await trace(true, new TypeError("connection reset")),
      await trace(false, new TypeError("connection reset")),
    );
  });

  test("a cancel after the chain's end does not reach the body", async () => {
    const ended = recordingSource(twoCallsChunks());
    const whole = readToolCallBatches(ended.stream, { provider: "openai" });
    await arrays(whole);
    const atEnd = ended.cancelled; // the chain lets go of the body at the provider's own end
    await whole.cancel("late");
    assertEquals(ended.cancelled, atEnd);
    assertEquals(await whole.read(), { done: true, value: undefined });
  });
});
