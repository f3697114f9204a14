// A stopped `tool_use` block (its `content_block_stop` received: arguments complete) is held until
// the next block starts or the message ends, so that a `fallback` block or a `refusal` stop can
// withdraw it. A fault there is neither: the body cut inside the next event, or an `event: error`
// (Anthropic's `overloaded_error` after HTTP 200), withdraws nothing, so the held call is
// delivered as complete, before the error and the abort; only a call still open is discarded.
// Built by hand from the documented event shapes (the `error` event's body is the one Anthropic's
// streaming docs show).
import fc from "fast-check";
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { concat, encodeMessage, exceptionMessage, invokeChunks } from "../../support/event-stream.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { anthropicSse } from "./turn-blocks-recordings.ts";

/** `message_start`, a text block, then a complete `tool_use` block with its stop: the call held. */
const events: Record<string, unknown>[] = [
  {
    type: "message_start",
    message: { id: "msg_1", model: "claude-sonnet-4-5", content: [], usage: { input_tokens: 12, output_tokens: 1 } },
  },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Looking it up." } },
  { type: "content_block_stop", index: 0 },
  {
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "toolu_1", name: "lookup", input: {} },
  },
  { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"query":' } },
  { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '"Paris"}' } },
  { type: "content_block_stop", index: 1 },
];
const answered = anthropicSse(...events);
const overloaded = anthropicSse({
  type: "error",
  error: { type: "overloaded_error", message: "Overloaded" },
});

/** The events' types and what matters of each: text, complete and discarded calls, errors, the abort. */
function outline(events: ToolCallEvent[]): unknown[] {
  return events.flatMap((event) => {
    if (event.type === "text-delta") return [["text", event.text]];
    if (event.type === "tool-call") return [["call", event.id, event.arguments]];
    if (event.type === "error") return [["error", event.error.code]];
    if (event.type === "abort") return [["abort", event.reason, event.discarded.map((call) => call.id)]];
    if (event.type === "finish") return [["finish"]];
    return [];
  });
}

const run = (
  body: Uint8Array,
  cuts: number[] = [],
  provider: "anthropic" | "bedrock" = "anthropic",
): Promise<ToolCallEvent[]> => collect(streamToolCalls(fromChunks(splitAt(body, cuts)), { provider }));

const faults = [
  {
    name: "the body cut inside the next block's start",
    body: `${answered}event: content_block_start\ndata: {"type":"content_block_st`,
    expected: [
      ["text", "Looking it up."],
      ["call", "toolu_1", { query: "Paris" }],
      ["error", "truncated-event"],
      ["abort", "input-ended", []],
    ],
  },
  {
    name: "an overloaded_error event right after the stop",
    body: answered + overloaded,
    expected: [
      ["text", "Looking it up."],
      ["call", "toolu_1", { query: "Paris" }],
      ["error", "provider-error"],
      ["abort", "provider-error", []],
    ],
  },
  {
    name: "the body ending right after the stop",
    body: answered,
    expected: [
      ["text", "Looking it up."],
      ["call", "toolu_1", { query: "Paris" }],
      ["abort", "input-ended", []],
    ],
  },
];

group("AnthropicDeltaStream: a fault after a held tool_use delivers it complete", (test) => {
  for (const fault of faults)
    test(`${fault.name}: the call is delivered before the error, nothing discarded, at any split`, async () => {
      const body = bytes(fault.body);
      assertEquals(outline(await run(body)), fault.expected);
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 6 }), async (cuts) =>
          assertEquals(outline(await run(body, cuts)), fault.expected),
        ),
        { seed: 20261205, numRuns: 20 },
      );
    });

  test("a call still open at the error is discarded, the held one before it delivered", async () => {
    const open = anthropicSse(
      { type: "content_block_start", index: 2, content_block: { type: "tool_use", id: "toolu_2", name: "lookup" } },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"query":"Ro' } },
    );
    assertEquals(outline(await run(bytes(answered + open + overloaded))), [
      ["text", "Looking it up."],
      ["call", "toolu_1", { query: "Paris" }],
      ["error", "provider-error"],
      ["abort", "provider-error", ["toolu_2"]],
    ]);
  });

  test("Claude on Bedrock InvokeModel: the call delivered at an exception, a frame cut short, the end", async () => {
    const chunks = invokeChunks(events);
    const error = exceptionMessage("modelStreamErrorException", { message: "The model failed." });
    const cut = encodeMessage({ ":event-type": "chunk", ":message-type": "event" }, '{"bytes":"eyJ0"}').slice(0, 30);
    const delivered = [
      ["text", "Looking it up."],
      ["call", "toolu_1", { query: "Paris" }],
    ];
    for (const [tail, after] of [
      [
        error,
        [
          ["error", "provider-error"],
          ["abort", "provider-error", []],
        ],
      ],
      [
        cut,
        [
          ["error", "truncated-event"],
          ["abort", "input-ended", []],
        ],
      ],
      [new Uint8Array(), [["abort", "input-ended", []]]],
    ] as const)
      assertEquals(outline(await run(concat([chunks, tail]), [], "bedrock")), [...delivered, ...after]);
  });

  test("two tool_use blocks open at once (indexes out of order) that both stop: both delivered at a fault", async () => {
    const interleaved = anthropicSse(
      events[0]!,
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_a", name: "lookup" } },
      { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_b", name: "lookup" } },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"query":"Rome"}' } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"query":"Oslo"}' } },
      { type: "content_block_stop", index: 1 },
      { type: "content_block_stop", index: 0 },
    );
    // The first stop's call was held, then the second stop replaced it: its end was lost, and a
    // fault discarded a call whose stop had come.
    for (const tail of ["", overloaded]) {
      const outlined = outline(await run(bytes(interleaved + tail)));
      assertEquals(outlined.slice(0, 2), [
        ["call", "toolu_b", { query: "Rome" }],
        ["call", "toolu_a", { query: "Oslo" }],
      ]);
      assertEquals(outlined.at(-1), ["abort", tail ? "provider-error" : "input-ended", []]);
    }
  });
});
