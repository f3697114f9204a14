// Gemini Interactions: what @google/genai 3.6.1 added to the streamed interaction (dist/genai.d.ts), built by hand
// in its shapes (no recording exists). The status `idle` (`InteractionSseEventInteractionStatus`; the live
// `InteractionStatus` says of `REQUIRES_ACTION` "Deprecated: Use IDLE instead", and of `IDLE` "The server has
// completed all processing"): the turn ended, on calls or not. And the `tool_search` tool's steps,
// `ToolSearchCallStep { id, arguments: { function_names? }, signature? }` and `ToolSearchResultStep { call_id,
// result?: FunctionT[], signature? }`: the provider's search of the tools, run by it and sent back as they came.
import { assistantMessage, streamToolCalls, type FinishEvent, type ToolCallEvent } from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

const sse = (payloads: Record<string, unknown>[]): string =>
  payloads.map((p) => `event: ${String(p["event_type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("") +
  "event: done\ndata: [DONE]\n\n";

async function finishOf(payloads: Record<string, unknown>[]): Promise<FinishEvent> {
  const events: ToolCallEvent[] = await collect(
    streamToolCalls(fromChunks([bytes(sse(payloads))]), { provider: "gemini-interactions" }),
  );
  assertEventInvariants(events);
  const finish = events.at(-1);
  assert(finish?.type === "finish", "a finish");
  return finish;
}

const created = { event_type: "interaction.created", interaction: { id: "v1_i", status: "in_progress" } };
const completed = (status: string) => ({ event_type: "interaction.completed", interaction: { id: "v1_i", status } });
const weather = [
  { event_type: "step.start", index: 2, step: { type: "function_call", id: "c1", name: "get_weather", arguments: {} } },
  { event_type: "step.delta", index: 2, delta: { type: "arguments_delta", arguments: '{"city":"Paris"}' } },
  { event_type: "step.stop", index: 2 },
];
const search = [
  {
    event_type: "step.start",
    index: 0,
    step: { type: "tool_search_call", id: "ts1", arguments: { function_names: ["get_weather"] }, signature: "c2ln" },
  },
  { event_type: "step.stop", index: 0 },
  {
    event_type: "step.start",
    index: 1,
    step: {
      type: "tool_search_result",
      call_id: "ts1",
      result: [{ type: "function", name: "get_weather", parameters: { type: "object" } }],
    },
  },
  { event_type: "step.stop", index: 1 },
];

group("Gemini Interactions: @google/genai 3.6.1's idle status and tool_search steps", (test) => {
  test("an idle interaction ended its turn: tool-calls with a call to answer, stop without", async () => {
    const withCall = await finishOf([created, ...weather, completed("idle")]);
    assertEquals([withCall.reason, withCall.rawReason], ["tool-calls", "idle"]);
    assertEquals(
      withCall.toolCalls.map((c) => [c.id, c.arguments]),
      [["c1", { city: "Paris" }]],
    );
    assertEquals((await finishOf([created, completed("idle")])).reason, "stop");
  });

  test("a tool_search call is the provider's, with its result; the function call it found is the client's", async () => {
    const finish = await finishOf([created, ...search, ...weather, completed("requires_action")]);
    assertEquals(finish.reason, "tool-calls");
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.name, c.providerExecuted === true, c.arguments]),
      [
        ["ts1", "tool_search", true, { function_names: ["get_weather"] }],
        ["c1", "get_weather", false, { city: "Paris" }],
      ],
    );
    const steps = assistantMessage("gemini-interactions", finish) as { type: string; [key: string]: unknown }[];
    assertEquals(
      steps.map((s) => s.type),
      ["tool_search_call", "tool_search_result", "function_call"],
    );
    assertEquals(steps[0]?.["signature"], "c2ln");
    assertEquals(steps[1]?.["call_id"], "ts1");
  });
});
