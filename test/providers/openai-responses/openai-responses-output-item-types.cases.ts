// Every item type of openai-node's `ResponseOutputItem` union (6.49.0 and 7.60.0 list the same 28), and what the
// Responses decoder does with it: the record below fails `tsc` when a new openai's union gains or loses a type, so a
// new item is looked at before it is dropped unseen. The `*_output` items split in two. Those OpenAI makes itself
// (a server tool search's `tool_search_output`, a program's `program_output`, a hosted shell's `shell_call_output`)
// stream as output items and are kept whole, sent back in their place (openai-responses-server-items.ts). Those of the
// client's own tools (`function_call_output`, `custom_tool_call_output`, `computer_call_output`,
// `local_shell_call_output`, `apply_patch_call_output`, `mcp_approval_response`: "from your code", as the SDK's docs
// say) are in the union for the items read back from OpenAI (a stored response's, a conversation's); a model's
// stream holds none (no recording here or in ../shared has one), and the next turn sends them as the client's tool
// results. An output item of those types in a stream is no call and no text: nothing comes of it, nothing fails.
import type { ResponseOutputItem } from "openai-v7/resources/responses/responses";
import { streamToolCalls } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";
import { responsesSse } from "./built-in-calls-recordings.ts";

type How = "text" | "reasoning" | "call" | "built-in call" | "approval" | "kept" | "the client's output";
const HOW: Record<ResponseOutputItem["type"], How> = {
  message: "text",
  reasoning: "reasoning",
  function_call: "call",
  custom_tool_call: "call",
  // Read as calls by the `builtInCalls` plug-in only (openai-responses-built-in-calls.ts).
  computer_call: "built-in call",
  local_shell_call: "built-in call",
  shell_call: "built-in call",
  apply_patch_call: "built-in call",
  mcp_call: "built-in call",
  tool_search_call: "built-in call",
  mcp_approval_request: "approval",
  compaction: "kept",
  additional_tools: "kept",
  mcp_list_tools: "kept",
  program: "kept",
  program_output: "kept",
  tool_search_output: "kept",
  shell_call_output: "kept",
  web_search_call: "kept",
  code_interpreter_call: "kept",
  image_generation_call: "kept",
  file_search_call: "kept",
  function_call_output: "the client's output",
  custom_tool_call_output: "the client's output",
  computer_call_output: "the client's output",
  local_shell_call_output: "the client's output",
  apply_patch_call_output: "the client's output",
  mcp_approval_response: "the client's output",
};
const typesOf = (how: How) => Object.keys(HOW).filter((type) => HOW[type as keyof typeof HOW] === how);
const response = (status: string) => ({ id: "resp_t", object: "response", status, output: [] });
const text = "Done.";
const message = { id: "msg_1", type: "message", role: "assistant", status: "completed", content: [] };

/** A turn of one output item of `type` (its fields made up), then the text. */
async function turnWith(type: string) {
  const item = { id: `it_${type}`, type, call_id: "call_1", status: "completed", output: [] };
  const events = await collect(
    streamToolCalls(
      fromChunks([
        bytes(
          responsesSse([
            { type: "response.created", response: response("in_progress") },
            { type: "response.output_item.done", output_index: 0, item },
            { type: "response.output_item.added", output_index: 1, item: { ...message, status: "in_progress" } },
            { type: "response.output_text.delta", item_id: "msg_1", output_index: 1, content_index: 0, delta: text },
            { type: "response.output_item.done", output_index: 1, item: message },
            { type: "response.completed", response: response("completed") },
          ]),
        ),
      ]),
      { provider: "openai-responses" },
    ),
  );
  return { item, events, finish: assertFinished(events) };
}

group("OpenAI Responses output item types (openai-node's ResponseOutputItem)", (test) => {
  test("the items OpenAI makes itself, *_output ones included, are kept whole for the next turn", async () => {
    for (const type of typesOf("kept")) {
      const { item, finish } = await turnWith(type);
      assertEquals([type, finish.reasoningParts], [type, [{ type: "block", block: item }]]);
    }
  });

  test("the outputs of the client's own tools are no call, no text, no error, nothing kept: the client sends its own", async () => {
    for (const type of typesOf("the client's output")) {
      const { events, finish } = await turnWith(type);
      assertEquals(
        [type, events.map((event) => event.type), finish.text, finish.reasoningParts ?? []],
        [type, ["text-delta", "finish"], text, []],
      );
    }
  });
});
