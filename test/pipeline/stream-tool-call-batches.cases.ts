import fc from "fast-check";
import { batchReader, streamToolCallBatches, streamToolCalls } from "../../src/index.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { eventually, recordingSource } from "../support/sources.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE, splitAt } from "../support/streams.ts";
import { live } from "../support/tool-fakes.ts";
import { manualWeather } from "../support/validators.ts";

const recordings = allFixtures.filter((f) => supportedProvider(f) !== undefined);

/** One Chat Completions call split in two chunks, then the finish and text in a third. */
function callChunks(): Uint8Array[] {
  return [
    bytes(
      openAISSE(
        [
          chatChunk({
            tool_calls: [
              { index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city": ' } },
            ],
          }),
        ],
        false,
      ),
    ),
    bytes(openAISSE([chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] })], false)),
    bytes(openAISSE([chatChunk({}, "tool_calls"), chatChunk({ content: "done" })])),
  ];
}

group("streamToolCallBatches", (test) => {
  test("every recording, re-chunked anywhere: the arrays hold exactly streamToolCalls' events, at most one array per chunk (and two more); batchReader gives the same arrays", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: recordings.length - 1 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (which, offsets) => {
          const fixture = recordings[which]!;
          const provider = supportedProvider(fixture)!;
          const chunks = splitAt(
            fixture.body,
            offsets.map((offset) => offset % fixture.body.length),
          );
          const events = await collect(streamToolCalls(fromChunks(chunks), { provider }));
          const batches = await collect(streamToolCallBatches(fromChunks(chunks), { provider }));
          assertEquals(batches.flat(), events, fixture.name);
          assert(
            batches.every((batch) => batch.length > 0),
            "no empty array",
          );
          assert(batches.length <= chunks.length + 2, `${batches.length} arrays for ${chunks.length} chunks`);
          // The direct reader: the same arrays, in the same grouping.
          const reader = batchReader(streamToolCallBatches(fromChunks(chunks), { provider }));
          const direct: unknown[] = [];
          for (let r = await reader.read(); !r.done; r = await reader.read()) direct.push(r.value);
          assertEquals(direct, batches, fixture.name);
        },
      ),
      { seed: 16, numRuns: 80 },
    );
  }).needs("recordings");

  test("a body in one chunk: the first message's events go out alone, the rest of the chunk in one array", async () => {
    const fixture = recordings.find((f) => f.provider === "openai" && f.text.split("\n\n").length > 10)!;
    const batches = await collect(streamToolCallBatches(fromChunks([fixture.body]), { provider: "openai" }));
    assert(batches.length <= 3, `${batches.length} arrays`);
    assert(batches[0]!.length <= 2, "the first event (with any other of its message) alone");
  }).needs("recordings");

  test("an upstream that sends one chunk and waits: its events come before the next chunk is given", async () => {
    const source = recordingSource(callChunks());
    const reader = streamToolCallBatches(source.stream, { provider: "openai" }).getReader();
    const seen: string[] = [];
    while (seen.length < 2) for (const event of (await reader.read()).value!) seen.push(event.type);
    assertEquals(seen, ["tool-call-start", "tool-call-delta"]);
    assertEquals(source.pulled, 1, "only the first chunk was read");
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen.push(...value.map((event) => event.type));
    }
    assertEquals(seen, ["tool-call-start", "tool-call-delta", "tool-call-delta", "tool-call", "text-delta", "finish"]);
  });

  test("a consumer that stops reading: an array takes at most 64 KiB of a ready body ahead of it, however few events that is", async () => {
    // 400 chunks of 1 KiB of text each, all ready at once: a fast provider and a slow client.
    const chunk = (i: number) => bytes(openAISSE([chatChunk({ content: `${i} `.padEnd(1000, "x") })], false));
    const source = recordingSource(Array.from({ length: 400 }, (_, i) => chunk(i)));
    const reader = streamToolCallBatches(source.stream, { provider: "openai" }).getReader();
    await reader.read();
    const second = (await reader.read()).value!;
    assert(second.length > 1, "the ready chunks still go as one array");
    const pulled = source.pulled;
    await Promise.resolve();
    assertEquals(source.pulled, pulled, "nothing is read while the consumer does not ask");
    assert(pulled * 1024 <= 64 * 1024 + 2 * 1024, `${pulled} chunks of 1 KiB read ahead of the consumer`);
    await reader.cancel("slow client left");
    assertEquals(source.cancelled, { reason: "slow client left" });
  });

  test("a body that fails mid-stream: everything before, then error and abort, as streamToolCalls", async () => {
    const failure = new TypeError("network connection lost");
    const events = await collect(
      streamToolCalls(recordingSource(callChunks().slice(0, 2), failure).stream, { provider: "openai" }),
    );
    const batches = await collect(
      streamToolCallBatches(recordingSource(callChunks().slice(0, 2), failure).stream, { provider: "openai" }),
    );
    assertEquals(batches.flat(), events);
    assertEquals(
      events.slice(-2).map((e) => e.type),
      ["error", "abort"],
    );
  });

  test("events a validator releases go out without waiting for more of the body; the signal and cancel work as in streamToolCalls", async () => {
    const validator = manualWeather();
    const chunks = [...callChunks(), ...Array.from({ length: 4 }, () => bytes(": keep-alive\n\n"))];
    const source = recordingSource(chunks);
    const out = live(
      streamToolCallBatches(source.stream, { provider: "openai", tools: [{ name: "get_weather", schema: validator }] }),
    );
    await eventually(() => validator.pending.length === 1, "validating");
    validator.pending[0]!.settle();
    const events = (await out.done).flat();
    assertEquals(
      events.map((e) => e.type),
      ["tool-call-start", "tool-call-delta", "tool-call-delta", "tool-call", "text-delta", "finish"],
    );

    const controller = new AbortController();
    const stopped = recordingSource(callChunks());
    const reader = streamToolCallBatches(stopped.stream, { provider: "openai", signal: controller.signal }).getReader();
    await reader.read();
    controller.abort();
    const rest: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest.push(...r.value.map((e) => e.type));
    assertEquals(rest.at(-1), "abort");
    assert(stopped.cancelled !== undefined, "the body was cancelled");

    const cancelled = recordingSource(callChunks());
    const cancelling = streamToolCallBatches(cancelled.stream, { provider: "openai" }).getReader();
    await cancelling.read();
    await cancelling.cancel("client left");
    assertEquals(cancelled.cancelled, { reason: "client left" });
  });
});
