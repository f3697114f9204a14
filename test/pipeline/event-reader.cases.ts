// readToolCalls: streamToolCalls' events read one a read with no stream, answered as `for await`
// over the stream answers them (the chunks of the body read before each event included).
import { readToolCalls, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { eventually, recordingSource } from "../support/sources.ts";
import { twoCallsChunks } from "../support/streams.ts";
import { openSource } from "../support/tool-fakes.ts";

/** A stream as `for await` reads it (the DOM lib's types leave its async iterator out). */
const iterable = <T>(stream: ReadableStream<T>): AsyncIterable<T> => stream as unknown as AsyncIterable<T>;

/** Each event with the chunks of the body read before it, then how it ended. */
async function traced(direct: boolean, error?: Error): Promise<string[]> {
  const source = recordingSource(twoCallsChunks().slice(0, error ? 2 : undefined), error);
  const out: string[] = [];
  try {
    if (direct) {
      const reader = readToolCalls(source.stream, { provider: "openai" });
      for (let r = await reader.read(); !r.done; r = await reader.read())
        out.push(`${source.pulled} ${JSON.stringify(r.value)}`);
      out.push(`done ${JSON.stringify(await reader.read())}`);
    } else {
      for await (const event of iterable(streamToolCalls(source.stream, { provider: "openai" })))
        out.push(`${source.pulled} ${JSON.stringify(event)}`);
      out.push(`done ${JSON.stringify({ done: true })}`);
    }
  } catch (caught) {
    out.push(`threw ${String(caught)}`);
  }
  return out;
}

group("readToolCalls: the events with no stream", (test) => {
  test("the same events after the same chunks of the body, and the same end, as for await over the stream", async () => {
    const whole = await traced(true);
    assertEquals(whole, await traced(false));
    assert(whole.length > 4, "events before the end");
    const reset = new TypeError("connection reset");
    assertEquals(await traced(true, reset), await traced(false, reset));
  });

  test("cancel while a read waits on the body: the read ends and the body is cancelled with the reason", async () => {
    const source = openSource<Uint8Array>();
    const reader = readToolCalls(source.stream, { provider: "openai" });
    source.push(twoCallsChunks()[0]!);
    assertEquals((await reader.read()).value?.type, "tool-call-start");
    assertEquals((await reader.read()).value?.type, "tool-call-delta");
    // The body has nothing more: this read waits on it.
    const waiting = reader.read();
    await reader.cancel("client left");
    assertEquals(await waiting, { done: true, value: undefined });
    assertEquals(source.cancelled, { reason: "client left" });
    assertEquals(await reader.read(), { done: true, value: undefined }, "done after the cancel");
  });

  test("reads asked for many at once are answered in order, then done", async () => {
    const expected: string[] = [];
    for await (const event of iterable(
      streamToolCalls(recordingSource(twoCallsChunks()).stream, { provider: "openai" }),
    ))
      expected.push(JSON.stringify(event));
    const reader = readToolCalls(recordingSource(twoCallsChunks()).stream, { provider: "openai" });
    const answers = await Promise.all(Array.from({ length: expected.length + 2 }, () => reader.read()));
    assertEquals(
      answers.map((answer) => (answer.done ? "done" : JSON.stringify(answer.value))),
      [...expected, "done", "done"],
    );
  });

  test("the signal while reading: the abort comes, then the end, and the body is cancelled", async () => {
    const controller = new AbortController();
    const source = recordingSource(twoCallsChunks());
    const reader = readToolCalls(source.stream, { provider: "openai", signal: controller.signal });
    await reader.read();
    controller.abort();
    const rest: ToolCallEvent["type"][] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest.push(r.value.type);
    assertEquals(rest.at(-1), "abort");
    await eventually(() => source.cancelled !== undefined, "the body was cancelled");
  });

  test("never read, then cancelled: the body is not pulled, and is cancelled with the reason", async () => {
    const source = recordingSource(twoCallsChunks());
    const reader = readToolCalls(source.stream, { provider: "openai" });
    await Promise.resolve();
    await reader.cancel("gone");
    await eventually(() => source.cancelled !== undefined, "the body was cancelled");
    assertEquals(source.pulled, 0);
    assertEquals(source.cancelled, { reason: "gone" });
    assertEquals(await reader.read(), { done: true, value: undefined });
  });

  test("a cancel after the chain's end does not reach the body", async () => {
    const ended = recordingSource(twoCallsChunks());
    const reader = readToolCalls(ended.stream, { provider: "openai" });
    while (!(await reader.read()).done);
    const atEnd = ended.cancelled; // the chain lets go of the body at the provider's own end
    await reader.cancel("late");
    assertEquals(ended.cancelled, atEnd);
    assertEquals(await reader.read(), { done: true, value: undefined });
  });
});
