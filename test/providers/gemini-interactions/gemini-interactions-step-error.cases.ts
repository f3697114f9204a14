// Gemini Interactions: a failure inside the stream is a typed error, never a quiet success. From @google/genai
// 3.3.0 (dist/genai.d.ts): `StepStart { index, step: Step }`, `ModelOutputStep { content?, error?: Status,
// type: "model_output" }` with `Status { code?, message?, details? }` (google.rpc.Status; also the Java SDK's
// `ModelOutputStep.error()`), and `ErrorEvent { error?: { code?, message? }, event_type: "error" }`. Before, a
// model output step's `error` was ignored: the stream finished `stop` as if the step had succeeded.
// Provenance: BUILT BY HAND in those types' shapes (no recording of a failed step exists).
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

const sse = (payloads: Record<string, unknown>[]): string =>
  payloads.map((p) => `event: ${String(p["event_type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("") +
  "event: done\ndata: [DONE]\n\n";

async function run(payloads: Record<string, unknown>[]): Promise<ToolCallEvent[]> {
  const events = await collect(
    streamToolCalls(fromChunks([bytes(sse(payloads))]), { provider: "gemini-interactions" }),
  );
  assertEventInvariants(events);
  return events;
}

const created = { event_type: "interaction.created", interaction: { id: "v1_f", status: "in_progress" } };
const said = [
  { event_type: "step.start", index: 0, step: { type: "model_output" } },
  { event_type: "step.delta", index: 0, delta: { type: "text", text: "Part one." } },
  { event_type: "step.stop", index: 0 },
];
const status = { code: 13, message: "Internal error encountered." };
const failedStep = { event_type: "step.start", index: 1, step: { type: "model_output", error: status } };
const completed = (state: string) => ({
  event_type: "interaction.completed",
  interaction: { id: "v1_f", status: state },
});

const errorsOf = (events: ToolCallEvent[]) =>
  events.flatMap((e) => (e.type === "error" ? [[e.error.code, e.error.data] as const] : []));

group("Gemini Interactions: a failure inside the stream", (test) => {
  test("a model output step's error is a provider-error with its Status, after the text that came first", async () => {
    for (const state of ["failed", "completed"]) {
      const events = await run([created, ...said, failedStep, { event_type: "step.stop", index: 1 }, completed(state)]);
      assertEquals(errorsOf(events), [["provider-error", status]], state);
      const text = events.findIndex((e) => e.type === "text-delta");
      const error = events.findIndex((e) => e.type === "error");
      assert(text >= 0 && text < error, `${state}: the text first, then the error`);
      const finish = events.at(-1);
      assert(finish?.type === "finish", `${state}: a finish`);
      assertEquals(finish.text, "Part one.", state);
    }
  });

  test("an error event after text and a call: both delivered, then the error and no success", async () => {
    const call = [
      { event_type: "step.start", index: 1, step: { type: "function_call", id: "c1", name: "f", arguments: {} } },
      { event_type: "step.delta", index: 1, delta: { type: "arguments_delta", arguments: '{"q":1}' } },
      { event_type: "step.stop", index: 1 },
    ];
    const events = await run([created, ...said, ...call, { event_type: "error", error: { code: "x", message: "m" } }]);
    assertEquals(
      events.filter((e) => e.type === "text-delta" || e.type === "tool-call").map((e) => e.type),
      ["text-delta", "tool-call"],
    );
    assertEquals(
      errorsOf(events).map(([code]) => code),
      ["provider-error"],
    );
    assert(!events.some((e) => e.type === "finish"), "no finish: the interaction never completed");
  });

  // @google/genai 3.6.1: `Interaction.errors?: ErrorT[]` ("diagnostic faults / platform errors recorded on the
  // interaction", each `{ code?: a URI, message? }`); the completed event's `interaction` is a partial Interaction,
  // and no version declares a singular `error` on it. Before, a failed interaction's `errors` were dropped: the
  // finish said `error` with no error to show.
  test("a failed interaction's errors[] is a provider-error with its first entry; a completed one's is no error", async () => {
    const fault = { code: "https://ai.google.dev/errors/internal", message: "The model failed to respond." };
    const diagnostic = { code: "https://ai.google.dev/errors/degraded", message: "Served by a fallback region." };
    const ended = (state: string) => ({
      event_type: "interaction.completed",
      interaction: { id: "v1_f", status: state, errors: [fault, diagnostic] },
    });
    const failed = await run([created, ...said, ended("failed")]);
    assertEquals(errorsOf(failed), [["provider-error", fault]]);
    const finish = failed.at(-1);
    assert(finish?.type === "finish" && finish.reason === "error", "the finish after the error");
    assertEquals(errorsOf(await run([created, ...said, ended("completed")])), []);
  });

  test("a model output step without an error is no error", async () => {
    assertEquals(errorsOf(await run([created, ...said, completed("completed")])), []);
  });
});
