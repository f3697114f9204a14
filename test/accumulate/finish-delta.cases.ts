// A `finish` delta carries its choice, its reasons and the fields a stage names (Anthropic's
// `container`, the `stopSequence`), nothing else: a delta built by hand or adapted from an SDK may
// hold any key, and none of the others may reach the accumulator's state or the finish event.
import {
  snapshotAccumulator,
  ToolCallAccumulatorStream,
  type ProviderDelta,
  type ToolCallEvent,
} from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { collect, fromChunks } from "../support/streams.ts";

/** A finish with keys no stage sets, named as the accumulator's own state is (as a hand-built delta may). */
const strayFinish = {
  type: "finish",
  rawReason: "tool_use",
  reason: "tool-calls",
  container: { id: "container_011" },
  stopSequence: "END",
  finishSeen: false,
  providerErrorSeen: true,
  closed: true,
  toolCalls: [],
  usage: { inputTokens: 1 },
  order: [{ type: "text", length: 99 }],
  note: "kept by no one",
} as unknown as ProviderDelta;

const deltas: ProviderDelta[] = [
  { type: "text-delta", text: "Let me check." },
  { type: "tool-call-chunk", index: 0, id: "toolu_1", name: "get_weather", argumentsDelta: '{"city":"Paris"}' },
  strayFinish,
  { type: "done" },
];

group("A finish delta's fields", (test) => {
  test("keys a finish delta does not carry reach neither the accumulator's state nor the finish event", async () => {
    const stream = new ToolCallAccumulatorStream();
    const events: ToolCallEvent[] = await collect(fromChunks(deltas).pipeThrough(stream));
    assertEquals(
      events.map((event) => event.type),
      ["text-delta", "tool-call-start", "tool-call-delta", "tool-call", "finish"],
    );
    const finish = events.at(-1);
    assert(finish?.type === "finish", JSON.stringify(events));
    // The call completed once and is listed; the reason, the container and the stop sequence are the delta's.
    assertEquals(
      finish.toolCalls.map((call) => [call.id, call.arguments]),
      [["toolu_1", { city: "Paris" }]],
    );
    assertEquals([finish.reason, finish.rawReason], ["tool-calls", "tool_use"]);
    assertEquals(finish.container, { id: "container_011" });
    assertEquals(finish.stopSequence, "END");
    assertEquals(finish.usage, undefined);
    assertEquals(finish.order, undefined);
    assert(!("note" in finish) && !("closed" in finish) && !("finishSeen" in finish), JSON.stringify(finish));
    // The state holds the delta's named fields alone.
    const state = snapshotAccumulator(stream);
    assertEquals([state.finishSeen, state.providerErrorSeen, state.closed], [true, false, true]);
    assertEquals(state.usage, undefined);
    // The order is the one the turn's pieces noted (text, then the call), not the delta's.
    assertEquals(state.order, [
      { type: "text", length: 13 },
      { type: "tool-call", index: 0 },
    ]);
    assert(!("note" in state), JSON.stringify(state));
  });
});
