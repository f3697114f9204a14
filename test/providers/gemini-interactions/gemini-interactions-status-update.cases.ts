// Gemini Interactions' `interaction.status_update` event. @google/genai 3.6.1 (dist/genai.d.ts, `InteractionStatusUpdate`,
// one of `InteractionSSEEvent`'s members) types it `{ event_type, interaction_id, status, continuation_token?, usage? }`:
// `usage` is "Statistics on the interaction request's token usage" (the `Usage` of `interaction.completed`'s
// interaction, so far), `continuation_token` "An optional opaque continuation token used to resume decoding from the
// latest checkpoint after a disconnected stream". The SDK's own stream reads that checkpoint (dist/index.mjs,
// `extractHopContinuationState`, `StreamContinuation.endHop`): when the connection drops after it, with no output
// since, `interactions.create({ stream: true })` opens the next hop from the token (a new interaction, its own
// `interaction.created`, its steps counted from 0 again) and yields its events after the dropped hop's, with no
// `interaction.completed` between them. Before, the status update was not read (its usage was lost when no
// `interaction.completed` followed), and such a hop's steps took the dropped hop's indexes: its call was merged into
// the earlier call of the same index.
// Provenance: BUILT BY HAND in those types' shapes (no recording of a checkpoint or of a resumed hop exists); the
// tokens and counts are made up.
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

type Payload = Record<string, unknown>;

/** The SDK's stream: the parsed events, one after another, as its async iterator yields them. */
async function* sdkStream(payloads: Payload[]): AsyncGenerator<Payload> {
  for (const payload of payloads) yield payload;
}

