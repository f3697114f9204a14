// Gemini Interactions: a built-in tool's step (a `*_call` or `*_result` step) is merged delta by
// delta and goes out whole only at its stop, carried by no delta: one whose deltas never end is
// bounded as a call's arguments are (`maxArgumentsLength`, as Bedrock Converse's `toolResult`), in
// every entry point. The stream is the documented function call beside a Google Search (a server
// call with its result, then a function call) cut before its end, then a second search whose
// result step streams 4,000-character deltas past 4 Mi.
import {
  GeminiInteractionsDeltaStream,
  ProviderDetectStream,
  SSEDecoderStream,
  streamToolCalls,
  ToolCallStreamError,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { streamToolCalls as interactionsStreamToolCalls } from "../../../src/gemini-interactions.ts";
import { recording } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";

const sse = (payloads: Record<string, unknown>[]): string =>
  payloads.map((p) => `event: ${String(p["event_type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("");

/** The recording up to its interaction.completed, then a search whose result step never stops. */
function body(deltas: number): Uint8Array<ArrayBuffer> {
  const recorded = recording("gemini-interactions", "docs-function-call-with-google-search").text;
  const page = { url: "https://example.test/elbrus", title: "E".repeat(4000) };
  return bytes(
    recorded.slice(0, recorded.indexOf("event: interaction.completed")) +
      sse([
        { event_type: "step.start", index: 4, step: { id: "s2", type: "google_search_call", arguments: {} } },
        { event_type: "step.stop", index: 4 },
        { event_type: "step.start", index: 5, step: { call_id: "s2", type: "google_search_result", result: [] } },
        ...Array.from({ length: deltas }, () => ({
          event_type: "step.delta",
          index: 5,
          delta: { type: "google_search_result", result: [page] },
        })),
      ]),
  );
}

function assertBounded(events: ToolCallEvent[], max: number): void {
  assertEquals(
    events.filter((e) => e.type === "tool-call").map((e) => e.type === "tool-call" && [e.id, e.providerExecuted]),
    [
      ["mkutnkgn", true],
      ["ktr5aysg", undefined],
    ],
    "the complete calls before the fault are given",
  );
  assertEquals(events.at(-2)?.type, "error");
  const abort = events.at(-1);
  assert(abort?.type === "abort", "the stream aborted");
  assertEquals(
    [abort.reason, abort.error, abort.discarded.map((call) => call.id)],
    [
      "limit-exceeded",
      { code: "arguments-too-large", message: `A server tool's step is over maxArgumentsLength (${max}).` },
      ["s2"],
    ],
  );
}

group("Gemini Interactions: a built-in tool's step that does not end is bounded", (test) => {
  test("past 4 Mi characters, arguments-too-large then an abort, the calls before it given, the open one discarded, at any split", async () => {
    const whole = body(1100);
    for (const cuts of [[], [7, 1500, 2_000_000], [whole.length - 2]]) {
      assertBounded(
        await collect(streamToolCalls(fromChunks(splitAt(whole, cuts)), { provider: "gemini-interactions" })),
        4194304,
      );
      assertBounded(await collect(interactionsStreamToolCalls(fromChunks(splitAt(whole, cuts)))), 4194304);
    }
  }).needs("recordings");

  test("the bound is the accumulator's maxArgumentsLength; the bare stage throws past its own, 4 Mi by default", async () => {
    const small = await collect(
      streamToolCalls(fromChunks([body(3)]), { provider: "gemini-interactions", maxArgumentsLength: 8100 }),
    );
    assertBounded(small, 8100);
    const bare = (deltas: number) =>
      collect(
        fromChunks([body(deltas)])
          .pipeThrough(new SSEDecoderStream())
          .pipeThrough(new GeminiInteractionsDeltaStream()),
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
    assertEquals(await bare(1000), undefined, "about 4.1 M characters are within the default");
    const failure = await bare(1100);
    assert(failure instanceof ToolCallStreamError && failure.code === "arguments-too-large", "bare stage bounded");
    // The bare stage takes the limit too (it took no argument, and the default stayed in force).
    const limited = await collect(
      fromChunks([body(3)])
        .pipeThrough(new SSEDecoderStream())
        .pipeThrough(new GeminiInteractionsDeltaStream({ maxArgumentsLength: 8100 })),
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert(limited instanceof ToolCallStreamError && limited.code === "arguments-too-large", String(limited));
    // ProviderDetectStream gives the decoder of the protocol it detects the limits it was given.
    const detected = await collect(
      fromChunks([body(3)])
        .pipeThrough(new SSEDecoderStream())
        .pipeThrough(new ProviderDetectStream({ maxArgumentsLength: 8100 })),
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert(detected instanceof ToolCallStreamError && detected.code === "arguments-too-large", String(detected));
  }).needs("recordings");
});
