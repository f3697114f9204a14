// A call item that `response.output_item.done` gives with `status: "incomplete"` (openai's
// `ResponseFunctionToolCall.status` / `ResponseCustomToolCall`: "in_progress", "completed" or
// "incomplete") was cut by the response's limit before its `.done`: it is no call that ended. The
// response's own finish judges it (`response.incomplete`: a free-text input is `truncated-input`, a
// JSON value cut short `invalid-json`), and a body that then ends without a finish discards it.
// Before, the item's end completed it with what it held: `echo hi` of a shell command the limit cut
// was a valid call to run. Built by hand in the SDK's event shapes.
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

type Event = { type: string; [key: string]: unknown };

async function read(events: Event[]): Promise<unknown[]> {
  const body = events.map((e, at) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: at })}\n\n`);
  const out: ToolCallEvent[] = await collect(
    streamToolCalls(fromChunks([bytes(body.join(""))]), { provider: "openai-responses" }),
  );
  assertEventInvariants(out);
  return out.flatMap((event) => {
    if (event.type === "tool-call") return [["call", event.rawArguments]];
    if (event.type === "invalid-tool-call") return [["invalid", event.rawArguments, event.error.code]];
    if (event.type === "abort") return [["abort", event.discarded.map((call) => call.rawArguments)]];
    if (event.type === "finish") return [["finish", event.reason]];
    return [];
  });
}

/** A custom tool's call whose input streams `echo hi`, then its item is done `incomplete`. */
const cut: Event[] = [
  { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } },
  {
    type: "response.output_item.added",
    output_index: 0,
    item: { type: "custom_tool_call", id: "ctc_1", call_id: "call_1", name: "shell", input: "", status: "in_progress" },
  },
  { type: "response.custom_tool_call_input.delta", output_index: 0, item_id: "ctc_1", delta: "echo hi" },
  {
    type: "response.output_item.done",
    output_index: 0,
    item: {
      type: "custom_tool_call",
      id: "ctc_1",
      call_id: "call_1",
      name: "shell",
      input: "echo hi",
      status: "incomplete",
    },
  },
];
const incomplete: Event = {
  type: "response.incomplete",
  response: { id: "resp_1", status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, output: [] },
};

group("OpenAI Responses: a call item done `incomplete` is no call that ended", (test) => {
  test("the response's limit finish judges it: a free-text input cut short is truncated-input", async () => {
    assertEquals(await read([...cut, incomplete]), [
      ["invalid", "echo hi", "truncated-input"],
      ["finish", "length"],
    ]);
  });

  test("a body that ends after it without a finish discards it", async () => {
    assertEquals(await read(cut), [["abort", ["echo hi"]]]);
  });
});
