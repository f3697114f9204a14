// A `tool_use` id names one call in a message (Anthropic's `ToolUseBlock.id`, @anthropic-ai/sdk; a
// `tool_result` answers a call by it), yet Anthropic-compatible servers have given parallel calls one
// id (Kimi's `grep:3`, HKUDS/nanobot 4473). A second `content_block_start` whose block has an id the
// message already gave is a second call: it is delivered under that id with the first free suffix
// (`toolu_1_2`, its `providerId` the provider's), so each call can be answered, whichever provider
// (test/accumulate/repeated-call-id.cases.ts). Before, the body failed with a `provider-error`.
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

group("Anthropic: a tool_use id given twice in one message", (test) => {
  test("after the first call stopped: the second is a call of its own id", async () => {
    const body = [begin, ...text, tool(1, "weather"), input(1, '{"city":"Oslo"}'), stop(1)];
    assertEquals(await read([...body, tool(2, "time"), input(2, "{}"), stop(2), ...end]), [
      ["text", "Checking both."],
      ["call", "toolu_1", { city: "Oslo" }],
      ["call", "toolu_1_2", {}],
      ["finish", 2],
    ]);
  });

  test("while the first call is open: both complete, each under its own id", async () => {
    const body = [begin, ...text, tool(1, "weather"), input(1, '{"city":'), tool(2, "time"), stop(2)];
    assertEquals(await read([...body, input(1, '"Oslo"}'), stop(1), ...end]), [
      ["text", "Checking both."],
      ["call", "toolu_1_2", {}],
      ["call", "toolu_1", { city: "Oslo" }],
      ["finish", 2],
    ]);
  });

  test("in a message_start's content (a programmatic tool calling continuation) alike", async () => {
    const block = (name: string) => ({ type: "tool_use", id: "toolu_1", name, input: { n: 1 } });
    const message = { ...begin.message, content: [block("weather"), block("time")], stop_reason: "tool_use" };
    assertEquals(await read([{ type: "message_start", message }, { type: "message_stop" }]), [
      ["call", "toolu_1", { n: 1 }],
      ["call", "toolu_1_2", { n: 1 }],
      ["finish", 2],
    ]);
  });
});
