import fc from "fast-check";
import { streamToolCallBatches, streamToolCalls } from "../../src/index.ts";
import { chunkReader } from "../../src/shared/chunk-reader.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { collect, fromChunks, splitAt } from "../support/streams.ts";

/** A byte stream (`type: "bytes"`, what a fetch body is) with `chunks` queued, then `end`. */
function byteStream(
  chunks: readonly Uint8Array[],
  end: "close" | "stall" = "close",
): { stream: ReadableStream<Uint8Array>; cancelled: () => unknown } {
  let cancelled: unknown;
  const stream = new ReadableStream({
    type: "bytes",
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk.slice());
      if (end === "close") controller.close();
    },
    cancel: (reason) => void (cancelled = reason),
  });
  return { stream, cancelled: () => cancelled };
}

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.byteLength, 0));
  let at = 0;
  for (const part of parts) out.set(part, (at += part.byteLength) - part.byteLength);
  return out;
};

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const reader = chunkReader(stream);
  const chunks: Uint8Array[] = [];
  for (let result = await reader.read(); !result.done; result = await reader.read()) chunks.push(result.value);
  return chunks;
}

/** Recordings the library reads, of every framing. */
const recordings = allFixtures.filter((f) => supportedProvider(f) !== undefined).slice(0, 60);

group("chunkReader", (test) => {
  test("a byte stream: what is ready comes in one read, the buffer doubling from 16 to 64 KiB while reads fill it", async () => {
    const bytes = Uint8Array.from({ length: 250_000 }, (_, i) => (i * 7) % 251);
    const { stream } = byteStream(
      splitAt(
        bytes,
        Array.from({ length: 99 }, (_, i) => (i + 1) * 2500),
      ),
    );
    const chunks = await readAll(stream);
    assertEquals(concat(chunks), bytes);
    const k = 1024;
    assertEquals(
      chunks.map((chunk) => chunk.byteLength),
      [16 * k, 32 * k, 64 * k, 64 * k, 64 * k, 250_000 - 240 * k],
      "100 queued pieces",
    );
  });

  test("a body that slows down: the buffer shrinks back, and small reads are copies of their own size", async () => {
    const big = new Uint8Array(200_000).fill(1);
    let controller!: ReadableByteStreamController;
    const stream = new ReadableStream({ type: "bytes", start: (c) => void (controller = c) });
    controller.enqueue(big.slice());
    const reader = chunkReader(stream);
    let read = 0;
    while (read < big.byteLength) read += (await reader.read()).value!.byteLength;
    // Now a token at a time: each read is copied out of whatever buffer it landed in, and the
    // buffer goes on to the next read, so no chunk shares it.
    const small: Uint8Array[] = [];
    for (let i = 0; i < 6; i++) {
      controller.enqueue(new Uint8Array([i]));
      const { value } = await reader.read();
      assertEquals([...value!], [i]);
      assertEquals(value!.buffer.byteLength, 1, "a one-byte chunk holds one byte");
      small.push(value!);
    }
    assertEquals(
      small.map((chunk) => chunk[0]),
      [0, 1, 2, 3, 4, 5],
      "later reads leave earlier chunks as they were",
    );
  });

  test("a byte stream that has one small chunk and then waits: the read gives that chunk, and the next read waits", async () => {
    const { stream, cancelled } = byteStream([new TextEncoder().encode("data: 1\n\n")], "stall");
    const reader = chunkReader(stream);
    // Were a read to wait for more than its first byte, this would never settle (the case's timeout).
    const first = await reader.read();
    assertEquals(new TextDecoder().decode(first.value), "data: 1\n\n");
    assertEquals(
      first.value!.buffer.byteLength,
      first.value!.byteLength,
      "a small read is a copy, not a view of the large buffer",
    );
    let settled = false;
    const next = reader.read().then((result) => ((settled = true), result));
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert(!settled, "the second read waits for the source");
    await reader.cancel("done");
    // Cancelled while a read is pending: that read ends the body (a BYOB read then has no view).
    assertEquals(await next, { done: true, value: undefined });
    assertEquals(cancelled(), "done");
  });

  test("any other stream is read chunk by chunk, as it comes", async () => {
    const chunks = [new Uint8Array([1, 2]), new Uint8Array([3])];
    assertEquals(await readAll(fromChunks(chunks)), chunks);
  });

  test("streamToolCalls on a byte stream: any split of a recording gives the events of the default reader, in fewer batches", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: recordings.length - 1 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (which, offsets) => {
          const fixture = recordings[which]!;
          const provider = supportedProvider(fixture)!;
          const pieces = splitAt(
            fixture.body,
            offsets.map((offset) => offset % fixture.body.length),
          );
          const expected = await collect(streamToolCalls(fromChunks(pieces), { provider }));
          assertEquals(await collect(streamToolCalls(byteStream(pieces).stream, { provider })), expected, fixture.name);
          const batches = await collect(streamToolCallBatches(byteStream(pieces).stream, { provider }));
          assertEquals(batches.flat(), expected, fixture.name);
          // Every piece was queued at once: the first message alone, then one array per read (16 KiB and up).
          assert(
            batches.length <= 2 + Math.ceil(fixture.body.byteLength / (16 * 1024)),
            `${batches.length} arrays for ${pieces.length} pieces`,
          );
        },
      ),
      { seed: 64, numRuns: 60 },
    );
  }).needs("recordings");
});
