// Gemini Interactions' usage on a streamed step: @google/genai 3.3.0 (dist/genai.d.ts) types a
// `step.delta` event's `metadata` as `StepDeltaMetadata` ("Optional metadata accompanying ANY
// streamed event") with `total_usage` ("Statistics on the interaction request's token usage", the
// `Usage` of `interaction.completed`'s interaction). It is the usage so far: the first is the
// response's first report of its usage (the `usage` event a server passes on at once, as Anthropic's
// `message_start` and Gemini's chunks give theirs), and a stream cut before `interaction.completed`
// has still reported it. It was dropped: the usage came only with the completed interaction.
// Provenance: BUILT BY HAND in those types' shapes (no recording of one exists); the counts are made up.
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

const sse = (payloads: Record<string, unknown>[]): string =>
  payloads.map((p) => `event: ${String(p["event_type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("");

const usage = (output: number): Record<string, number> => ({
  total_input_tokens: 41,
  total_output_tokens: output,
  total_tokens: 41 + output,
});
const delta = (text: string, output: number): Record<string, unknown> => ({
  event_type: "step.delta",
  index: 0,
  delta: { type: "text", text },
  metadata: { total_usage: usage(output) },
});
const steps = [
  { event_type: "interaction.created", interaction: { id: "v1_usage", status: "in_progress" } },
  { event_type: "step.start", index: 0, step: { type: "model_output" } },
  delta("Tides turn", 2),
  delta(" twice a day.", 6),
  { event_type: "step.stop", index: 0 },
];

const run = async (payloads: Record<string, unknown>[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(sse(payloads))]), { provider: "gemini-interactions" }));

group("Gemini Interactions: a step delta's metadata.total_usage", (test) => {
  test("the first step delta's total_usage is the response's usage event, before its text", async () => {
    const events = await run([
      ...steps,
      { event_type: "interaction.completed", interaction: { id: "v1_usage", status: "completed", usage: usage(6) } },
    ]);
    assertEventInvariants(events);
    const first = events.findIndex((event) => event.type === "usage");
    assert(first >= 0 && first < events.findIndex((event) => event.type === "text-delta"), "usage before the text");
    const early = events[first];
    assertEquals(early?.type === "usage" && [early.usage.inputTokens, early.usage.outputTokens], [41, 2]);
    const finish = events.at(-1);
    assertEquals(finish?.type === "finish" && [finish.usage?.inputTokens, finish.usage?.outputTokens], [41, 6]);
  });

  test("a stream cut before interaction.completed has still reported its usage", async () => {
    const events = await run(steps);
    const end = events.at(-1);
    assert(end?.type === "abort", "the stream was cut");
    assertEquals(
      events
        .filter((event) => event.type === "usage")
        .map((event) => event.type === "usage" && event.usage.outputTokens),
      [2],
    );
  });
});
