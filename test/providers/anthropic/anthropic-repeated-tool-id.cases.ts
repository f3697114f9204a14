// A `tool_use` id is unique in a message (Anthropic's `ToolUseBlock.id`, @anthropic-ai/sdk; a
// `tool_result` answers a call by it, so two calls of one id cannot both be answered). A second
// `content_block_start` whose block has an id the message already gave (a block an intermediary
// replayed, or a retry it spliced in without a new `message_start`) is not a second call: the body
// fails as a spliced one does (test/providers/anthropic/anthropic-spliced-message.cases.ts), with an
// in-band `provider-error` whose `data` is the repeated block's event, and an `abort`. What came
// before is kept: the text, and the first call if its block had stopped; a call still open is listed
// as discarded. Before, both calls were delivered with one id and the turn finished `tool-calls`.
// Built by hand in the SDK's event shapes.
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";
import { anthropicSse } from "./turn-blocks-recordings.ts";

async function read(payloads: Record<string, unknown>[]): Promise<unknown[]> {
  const events: ToolCallEvent[] = await collect(
    streamToolCalls(fromChunks([bytes(anthropicSse(...payloads))]), { provider: "anthropic" }),
  );
  assertEventInvariants(events);
  return events.flatMap((event) => {
    if (event.type === "text-delta") return [["text", event.text]];
    if (event.type === "tool-call") return [["call", event.id, event.arguments]];
    if (event.type === "error") return [["error", event.error.code, event.error.message]];
    if (event.type === "abort") return [["abort", event.reason, event.discarded.map((call) => call.id)]];
    if (event.type === "finish") return [["finish", event.toolCalls.length]];
    return [];
  });
}

const begin = {
  type: "message_start",
  message: { id: "msg_1", content: [], usage: { input_tokens: 3, output_tokens: 1 } },
};
const text = [
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Checking both." } },
  { type: "content_block_stop", index: 0 },
];
const tool = (index: number, name: string) => ({
  type: "content_block_start",
  index,
  content_block: { type: "tool_use", id: "toolu_1", name, input: {} },
});
const input = (index: number, json: string) => ({
  type: "content_block_delta",
  index,
  delta: { type: "input_json_delta", partial_json: json },
});
const stop = (index: number) => ({ type: "content_block_stop", index });
const end = [
  { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } },
  { type: "message_stop" },
];
const failed = ["error", "provider-error", "A tool call's id came twice in one message."];

group("Anthropic: a tool_use id given twice in one message", (test) => {
  test("after the first call stopped: it and the text are kept, the second is no call, the body fails", async () => {
    const body = [begin, ...text, tool(1, "weather"), input(1, '{"city":"Oslo"}'), stop(1)];
    assertEquals(await read([...body, tool(2, "time"), input(2, "{}"), stop(2), ...end]), [
      ["text", "Checking both."],
      ["call", "toolu_1", { city: "Oslo" }],
      failed,
      ["abort", "provider-error", []],
    ]);
  });

  test("while the first call is open: it is discarded, never completed", async () => {
    const body = [begin, ...text, tool(1, "weather"), input(1, '{"city":'), tool(2, "time"), stop(2), ...end];
    assertEquals(await read(body), [["text", "Checking both."], failed, ["abort", "provider-error", ["toolu_1"]]]);
  });

  test("in a message_start's content (a programmatic tool calling continuation) alike", async () => {
    const block = (name: string) => ({ type: "tool_use", id: "toolu_1", name, input: { n: 1 } });
    const message = { ...begin.message, content: [block("weather"), block("time")], stop_reason: "tool_use" };
    assertEquals(await read([{ type: "message_start", message }, { type: "message_stop" }]), [
      ["call", "toolu_1", { n: 1 }],
      failed,
      ["abort", "provider-error", []],
    ]);
  });
});