const sse = (payloads: Payload[]): string =>
  payloads.map((p) => `event: ${String(p["event_type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("");

const run = async (source: AsyncIterable<Payload> | string): Promise<ToolCallEvent[]> => {
  const input = typeof source === "string" ? fromChunks([bytes(source)]) : source;
  const events = await collect(streamToolCalls(input, { provider: "gemini-interactions" }));
  assertEventInvariants(events);
  return events;
};

const usage = (input: number, output: number) => ({
  total_input_tokens: input,
  total_output_tokens: output,
  total_tokens: input + output,
});
const created = (id: string) => ({ event_type: "interaction.created", interaction: { id, status: "in_progress" } });
const status = (id: string, extra: Payload = {}) => ({
  event_type: "interaction.status_update",
  interaction_id: id,
  status: "in_progress",
  ...extra,
});
const call = (index: number, id: string, args: string) => [
  { event_type: "step.start", index, step: { type: "function_call", id, name: "save_chapter", arguments: {} } },
  { event_type: "step.delta", index, delta: { type: "arguments_delta", arguments: args } },
  { event_type: "step.stop", index },
];
const text = (index: number, words: string) => [
  { event_type: "step.start", index, step: { type: "model_output" } },
  { event_type: "step.delta", index, delta: { type: "text", text: words } },
  { event_type: "step.stop", index },
];

group("Gemini Interactions: interaction.status_update", (test) => {
  test("its usage is the response's usage so far, kept when the stream is cut before interaction.completed", async () => {
    const events = await run(
      sse([created("v1_su"), status("v1_su"), ...text(0, "Tides turn."), status("v1_su", { usage: usage(41, 5) })]),
    );
    assert(events.at(-1)?.type === "abort", "the stream was cut");
    const reported = events.flatMap((event) => (event.type === "usage" ? [event.usage] : []));
    assertEquals(
      reported.map((u) => [u.inputTokens, u.outputTokens]),
      [[41, 5]],
    );
  });

  test("a status update without usage (the docs' in_progress one) changes nothing", async () => {
    const events = await run(
      sse([
        created("v1_su"),
        status("v1_su"),
        ...text(0, "Tides turn."),
        { event_type: "interaction.completed", interaction: { id: "v1_su", status: "completed", usage: usage(3, 4) } },
      ]),
    );
    const finish = events.at(-1);
    assert(finish?.type === "finish", "a finish");
    assertEquals([finish.text, finish.reason, finish.usage?.outputTokens], ["Tides turn.", "stop", 4]);
    assertEquals(events.filter((event) => event.type === "usage").length, 1);
  });

  test("the SDK's hop resumed from a checkpoint after a drop is the same answer, its steps apart from the dropped hop's", async () => {
    const dropped = [
      created("v1_hop1"),
      status("v1_hop1"),
      ...call(0, "c1", '{"n":1}'),
      ...text(1, "Chapter one. "),
      status("v1_hop1", { continuation_token: "Y2hrMQ==", usage: usage(10, 4) }),
      // the connection drops here: no interaction.completed
    ];
    const resumed = [
      created("v1_hop2"),
      status("v1_hop2"),
      ...call(0, "c2", '{"n":2}'),
      ...text(1, "Chapter two."),
      {
        event_type: "interaction.completed",
        interaction: { id: "v1_hop2", status: "requires_action", usage: usage(30, 6) },
      },
    ];
    const finish = (await run(sdkStream([...dropped, ...resumed]))).at(-1);
    assert(finish?.type === "finish", "a finish");
    assertEquals(
      [finish.reason, finish.text, finish.toolCalls.map((c) => [c.id, c.arguments])],
      [
        "tool-calls",
        "Chapter one. Chapter two.",
        [
          ["c1", { n: 1 }],
          ["c2", { n: 2 }],
        ],
      ],
    );
    // Each hop bills its own tokens: the dropped hop's so far, and the resumed hop's.
    assertEquals([finish.usage?.inputTokens, finish.usage?.outputTokens], [40, 10]);
  });

  // The SDK resumes a dropped hop from its latest checkpoint, and "resuming from it re-generates any output yielded
  // after the checkpoint" (genai.d.ts, `ContinuationInterruptedError.continuationToken`): a call the dropped hop left
  // open (no `step.stop`) was cut, and its arguments, whole-looking or not, are not the model's call. Before, the
  // resumed hop's `interaction.completed` stopped it with the hop's own steps and it was parsed as complete.
  test("a call the dropped hop left open is withdrawn, never parsed as complete", async () => {
    const dropped = [
      created("v1_hop1"),
      ...call(0, "c1", '{"n":1}').slice(0, 2), // its step never stopped
      status("v1_hop1", { continuation_token: "Y2hrMQ==" }),
    ];
    const resumed = [
      created("v1_hop2"),
      ...call(0, "c2", '{"n":2}'),
      { event_type: "interaction.completed", interaction: { id: "v1_hop2", status: "requires_action" } },
    ];
    const events = await run(sdkStream([...dropped, ...resumed]));
    const finish = events.at(-1);
    assert(finish?.type === "finish", "a finish");
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.arguments]),
      [["c2", { n: 2 }]],
    );
    assertEquals(
      (finish.withdrawnToolCalls ?? []).map((c) => [c.id, c.rawArguments, c.error.code]),
      [["c1", '{"n":1}', "withdrawn"]],
    );
    assert(!events.some((e) => e.type === "tool-call" && e.id === "c1"), "c1 never completed");
  });

  test("a stream resumed at last_event_id (the same interaction's created again) keeps its steps' indexes", async () => {
    const events = await run(
      sse([
        created("v1_same"),
        { event_type: "step.start", index: 0, step: { type: "function_call", id: "c1", name: "save_chapter" } },
        { event_type: "step.delta", index: 0, delta: { type: "arguments_delta", arguments: '{"n":' } },
        created("v1_same"),
        { event_type: "step.delta", index: 0, delta: { type: "arguments_delta", arguments: "1}" } },
        { event_type: "step.stop", index: 0 },
        { event_type: "interaction.completed", interaction: { id: "v1_same", status: "requires_action" } },
      ]),
    );
    const finish = events.at(-1);
    assert(finish?.type === "finish", "a finish");
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.arguments]),
      [["c1", { n: 1 }]],
    );
  });

  // The SDK ends a hop whose last status is terminal without looking for an `interaction.completed`: its stream stops
  // there, with no error (dist/index.mjs: `extractHopContinuationState` takes a status update's `status` as the hop's,
  // and `StreamContinuation.endHop` resumes only `in_progress`/`requires_continuation`). Before, a body that ended on
  // such an update had no finish: the stream ended `input-ended`, its calls discarded.
  test("a terminal status update the body ends on is the answer's end, as interaction.completed is", async () => {
    const events = await run(
      `${sse([
        created("v1_end"),
        ...text(0, "Saving. "),
        ...call(1, "c1", '{"n":1}'),
        status("v1_end", { status: "requires_action", usage: usage(12, 3) }),
      ])}event: done\ndata: [DONE]\n\n`,
    );
    const finish = events.at(-1);
    assert(finish?.type === "finish", "a finish");
    assertEquals(
      [finish.reason, finish.rawReason, finish.text, finish.toolCalls.map((c) => [c.id, c.arguments])],
      ["tool-calls", "requires_action", "Saving. ", [["c1", { n: 1 }]]],
    );
    assertEquals([finish.usage?.inputTokens, finish.usage?.outputTokens], [12, 3]);
    assertEquals(events.filter((e) => e.type === "usage").length, 1);
    // No [DONE] (the SDK's events): the input's end is the end.
    const sdk = (
      await run(sdkStream([created("v1_end"), ...text(0, "Done."), status("v1_end", { status: "completed" })]))
    ).at(-1);
    assert(sdk?.type === "finish" && sdk.reason === "stop" && sdk.text === "Done.", "a finish at the input's end");
  });

  test("an interaction.completed after a terminal status update is the one finish; a later step means it was none", async () => {
    const events = await run(
      sse([
        created("v1_end"),
        ...text(0, "Done."),
        status("v1_end", { status: "completed" }),
        { event_type: "interaction.completed", interaction: { id: "v1_end", status: "completed", usage: usage(3, 4) } },
      ]),
    );
    assertEquals(events.filter((e) => e.type === "finish").length, 1);
    const cut = await run(sse([created("v1_end"), status("v1_end", { status: "completed" }), ...text(0, "More.")]));
    assert(cut.at(-1)?.type === "abort", "a step after it: the stream was cut");
  });
});
