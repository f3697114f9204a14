// Gemini Interactions through @google/genai's own stream: `interactions.create({ stream: true })` continues a decode
// the per-request limit cut by itself (`automatic_continuation`, true by default since 3.3.0), and its stream yields
// "the events of all continuation hops ... verbatim and in order ..., including each hop's `interaction.created` and
// intermediate `interaction.completed` (with `status: 'requires_continuation'`); check `status` on
// `interaction.completed` events rather than treating the first one as the end of the output" (3.6.1's
// dist/genai.d.ts, `AutomaticContinuationOption`; dist/index.mjs `StreamContinuation.observe` passes each event on
// as it came, and the SSE reader stops at `[DONE]` without yielding it). Each hop is an interaction of its own, whose
// step indexes count from 0 again, and whose usage is its own (the SDK sums the hops' usage for a unary call).
// Before, the first hop's `interaction.completed` ended the answer: the later hops' text and calls were dropped.
// Provenance: BUILT BY HAND in those shapes (no recording of a continued stream exists); the tokens are made up.
import { streamToolCalls, type FinishEvent, type ToolCallEvent } from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

type Payload = Record<string, unknown>;

/** The SDK's stream: the parsed events, one after another, as its async iterator yields them. */
async function* sdkStream(payloads: Payload[]): AsyncGenerator<Payload> {
  for (const payload of payloads) yield payload;
}

const sse = (payloads: Payload[]): string =>
  `${payloads.map((p) => `event: ${String(p["event_type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("")}event: done\ndata: [DONE]\n\n`;

async function finishOf(source: AsyncIterable<Payload> | string): Promise<FinishEvent> {
  const input = typeof source === "string" ? fromChunks([bytes(source)]) : source;
  const events: ToolCallEvent[] = await collect(streamToolCalls(input, { provider: "gemini-interactions" }));
  assertEventInvariants(events);
  const finish = events.at(-1);
  assert(finish?.type === "finish", "a finish");
  return finish;
}

const usage = (input: number, output: number) => ({
  total_input_tokens: input,
  total_output_tokens: output,
  total_tokens: input + output,
});
const created = (id: string) => ({ event_type: "interaction.created", interaction: { id, status: "in_progress" } });
const completed = (id: string, status: string, token?: string, counts = usage(10, 4)) => ({
  event_type: "interaction.completed",
  interaction: { id, status, ...(token && { continuation_token: token }), usage: counts },
});
const text = (index: number, words: string) => [
  { event_type: "step.start", index, step: { type: "model_output" } },
  { event_type: "step.delta", index, delta: { type: "text", text: words } },
  { event_type: "step.stop", index },
];
const call = (index: number, id: string, args: string) => [
  { event_type: "step.start", index, step: { type: "function_call", id, name: "save_chapter", arguments: {} } },
  { event_type: "step.delta", index, delta: { type: "arguments_delta", arguments: args } },
  { event_type: "step.stop", index },
];
const firstHop = [
  created("v1_hop1"),
  ...call(0, "c1", '{"n":1}'),
  ...text(1, "Chapter one. "),
  completed("v1_hop1", "requires_continuation", "aG9wMQ=="),
];
const secondHop = [
  created("v1_hop2"),
  ...text(0, "Chapter two."),
  ...call(1, "c2", '{"n":2}'),
  completed("v1_hop2", "requires_action", undefined, usage(30, 6)),
];

group("Gemini Interactions: @google/genai's continued stream (automatic_continuation) is one answer", (test) => {
  test("every hop's text and calls, the calls apart though each hop counts its steps from 0", async () => {
    const finish = await finishOf(sdkStream([...firstHop, ...secondHop]));
    assertEquals(
      [finish.reason, finish.rawReason, finish.text],
      ["tool-calls", "requires_action", "Chapter one. Chapter two."],
    );
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.arguments]),
      [
        ["c1", { n: 1 }],
        ["c2", { n: 2 }],
      ],
    );
    assertEquals("continuationToken" in finish, false);
  });

  test("the usage is the hops' together, as the SDK sums them", async () => {
    const finish = await finishOf(sdkStream([...firstHop, ...secondHop]));
    assertEquals([finish.usage?.inputTokens, finish.usage?.outputTokens, finish.usage?.totalTokens], [40, 10, 50]);
  });

  test("one hop alone (its bytes, or the SDK told not to continue) still ends at length with its token", async () => {
    for (const source of [sse(firstHop), sdkStream(firstHop)]) {
      const finish = await finishOf(source);
      assertEquals([finish.reason, finish.continuationToken, finish.text], ["length", "aG9wMQ==", "Chapter one. "]);
      assertEquals(finish.usage?.inputTokens, 10);
    }
  });
});
