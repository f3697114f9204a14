// Bedrock ConverseStream's reasoning signature (`delta.reasoningContent.signature`) is held until
// its block's stop, carried by no delta: one that never ends is bounded by the decoder itself (4 Mi
// characters over the response), in every entry point, as Anthropic's signature_delta is. The
// stream is the recorded Nova turn (a text block and a complete call) with its messageStop and
// metadata cut, then a reasoning block (its text, then 4,000-character signature deltas past 4 Mi).
import {
  AwsEventStreamDecoderStream,
  BedrockDeltaStream,
  streamToolCalls,
  ToolCallStreamError,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { streamToolCalls as bedrockStreamToolCalls } from "../../../src/bedrock.ts";
import { concat, converse, messageSpans } from "../../support/event-stream.ts";
import { recording } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { collect, fromChunks, splitAt } from "../../support/streams.ts";

const MESSAGE = "The signatures held exceeded the limit of 4194304 characters.";

/** The recording up to its messageStop (its 24 first messages: text block 0, call block 1), then `events`. */
function body(events: [string, Record<string, unknown>][]): Uint8Array<ArrayBuffer> {
  const recorded = recording("bedrock", "converse-nova-text-then-tool-use").body;
  const stop = messageSpans(recorded)[24]!.start;
  return concat([recorded.subarray(0, stop), converse(events)]);
}

const reasoning = (index: number): [string, Record<string, unknown>][] => [
  ["contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: { text: "Paris it is." } } }],
  ...Array.from({ length: 1100 }, (): [string, Record<string, unknown>] => [
    "contentBlockDelta",
    { contentBlockIndex: index, delta: { reasoningContent: { signature: "E".repeat(4000) } } },
  ]),
];

/** The events but the text's and arguments' deltas and the usage. */
const kinds = (events: ToolCallEvent[]): string[] =>
  events
    .filter((e) => e.type !== "tool-call-delta" && e.type !== "text-delta" && e.type !== "usage")
    .map((e) => e.type);

group("Bedrock ConverseStream: a reasoning signature that does not end is bounded", (test) => {
  test("past 4 Mi characters held, text-too-large then an abort, the text and the call before it given, at any split", async () => {
    const whole = body(reasoning(2));
    for (const cuts of [[], [5, 1000, 2_000_000], [whole.length - 3]]) {
      for (const events of [
        await collect(streamToolCalls(fromChunks(splitAt(whole, cuts)), { provider: "bedrock" })),
        await collect(bedrockStreamToolCalls(fromChunks(splitAt(whole, cuts)))),
      ]) {
        assertEquals(kinds(events), ["tool-call-start", "tool-call", "reasoning-delta", "error", "abort"]);
        assertEquals(
          events.map((e) => (e.type === "text-delta" ? e.text : "")).join(""),
          recording("bedrock", "converse-nova-text-then-tool-use").expected.text,
          "the recorded text before the fault is delivered",
        );
        const call = events.find((e) => e.type === "tool-call");
        assertEquals(call?.type === "tool-call" && [call.name, call.arguments], ["get_temperature", { city: "Paris" }]);
        const abort = events.at(-1);
        assert(abort?.type === "abort", "the stream aborted");
        assertEquals(
          [abort.reason, abort.discarded, abort.error],
          ["limit-exceeded", [], { code: "text-too-large", message: MESSAGE }],
        );
      }
    }
  }).needs("recordings");

  test("a call still open when it ends is reported discarded", async () => {
    const open: [string, Record<string, unknown>][] = [
      ["contentBlockStart", { contentBlockIndex: 2, start: { toolUse: { toolUseId: "tooluse_2", name: "get_time" } } }],
      ["contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: '{"city":' } } }],
    ];
    const events = await collect(
      streamToolCalls(fromChunks([body([...open, ...reasoning(3)])]), { provider: "bedrock" }),
    );
    const abort = events.at(-1);
    assert(abort?.type === "abort", "the stream aborted");
    assertEquals(
      [abort.reason, abort.error?.code, abort.discarded.map((call) => call.id)],
      ["limit-exceeded", "text-too-large", ["tooluse_2"]],
    );
    assert(
      events.some((e) => e.type === "tool-call" && e.name === "get_temperature"),
      "the complete call is given",
    );
  }).needs("recordings");

  test("the bare stage throws the same error; a signature of 4 Mi characters is within the bound", async () => {
    const bare = (events: [string, Record<string, unknown>][]) =>
      collect(
        fromChunks([body(events)])
          .pipeThrough(new AwsEventStreamDecoderStream())
          .pipeThrough(new BedrockDeltaStream()),
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
    const failure = await bare(reasoning(2));
    assert(failure instanceof ToolCallStreamError && failure.code === "text-too-large", "bare stage bounded");
    assertEquals(failure.message, MESSAGE);
    const within: [string, Record<string, unknown>][] = [
      ...reasoning(2).slice(0, 1),
      ...Array.from({ length: 4 }, (): [string, Record<string, unknown>] => [
        "contentBlockDelta",
        { contentBlockIndex: 2, delta: { reasoningContent: { signature: "E".repeat(1048576) } } },
      ]),
      ["contentBlockStop", { contentBlockIndex: 2 }],
    ];
    assertEquals(await bare(within), undefined, "4,194,304 characters are within the bound");
  }).needs("recordings");
});
