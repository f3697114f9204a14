// OpenAI Responses `mcp_list_tools` output items: openai-node 7.60.0 (resources/responses/responses.d.ts,
// `ResponseOutputItem.McpListTools`, `{ type: "mcp_list_tools", id, server_label, tools, error? }`, "A list of tools
// available on an MCP server") and its input counterpart (`ResponseInputItem.McpListTools`, the same fields, one of
// `ResponseInputItem`'s members). A remote MCP server's tools are listed once per conversation: OpenAI lists them again
// only when the list item is not in the conversation (it repeats no `mcp_list_tools` for a server on a turn after
// `previous_response_id`), so a next turn sent whole (`store: false`, or any conversation built by hand) carries the
// item in its place, as it carries the other items OpenAI's output holds for the model (`additional_tools`,
// `tool_search_output`). Before, the item was dropped: the finish did not have it and the next turn went without it,
// so OpenAI called the MCP server to list its tools again on every turn.
// Provenance: the stream is the documented one of test/recordings/openai-responses/mcp-approval-request.sse (its
// README says from what) and one BUILT BY HAND in those types' shapes; ids and tools made up.
import type { ResponseInputItem, ResponseOutputItem } from "openai-v7/resources/responses/responses";
import { assistantMessage, providerKit, streamToolCalls, type FinishEvent } from "../../../src/index.ts";
import { allFixtures } from "../../support/fixtures.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";
import { responsesSse } from "./built-in-calls-recordings.ts";

const response = (status: string) => ({ id: "resp_ml", object: "response", status, output: [] });
const listed: ResponseOutputItem.McpListTools = {
  id: "mcpl_81",
  type: "mcp_list_tools",
  server_label: "links",
  tools: [
    {
      name: "shorten",
      description: "Shorten a URL.",
      input_schema: { type: "object", properties: { url: { type: "string" } } },
      annotations: { read_only: false },
    },
  ],
};
const text = "Here is what the server offers.";
const message = {
  id: "msg_82",
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, annotations: [] }],
};

const stream = responsesSse([
  { type: "response.created", response: response("in_progress") },
  { type: "response.output_item.added", output_index: 0, item: { ...listed, tools: [] } },
  { type: "response.mcp_list_tools.in_progress", output_index: 0, item_id: "mcpl_81" },
  { type: "response.mcp_list_tools.completed", output_index: 0, item_id: "mcpl_81" },
  { type: "response.output_item.done", output_index: 0, item: listed },
  { type: "response.output_item.added", output_index: 1, item: { ...message, status: "in_progress", content: [] } },
  { type: "response.output_text.delta", item_id: "msg_82", output_index: 1, content_index: 0, delta: text },
  { type: "response.output_item.done", output_index: 1, item: message },
  { type: "response.completed", response: response("completed") },
]);

async function finishOf(body: string): Promise<FinishEvent> {
  return assertFinished(await collect(streamToolCalls(fromChunks([bytes(body)]), { provider: "openai-responses" })));
}

group("OpenAIResponsesDeltaStream mcp_list_tools items", (test) => {
  test("the item is kept whole on the finish, in its place before the text", async () => {
    const finish = await finishOf(stream);
    assertEquals([finish.reason, finish.text], ["stop", text]);
    assertEquals(finish.reasoningParts, [{ type: "block", block: listed }]);
  });

  test("the next turn sends it back as it came (an input item of openai 7's union), before the text", async () => {
    const finish = await finishOf(stream);
    const item: ResponseInputItem = { ...listed };
    const next = assistantMessage("openai-responses", finish) as { type?: string }[];
    assertEquals(next[0], item);
    assertEquals(
      next.map((entry) => entry.type),
      ["mcp_list_tools", "message"],
    );
    const body = providerKit("openai-responses").requestBody({
      model: "m",
      messages: [
        { role: "user", content: "What can the links server do?" },
        { role: "assistant", content: finish.text, toolCalls: finish.toolCalls, reasoningParts: finish.reasoningParts },
        { role: "user", content: "Shorten https://example.com/a" },
      ],
      tools: [],
    });
    const input = body["input"] as { type?: string }[];
    assertEquals(input[1], item);
    assertEquals(
      input.map((entry) => entry.type ?? "message"),
      ["message", "mcp_list_tools", "message", "message"],
    );
  });

  test("an approval's turn keeps the list too: it goes back first, then the reasoning and the request", async () => {
    const fixture = allFixtures.find((f) => f.provider === "openai-responses" && f.name === "mcp-approval-request")!;
    const events = await collect(streamToolCalls(fromChunks([fixture.body]), { provider: "openai-responses" }));
    const finish = assertFinished(events);
    const next = assistantMessage("openai-responses", finish) as { type?: string; id?: string }[];
    assertEquals(
      next.map((entry) => [entry.type, entry.id]),
      [
        ["mcp_list_tools", "mcpl_tcs_01"],
        ["reasoning", next[1]!.id],
        ["mcp_approval_request", "mcpr_tcs_02"],
      ],
    );
  });
});
