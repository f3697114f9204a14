// streamToolCallBatches with `batchWindowMs`: at most one array per window, on a clock the test moves,
// read by the stream's reader and by `batchReader` (which takes the arrays from the chain directly) alike.
import { batchReader, type BatchReader, streamToolCallBatches, type ToolCallEvent } from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { eventually } from "../support/sources.ts";
import { bytes, chatChunk, openAISSE } from "../support/streams.ts";
import { manualTimers, openSource } from "../support/tool-fakes.ts";

/** One Chat Completions chunk of text, as its own network chunk. */
const text = (piece: string): Uint8Array => bytes(openAISSE([chatChunk({ content: piece })], false));
/** Lets every promise reaction that is ready run (microtask turns only, no timers). */
async function turns(count = 100): Promise<void> {
  for (let i = 0; i < count; i++) await null;
}
const texts = (batch: readonly ToolCallEvent[] | undefined): string[] =>
  (batch ?? []).map((event) => (event.type === "text-delta" ? event.text : event.type));

/** How the arrays are read: the stream's own reader, or the direct one of `batchReader`. */
type Open = (stream: ReadableStream<ToolCallEvent[]>) => BatchReader<ToolCallEvent[]>;
const READERS: [string, Open][] = [
  ["getReader()", (stream) => stream.getReader() as BatchReader<ToolCallEvent[]>],
  ["batchReader", batchReader],
];

/** A body the test writes to, the windowed arrays' reader, and the clock. */
function setup(batchWindowMs: number, open: Open) {
  const source = openSource<Uint8Array>();
  const timers = manualTimers();
  const reader = open(streamToolCallBatches(source.stream, { provider: "openai", batchWindowMs, timers }));
  /** A read, and whether it settled yet. */
  const read = () => {
    const step = { done: false, value: undefined as ToolCallEvent[] | undefined };
    const promise = reader.read().then((result) => {
      step.done = true;
      step.value = result.value;
      return result;
    });
    return { step, promise };
  };
  return { source, timers, reader, read };
}

/** After a first array, a read held by the window with "b" made: the window's timer armed. */
async function holding(open: Open) {
  const w = setup(25, open);
  w.source.push(text("a"));
  await w.reader.read();
  const held = w.read();
  w.source.push(text("b"));
  await eventually(() => w.timers.pending.length === 1, "the window's timer");
  return { w, held };
}

for (const [how, open] of READERS)
  group(`streamToolCallBatches: the write window, read by ${how}`, (test) => {
    test("the first array at once; events within the window wait while the body is read on, then go as one array when it closes (one timer); an array after a quiet window at once", async () => {
      const w = setup(25, open);
      w.source.push(text("a"));
      assertEquals(texts((await w.reader.read()).value), ["a"]);
      w.timers.advance(10);
      const held = w.read();
      w.source.push(text("b"));
      w.source.push(text("c"));
      await eventually(() => w.timers.pending.length === 1, "the window's timer");
      w.source.push(text("d"));
      await turns();
      assert(!held.step.done, "held until the window closes");
      assertEquals(w.timers.pending, [15], "one timer, for what is left of the window");
      w.timers.advance(15);
      assertEquals(texts((await held.promise).value), ["b", "c", "d"]);
      w.timers.advance(100);
      w.source.push(text("e"));
      assertEquals(texts((await w.reader.read()).value), ["e"]);
      assertEquals(w.timers.pending, []);
    });

    test("a consumer that stops reading holds the body back: at most one array waits for it, and nothing more is read", async () => {
      const { w, held } = await holding(open);
      w.timers.advance(25);
      assertEquals(texts((await held.promise).value), ["b"]);
      // Nobody reads now: what comes after stays in the body.
      for (const piece of ["c", "d", "e"]) w.source.push(text(piece));
      await turns();
      w.timers.advance(1000);
      assertEquals(w.timers.pending, []);
      const rest = w.read();
      await eventually(() => rest.step.done, "the next read");
      const got = texts(rest.step.value);
      assert(got.length >= 1 && got[0] === "c", `read on from c: ${got.join(",")}`);
    });

    test("without a window (0, the default), no timer: each array goes when the body has nothing more ready", async () => {
      const w = setup(0, open);
      for (const piece of ["a", "b", "c"]) {
        w.source.push(text(piece));
        assertEquals(texts((await w.reader.read()).value), [piece]);
      }
      assertEquals(w.timers.pending, []);
    });

    test("the end passes on what the window holds, then closes; a body that fails gives what came before it, then error and abort", async () => {
      const ended = setup(25, open);
      ended.source.push(text("a"));
      await ended.reader.read();
      ended.source.push(text("b"));
      ended.source.close();
      const types: string[] = [];
      for (let r = await ended.reader.read(); !r.done; r = await ended.reader.read()) types.push(...texts(r.value));
      assertEquals(types, ["b", "abort"]);
      assertEquals(ended.timers.pending, []);

      let fail!: (error: unknown) => void;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(text("a"));
          fail = (error) => controller.error(error);
        },
      });
      const timers = manualTimers();
      const reader = open(streamToolCallBatches(body, { provider: "openai", batchWindowMs: 25, timers }));
      await reader.read();
      const rest = reader.read();
      fail(new TypeError("network connection lost"));
      const seen: string[] = texts((await rest).value);
      for (let r = await reader.read(); !r.done; r = await reader.read()) seen.push(...texts(r.value));
      assertEquals(seen.slice(-2), ["error", "abort"]);
      assertEquals(timers.pending, []);
    });

    test("a body whose rest and end are ready when the first array goes arms no timer: the rest goes as one array at the end", async () => {
      const w = setup(25, open);
      let armed = 0;
      const setTimeout = w.timers.setTimeout;
      w.timers.setTimeout = (callback, ms) => {
        armed++;
        return setTimeout(callback, ms);
      };
      for (const piece of ["a", "b", "c"]) w.source.push(text(piece));
      w.source.close();
      const arrays: string[][] = [];
      for (let r = await w.reader.read(); !r.done; r = await w.reader.read()) arrays.push(texts(r.value));
      assertEquals(arrays, [["a"], ["b", "c", "abort"]]);
      assertEquals(armed, 0, "no timer set");
    });

    test("a cancel reaches the body and leaves no timer", async () => {
      const { w, held } = await holding(open);
      await w.reader.cancel("gone");
      await held.promise;
      assertEquals(w.source.cancelled, { reason: "gone" });
      assertEquals(w.timers.pending, []);
    });

    test("an array of 4096 events or more goes without waiting for the window", async () => {
      const w = setup(25, open);
      w.source.push(text("a"));
      await w.reader.read();
      const many = Array.from({ length: 4100 }, (_, i) => chatChunk({ content: String(i % 10) }));
      w.source.push(bytes(openAISSE(many, false)));
      // The clock never moves: the array cannot be waiting for the window's timer.
      const { value } = await w.reader.read();
      assert((value?.length ?? 0) >= 4096, `${value?.length} events`);
    });
  });
