// A tool call's input fragment for a block that is not open (its `content_block_start` /
// `contentBlockStart` after it, or none at all) is passed on, never dropped: the start that comes
// later names the call and its arguments are whole; without a start it is a call of no name, an
// `invalid-tool-call` of code `missing-name`, never a finish with the input gone. Anthropic's SSE
// and Bedrock ConverseStream, built by hand from their documented event shapes.
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { concat, eventMessage } from "../../support/event-stream.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";
import { anthropicSse } from "./turn-blocks-recordings.ts";

/** The calls and what became of them. */
function outline(events: ToolCallEvent[]): unknown[] {
  return events.flatMap((event) => {
    if (event.type === "tool-call") return [["call", event.id, event.arguments]];
    if (event.type === "invalid-tool-call") return [["invalid", event.rawArguments, event.error.code]];
    if (event.type === "abort") return [["abort", event.reason]];
    if (event.type === "finish") return [["finish"]];
    return [];
  });
}

const read = async (body: Uint8Array, provider: "anthropic" | "bedrock"): Promise<unknown[]> =>
  outline(await collect(streamToolCalls(fromChunks([body]), { provider })));

const begin = {
  type: "message_start",
  message: { id: "msg_1", content: [], usage: { input_tokens: 1, output_tokens: 1 } },
};
const fragment = {
  type: "content_block_delta",
  index: 0,
  delta: { type: "input_json_delta", partial_json: '{"city":"Oslo"}' },
};
const start = {
  type: "content_block_start",
  index: 0,
  content_block: { type: "tool_use", id: "toolu_1", name: "f", input: {} },
};
const end = [
  { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 5 } },
  { type: "message_stop" },
];

const converseFragment = eventMessage("contentBlockDelta", {
  contentBlockIndex: 0,
  delta: { toolUse: { input: '{"city":"Oslo"}' } },
});
const converseStart = eventMessage("contentBlockStart", {
  contentBlockIndex: 0,
  start: { toolUse: { toolUseId: "toolu_1", name: "f" } },
});
const converseStop = eventMessage("contentBlockStop", { contentBlockIndex: 0 });
const converseEnd = eventMessage("messageStop", { stopReason: "tool_use" });

group("A tool input fragment before its block's start is passed on, never dropped", (test) => {
  test("Anthropic: the fragment before the start is the call's arguments", async () => {
    const body = anthropicSse(begin, fragment, start, { type: "content_block_stop", index: 0 }, ...end);
    assertEquals(await read(bytes(body), "anthropic"), [["call", "toolu_1", { city: "Oslo" }], ["finish"]]);
  });

  test("Anthropic: a fragment no block starts is a call of no name, not a finish without it", async () => {
    const body = anthropicSse(begin, fragment, ...end);
    assertEquals(await read(bytes(body), "anthropic"), [["invalid", '{"city":"Oslo"}', "missing-name"], ["finish"]]);
  });

  test("Bedrock ConverseStream: the same, before its contentBlockStart and with none", async () => {
    const started = concat([converseFragment, converseStart, converseStop, converseEnd]);
    assertEquals(await read(started, "bedrock"), [["call", "toolu_1", { city: "Oslo" }], ["finish"]]);
    const never = concat([converseFragment, converseStop, converseEnd]);
    assertEquals(await read(never, "bedrock"), [["invalid", '{"city":"Oslo"}', "missing-name"], ["finish"]]);
  });
});
