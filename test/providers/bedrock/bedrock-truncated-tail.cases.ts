// A Bedrock ConverseStream body cut inside its last frame, the `metadata` (usage) after
// `messageStop`: the answer is complete, as an SSE body cut inside its last event after Chat's
// finish_reason or Anthropic's message_delta is. The cut frame is said as that SSE event is (an
// `error` of code `truncated-event`, its payload dropped) and the finish stands, without the usage
// the frame would have given. A frame cut before any finish ends as an SSE body cut there does:
// the error, then an `abort` of reason `input-ended`, the open call discarded.
import fc from "fast-check";
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { concat, converse, eventMessage } from "../../support/event-stream.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { collect, fromChunks, splitAt } from "../../support/streams.ts";

type Event = [string, Record<string, unknown>];
const at = { contentBlockIndex: 1 };
const answer: Event[] = [
  ["messageStart", { role: "assistant" }],
  ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Looking." } }],
  ["contentBlockStop", { contentBlockIndex: 0 }],
  ["contentBlockStart", { ...at, start: { toolUse: { toolUseId: "t_1", name: "lookup" } } }],
  ["contentBlockDelta", { ...at, delta: { toolUse: { input: '{"query":"tides"}' } } }],
  ["contentBlockStop", at],
];
const stop: Event = ["messageStop", { stopReason: "tool_use" }];
const metadata = eventMessage("metadata", { usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12 } });

/** What matters of the events: the call, errors, the end. */
function outline(events: ToolCallEvent[]): unknown[] {
  return events.flatMap((event): unknown[] => {
    if (event.type === "tool-call") return [["call", event.id, event.arguments]];
    if (event.type === "error") return [["error", event.error.code]];
    if (event.type === "finish") return [["finish", event.reason, event.usage?.totalTokens]];
    if (event.type === "abort") return [["abort", event.reason, event.discarded.map((call) => call.id)]];
    return [];
  });
}

const run = (body: Uint8Array, cuts: number[] = []): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(splitAt(body, cuts)), { provider: "bedrock" }));

group("Bedrock: a body cut inside its last frame", (test) => {
  test("after messageStop: the finish stands, the cut frame said as an SSE event cut short is, at any split", async () => {
    const expected = [
      ["call", "t_1", { query: "tides" }],
      ["error", "truncated-event"],
      ["finish", "tool-calls", undefined],
    ];
    for (const keep of [1, 11, 12, metadata.length - 1]) {
      const body = concat([converse([...answer, stop]), metadata.subarray(0, keep)]);
      assertEquals(outline(await run(body)), expected);
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 5 }), async (cuts) =>
          assertEquals(outline(await run(body, cuts)), expected),
        ),
        { seed: 20261205, numRuns: 10 },
      );
    }
    // Whole, the frame gives the usage.
    const whole = concat([converse([...answer, stop]), metadata]);
    assertEquals(outline(await run(whole)).at(-1), ["finish", "tool-calls", 12]);
  });

  test("before any finish: the error, then the abort of an input that ended, the open call discarded", async () => {
    const open: Event[] = [
      ["contentBlockStart", { contentBlockIndex: 2, start: { toolUse: { toolUseId: "t_2", name: "lookup" } } }],
      ["contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: '{"query":"fer' } } }],
    ];
    const body = concat([converse([...answer, ...open]), metadata.subarray(0, 20)]);
    assertEquals(outline(await run(body)), [
      ["call", "t_1", { query: "tides" }],
      ["error", "truncated-event"],
      ["abort", "input-ended", ["t_2"]],
    ]);
  });
});
