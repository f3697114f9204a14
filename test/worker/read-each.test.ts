// readEach: a non-streaming answer's events read through the Worker's steps with no stream read
// per event: each chunk through the steps and the steps' end, a stop that cancels the source (a
// streamToolCalls body read no further than the chunk of the event past the stop), a failed read
// through the steps' `fail`, a step's throw cancelling the source.
import { describe, expect, it } from "vitest";
import { streamToolCalls } from "../../src/index.ts";
import { mapChunks, sourceStep } from "../../worker/http/batch-map.ts";
import { readEach } from "../../worker/http/read-each.ts";

/** A source of `chunks` that records its pulls and how it was cancelled. */
function source<T>(chunks: T[], then: "close" | Error = "close") {
  const seen = { pulls: 0, cancelled: undefined as unknown };
  const stream = new ReadableStream<T>(
    {
      pull(controller) {
        const chunk = chunks[seen.pulls++];
        if (chunk !== undefined) controller.enqueue(chunk);
        else if (then === "close") controller.close();
        else controller.error(then);
      },
      cancel(reason) {
        seen.cancelled = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

describe("readEach", () => {
  it("reads each chunk through the composed steps, then what they add at the end", async () => {
    const { stream } = source([1, 2, 3]);
    const doubled = mapChunks(stream, (n) => n * 2);
    const labelled = mapChunks(
      doubled,
      (n) => (n === 4 ? undefined : `#${n}`),
      () => "end",
    );
    const taken: string[] = [];
    await readEach(labelled, (chunk) => taken.push(chunk) > 0, "stop");
    expect(taken).toEqual(["#2", "#6", "end"]);
  });

  it("a step over steps nothing has read is the same stream, its steps now both; over a stream read already, a stream of its own", async () => {
    const { stream } = source([1, 2, 3]);
    const doubled = mapChunks(stream, (n) => n * 2);
    const labelled = mapChunks(doubled, (n) => `#${n}`);
    // One stream for the two steps (read through it, as any reader would): no second one made.
    expect(labelled as ReadableStream<unknown>).toBe(doubled);
    const read: string[] = [];
    for await (const chunk of labelled) read.push(chunk);
    expect(read).toEqual(["#2", "#4", "#6"]);
    const other = mapChunks(source([1]).stream, (n) => n + 1);
    const reader = other.getReader();
    expect(mapChunks(other, (n) => n * 10) as ReadableStream<unknown>).not.toBe(other);
    expect(await reader.read()).toEqual({ done: false, value: 2 });
  });

  it("a false from take cancels the source with the reason and calls the steps' cancelled: nothing more is read", async () => {
    const { stream, seen } = source(["a", "b", "c", "d"]);
    let cancelled = 0;
    const stepped = sourceStep(
      stream,
      (chunk) => chunk,
      () => undefined,
      { cancelled: () => cancelled++ },
    );
    const taken: string[] = [];
    await readEach(stepped, (chunk) => taken.push(chunk) < 2, "enough");
    expect([taken, seen.cancelled, cancelled, seen.pulls]).toEqual([["a", "b"], "enough", 1, 2]);
  });

  it("over streamToolCalls, a stop cancels the body at the event past it: no later chunk is read", async () => {
    const frames = ["Hel", "lo ", "wor", "ld"].map(
      (text) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`,
    );
    const { stream, seen } = source(frames.map((frame) => new TextEncoder().encode(frame)));
    const events = mapChunks(streamToolCalls(stream, { provider: "openai" }), (event) => [event]);
    let text = "";
    await readEach(
      events,
      (batch) => {
        for (const event of batch) if (event.type === "text-delta") text += event.text;
        return text.length < 6;
      },
      "too long",
    );
    expect([text, seen.pulls, seen.cancelled]).toEqual(["Hello ", 2, "too long"]);
  });

  it("a failed read goes through the steps' fail, then their end", async () => {
    const { stream } = source(["a"], new Error("network"));
    const stepped = sourceStep(
      stream,
      (chunk) => chunk,
      () => "end",
      {
        fail: (error) => [`failed: ${(error as Error).message}`],
      },
    );
    const taken: string[] = [];
    await readEach(stepped, (chunk) => taken.push(chunk) > 0, "stop");
    expect(taken).toEqual(["a", "failed: network", "end"]);
  });

  it("a step that throws cancels the source and throws", async () => {
    const { stream, seen } = source([1, 2, 3]);
    const failing = mapChunks(stream, (n) => {
      if (n === 2) throw new Error("bad chunk");
      return n;
    });
    await expect(readEach(failing, () => true, "stop")).rejects.toThrow("bad chunk");
    expect((seen.cancelled as Error).message).toBe("bad chunk");
  });
});
