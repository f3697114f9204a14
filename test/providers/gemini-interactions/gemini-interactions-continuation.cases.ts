// Gemini Interactions' long decodes: an interaction that reached the per-request decode token limit completes with
// `status: "requires_continuation"` and its `continuation_token`, which the next `interactions.create` sends back to go
// on. From @google/genai 3.3.0 (dist/genai.d.ts): `Interaction.continuation_token` ("Opaque token to resume a long
// decode. Output: set when status is REQUIRES_CONTINUATION and decoding can be resumed. Input: pass the latest token
// back unchanged in CreateInteraction to continue decoding"), `InteractionSseEventInteraction.continuation_token`, the
// status `requires_continuation`; and the SDK's own streaming continuation (dist/index.mjs,
// `extractHopContinuationState`: `interaction.completed`'s snapshot is authoritative, a missing token there clears
// any earlier checkpoint's, as a `interaction.status_update`'s; `shouldContinueUnary`: only `requires_continuation`
// goes on). Before, the finish said `length` and the token was lost.
// Provenance: BUILT BY HAND in those types' shapes (no recording of one exists); the tokens are made up.
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

const sse = (payloads: Record<string, unknown>[]): string =>
  payloads.map((p) => `event: ${String(p["event_type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("") +
  "event: done\ndata: [DONE]\n\n";

const created = { event_type: "interaction.created", interaction: { id: "v1_long", status: "in_progress" } };
const text = [
  { event_type: "step.start", index: 0, step: { type: "model_output" } },
  { event_type: "step.delta", index: 0, delta: { type: "text", text: "Chapter one" } },
  { event_type: "step.stop", index: 0 },
];
const checkpoint = {
  event_type: "interaction.status_update",
  interaction_id: "v1_long",
  status: "in_progress",
  continuation_token: "Y2hrMQ==",
};
const completed = (status: string, token?: string): Record<string, unknown> => ({
  event_type: "interaction.completed",
  interaction: {
    id: "v1_long",
    status,
    ...(token && { continuation_token: token }),
    usage: { total_input_tokens: 3, total_output_tokens: 9 },
  },
});

async function run(payloads: Record<string, unknown>[]): Promise<ToolCallEvent[]> {
  const events = await collect(
    streamToolCalls(fromChunks([bytes(sse(payloads))]), { provider: "gemini-interactions" }),
  );
  assertEventInvariants(events);
  return events;
}

group("Gemini Interactions: a long decode's continuation_token (status requires_continuation)", (test) => {
  test("the finish of requires_continuation carries the completed interaction's token, the reason length", async () => {
    const finish = assertFinished(
      await run([created, ...text, checkpoint, completed("requires_continuation", "Y2hrMg==")]),
      false,
    );
    assertEquals([finish.reason, finish.rawReason, finish.text], ["length", "requires_continuation", "Chapter one"]);
    assertEquals(finish.continuationToken, "Y2hrMg==");
  });

  test("the completed snapshot is authoritative: a checkpoint's token does not outlive it", async () => {
    const finish = assertFinished(await run([created, ...text, checkpoint, completed("requires_continuation")]), false);
    assertEquals("continuationToken" in finish, false);
  });

  test("another status has none, though it came with a token", async () => {
    for (const status of ["completed", "incomplete", "budget_exceeded"]) {
      const finish = assertFinished(await run([created, ...text, completed(status, "Y2hrMw==")]), false);
      assertEquals([finish.rawReason, "continuationToken" in finish], [status, false], status);
    }
  });
});
