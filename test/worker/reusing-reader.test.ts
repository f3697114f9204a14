// The Worker reads a provider body into one reused buffer: each chunk holds until the next read
// (the chain decodes it before that), every byte arrives once and in order whatever the read sizes,
// and a stream that is not a byte stream is read as the library's chunkReader reads it.
import { describe, expect, it } from "vitest";
import { reusingReader } from "../../worker/upstream/reusing-reader.ts";

/** A byte stream whose chunks the test enqueues. */
function byteBody(): { body: ReadableStream<Uint8Array>; push: (bytes: Uint8Array) => void; close: () => void } {
  let controller!: ReadableByteStreamController;
  const body = new ReadableStream({ type: "bytes", start: (c) => void (controller = c) });
  return { body, push: (bytes) => controller.enqueue(bytes), close: () => controller.close() };
}

const filled = (length: number, seed: number): Uint8Array =>
  Uint8Array.from({ length }, (_, i) => (i * 31 + seed) % 251);

describe("reusingReader", () => {
  it("reads the next chunk into the last one's buffer: the chunk read before is gone (detached), not copied out", async () => {
    const { body, push } = byteBody();
    const reader = reusingReader(body);
    push(filled(5000, 1));
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(first.value).toEqual(filled(5000, 1));
    push(filled(5000, 2));
    const second = await reader.read();
    expect(second.value).toEqual(filled(5000, 2));
    // (5,000 bytes of a 16 KiB buffer: the size holds.) The first chunk's buffer went to the second read: one buffer for the body, not one per read.
    expect(first.value!.byteLength).toBe(0);
  });

  it("every byte once and in order across reads that grow the buffer (to 64 KiB) and shrink it again", async () => {
    const { body, push, close } = byteBody();
    const reader = reusingReader(body);
    const sizes = [100, 12_000, 30_000, 70_000, 200_000, 5, 3000, 1, 40_000, 10];
    const sent: number[] = [];
    const got: number[] = [];
    const append = (to: number[], bytes: Uint8Array): void => {
      for (const byte of bytes) to.push(byte);
    };
    for (const [n, size] of sizes.entries()) {
      const bytes = filled(size, n);
      append(sent, bytes);
      push(bytes);
      // Each chunk is read (copied here) before the next read, as the chain decodes it.
      while (got.length < sent.length) {
        const { done, value } = await reader.read();
        expect(done).toBe(false);
        expect(value!.byteLength).toBeLessThanOrEqual(64 * 1024);
        append(got, value!);
      }
    }
    close();
    expect((await reader.read()).done).toBe(true);
    expect(got).toEqual(sent);
  });

  it("a stream that is not a byte stream: its chunks as it gives them, kept whole after the next read", async () => {
    const chunks = [filled(10, 1), filled(20, 2)];
    const reader = reusingReader(
      new ReadableStream({ start: (c) => (chunks.forEach((chunk) => c.enqueue(chunk)), c.close()) }),
    );
    const first = await reader.read();
    const second = await reader.read();
    expect([first.value, second.value]).toEqual(chunks);
    expect(first.value!.byteLength).toBe(10);
    expect((await reader.read()).done).toBe(true);
  });

  it("cancel cancels the body with the reason", async () => {
    let reason: unknown;
    const reader = reusingReader(new ReadableStream({ type: "bytes", cancel: (r) => void (reason = r) }));
    await reader.cancel("gone");
    expect(reason).toBe("gone");
  });
});
