// OpenAI Responses `additional_tools` output items: openai-node 7.60.0 (resources/responses/responses.d.ts,
// `ResponseOutputItem.AdditionalTools`, one of `ResponseOutputItem`'s members: `{ type: "additional_tools", id, role,
// tools }`, "The additional tool definitions made available at this item") and its input counterpart
// (`ResponseInputItem.AdditionalTools`, "A list of additional tools made available at this item"). The tools it lists
// are available to the model from that item on, so a next turn sent whole (`store: false`, or any conversation built
// by hand) must carry the item in its place, as the other items OpenAI's output holds for the model (a
// `tool_search_output`, a `program`). Before, the item was dropped: the finish did not have it and the next turn went
// without it, so the model lost the tools it had been given.
// Provenance: BUILT BY HAND in those types' shapes (no recording of one exists); the ids and tools are made up.
import type { ResponseInputItem, ResponseOutputItem } from "openai-v7/resources/responses/responses";
import { assistantMessage, providerKit, streamToolCalls, type FinishEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";
import { responsesSse } from "./built-in-calls-recordings.ts";

const response = (status: string) => ({ id: "resp_at", object: "response", status, output: [] });
const convert = {
  type: "function" as const,
  name: "convert",
  description: "Converts an amount between currencies.",
  parameters: { type: "object", properties: { to: { type: "string" } } },
  strict: false,
};
const added: ResponseOutputItem.AdditionalTools = {
  id: "at_71",
  type: "additional_tools",
  role: "developer",
  tools: [convert],
};
const call = {
  id: "fc_72",
  type: "function_call",
  status: "completed",
  arguments: '{"to":"EUR"}',
  call_id: "call_c",
  name: "convert",
};

const stream = responsesSse([
  { type: "response.created", response: response("in_progress") },
  { type: "response.output_item.added", output_index: 0, item: added },
  { type: "response.output_item.done", output_index: 0, item: added },
  { type: "response.output_item.added", output_index: 1, item: { ...call, status: "in_progress", arguments: "" } },
  { type: "response.function_call_arguments.done", item_id: "fc_72", output_index: 1, arguments: call.arguments },
  { type: "response.output_item.done", output_index: 1, item: call },
  { type: "response.completed", response: response("completed") },
]);

async function finishOf(body: string): Promise<FinishEvent> {
  return assertFinished(
    await collect(streamToolCalls(fromChunks([bytes(body)]), { provider: "openai-responses" })),
    false,
  );
}

group("OpenAIResponsesDeltaStream additional_tools items", (test) => {
  test("the item is kept whole on the finish, in its place before the call", async () => {
    const finish = await finishOf(stream);
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.name, c.arguments]),
      [["call_c", "convert", { to: "EUR" }]],
    );
    assertEquals(finish.reasoningParts, [{ type: "block", block: added }]);
  });

  test("the next turn sends it back as it came, before the call of a tool it listed", async () => {
    const finish = await finishOf(stream);
    // Its role is the input item's one (`ResponseInputItem.AdditionalTools`: "Only `developer` is supported").
    const item: ResponseInputItem = { ...added, role: "developer" };
    const next = [item, { type: "function_call", call_id: "call_c", name: "convert", arguments: '{"to":"EUR"}' }];
    assertEquals(assistantMessage("openai-responses", finish), next);
    const body = providerKit("openai-responses").requestBody({
      model: "m",
      messages: [
        { role: "user", content: "100 USD in EUR?" },
        { role: "assistant", content: "", toolCalls: finish.toolCalls, reasoningParts: finish.reasoningParts },
      ],
      tools: [],
    });
    assertEquals((body["input"] as unknown[]).slice(1), next);
  });
});
