import {
  createProviderDeltaStream,
  SSEDecoderStream,
  ToolCallAccumulator,
  ToolCallAccumulatorStream,
  type ProviderDelta,
  type ToolCallEvent,
} from "../../src/index.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

/** Feeds deltas to an accumulator, or to one restored from `snapshot`, and ends it when asked. */
function feed(deltas: readonly ProviderDelta[], end: boolean, snapshot?: unknown): { events: ToolCallEvent[]; accumulator: ToolCallAccumulator } {
  const events: ToolCallEvent[] = [];
  const enqueue = (event: ToolCallEvent): void => void events.push(event);
  const accumulator = snapshot
    ? ToolCallAccumulator.restore(JSON.parse(JSON.stringify(snapshot)), enqueue)
    : new ToolCallAccumulator(enqueue);
  for (const delta of deltas) accumulator.push(delta);
  if (end) accumulator.end();
  return { events, accumulator };
}

group("ToolCallAccumulator snapshot and restore", (test) => {
  for (const fixture of allFixtures) {
    const provider = supportedProvider(fixture);
    if (!provider) continue;
    test(`${fixture.provider}/${fixture.name}: cut at every delta, restored from JSON, gives the unbroken run`, async () => {
      const deltas = await collect(
        fromChunks([bytes(fixture.sse)]).pipeThrough(new SSEDecoderStream()).pipeThrough(createProviderDeltaStream(provider)),
      );
      const unbroken = feed(deltas, true).events;
      for (let cut = 0; cut <= deltas.length; cut++) {
        const first = feed(deltas.slice(0, cut), false);
        const second = feed(deltas.slice(cut), true, first.accumulator.snapshot());
        assertEquals([...first.events, ...second.events], unbroken, `cut after ${cut} of ${deltas.length} deltas`);
      }
    });
  }

  test("ToolCallAccumulatorStream continues from a snapshot taken between writes", async () => {
    const deltas: ProviderDelta[] = [
      { type: "text-delta", text: "a" },
      { type: "tool-call-chunk", index: 0, id: "c1", name: "f", argumentsDelta: '{"x":' },
      { type: "tool-call-chunk", index: 0, argumentsDelta: " 1}" },
      { type: "finish", rawReason: "tool_calls" },
      { type: "done" },
    ];
    const first = new ToolCallAccumulatorStream();
    const firstEvents = collect(first.readable);
    const writer = first.writable.getWriter();
    await writer.write(deltas[0]!);
    await writer.write(deltas[1]!);
    const snapshot = first.snapshot();
    await writer.abort("moved elsewhere");
    await firstEvents.catch(() => []);
    const rest = await collect(fromChunks(deltas.slice(2)).pipeThrough(new ToolCallAccumulatorStream({ restoreFrom: snapshot })));
    const final = rest.at(-1);
    assertEquals(final?.type === "finish" ? final.toolCalls.map((c) => [c.id, c.arguments]) : [], [["c1", { x: 1 }]]);
    assertEquals(final?.type === "finish" ? final.text : "", "a");
  });
});
