// Chat Completions' `multi_tool_use.parallel`: the wrapper OpenAI models sometimes call instead of
// making parallel calls, `{"tool_uses": [{"recipient_name": "functions.<tool>", "parameters": {...}}]}`.
// Given the request's tools, the library runs the calls it wraps (see the Responses case,
// test/providers/openai-responses/openai-responses-parallel-wrapper.cases.ts, for where the shape
// was recorded). Provenance: BUILT BY HAND, in this project's own tools, ids and values.
import fc from "fast-check";
import { streamToolCalls, type FinishEvent, type ToolCallEvent } from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE, splitAt } from "../../support/streams.ts";

const TOOLS = [{ name: "tide_table" }, { name: "ferry_times" }];
const ARGS = JSON.stringify({
  tool_uses: [
    { recipient_name: "functions.tide_table", parameters: { harbour: "Roscoff" } },
    { recipient_name: "functions.ferry_times", parameters: { route: "Roscoff-Batz" } },
  ],
});

/** The wrapper at index 0 in fragments, interleaved with an ordinary call at index 1. */
const BODY = openAISSE([
  chatChunk({
    tool_calls: [
      { index: 0, id: "call_mt", type: "function", function: { name: "multi_tool_use.parallel", arguments: "" } },
    ],
  }),
  chatChunk({ tool_calls: [{ index: 0, function: { arguments: ARGS.slice(0, 30) } }] }),
  chatChunk({
    tool_calls: [
      { index: 1, id: "call_tt", type: "function", function: { name: "tide_table", arguments: '{"harbour":' } },
    ],
  }),
  chatChunk({ tool_calls: [{ index: 0, function: { arguments: ARGS.slice(30) } }] }),
  chatChunk({ tool_calls: [{ index: 1, function: { arguments: '"Brest"}' } }] }),
  chatChunk({}, "tool_calls"),
]);

/**
 * Two wrappers with no id (a server that leaves `id` out), at indexes 0 and 1, then an ordinary call
 * with no id either: each wrapper's calls take ids from its own index.
 */
const NO_IDS = openAISSE([
  chatChunk({
    tool_calls: [{ index: 0, type: "function", function: { name: "multi_tool_use.parallel", arguments: "" } }],
  }),
  chatChunk({ tool_calls: [{ index: 0, function: { arguments: ARGS } }] }),
  chatChunk({
    tool_calls: [{ index: 1, type: "function", function: { name: "multi_tool_use.parallel", arguments: "" } }],
  }),
  chatChunk({ tool_calls: [{ index: 1, function: { arguments: ARGS.replace("Roscoff-Batz", "Brest-Ouessant") } }] }),
  chatChunk({ tool_calls: [{ index: 2, type: "function", function: { name: "tide_table", arguments: "{}" } }] }),
  chatChunk({}, "tool_calls"),
]);

const run = (chunks: Uint8Array[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "openai", tools: TOOLS }));

group("OpenAI Chat: a `multi_tool_use.parallel` wrapper call", (test) => {
  test("is the declared calls it wraps, each streamed alone, beside an ordinary call", async () => {
    const events = await run([bytes(BODY)]);
    assertEventInvariants(events);
    assert(!events.some((e) => "name" in e && e.name === "multi_tool_use.parallel"), "the wrapper never surfaces");
    const finish = events.at(-1) as FinishEvent;
    assertEquals(finish.reason, "tool-calls");
    assertEquals(
      finish.toolCalls.map((call) => [call.id, call.name, call.arguments]),
      [
        ["call_tt", "tide_table", { harbour: "Brest" }],
        ["call_mt_0", "tide_table", { harbour: "Roscoff" }],
        ["call_mt_1", "ferry_times", { route: "Roscoff-Batz" }],
      ],
    );
    // The wrapped calls take indexes of their own, after every index the provider used.
    assertEquals(
      finish.toolCalls.map((call) => call.index),
      [1, 2, 3],
    );
  });

  test("two wrappers without ids in one response give their calls ids of their own, under any split of the bytes", async () => {
    const data = bytes(NO_IDS);
    const whole = await run([data]);
    assertEventInvariants(whole);
    const finish = whole.at(-1) as FinishEvent;
    assertEquals(
      finish.toolCalls.map((call) => [call.id, call.name, call.arguments]),
      [
        [null, "tide_table", {}],
        ["call_0_0", "tide_table", { harbour: "Roscoff" }],
        ["call_0_1", "ferry_times", { route: "Roscoff-Batz" }],
        ["call_1_0", "tide_table", { harbour: "Roscoff" }],
        ["call_1_1", "ferry_times", { route: "Brest-Ouessant" }],
      ],
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 40 }), async (cuts) => {
        assertEquals(await run(splitAt(data, cuts)), whole);
      }),
      { seed: 36, numRuns: 12 },
    );
  });

  test("a wrapper whose calls go past maxToolCalls at the finish ends the response there: no call completes after the abort", async () => {
    // The ordinary call at index 2 is still open when the first wrapper's second call is one too
    // many. Read by `for await` (the direct iterator, which queued a call completed after the abort;
    // a reader's enqueue on the closed stream threw inside the chain instead).
    const events: ToolCallEvent[] = [];
    const stream = streamToolCalls(fromChunks([bytes(NO_IDS)]), { provider: "openai", tools: TOOLS, maxToolCalls: 3 });
    for await (const event of stream as unknown as AsyncIterable<ToolCallEvent>) events.push(event);
    assertEventInvariants(events);
    const abort = events.at(-1);
    assert(abort?.type === "abort" && abort.reason === "limit-exceeded", "the stream ends with the limit's abort");
    assertEquals(
      events.filter((event) => event.type === "tool-call").map((event) => event.type === "tool-call" && event.id),
      ["call_0_0"],
    );
    assert(
      abort.type === "abort" && abort.discarded.some((call) => call.index === 2),
      "the ordinary call still open is listed as discarded",
    );
  });

  test("any split of the bytes gives the same events", async () => {
    const data = bytes(BODY);
    const whole = await run([data]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 40 }), async (cuts) => {
        assertEquals(await run(splitAt(data, cuts)), whole);
      }),
      { seed: 34, numRuns: 12 },
    );
  });
});
