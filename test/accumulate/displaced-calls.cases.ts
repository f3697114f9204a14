// A call whose index another call takes (a new id with a name at an index still open: a content
// block or output item started twice, a retry spliced into the body) before its arguments closed
// was cut off: it is never closed by repair at the finish (`{"x":` is not `{"x": null}`), but
// reported as what it is, an `invalid-tool-call` of code `invalid-json`, and, when the stream then
// fails, listed as discarded. A call whose arguments were one closed value (Ollama's whole calls,
// every one at index 0) stays complete.
import { streamToolCalls, type Provider, type ToolCallEvent } from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

const sse = (payloads: Record<string, unknown>[]): string =>
  payloads.map((payload) => `data: ${JSON.stringify(payload)}\n\n`).join("");

/** Per protocol: call `a` opens at index 0 and gets `{"city":`, call `b` starts at index 0, gets `"Rome"}`, the response finishes normally. */
const bodies: [Provider, string][] = [
  [
    "anthropic",
    sse([
      { type: "message_start", message: { id: "msg_1", content: [], usage: { input_tokens: 1, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "a", name: "f", input: {} } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"city":' } },
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "b", name: "f", input: {} } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"city":"Rome"}' } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } },
      { type: "message_stop" },
    ]),
  ],
  [
    "openai",
    `${sse([
      {
        choices: [
          { index: 0, delta: { tool_calls: [{ index: 0, id: "a", function: { name: "f", arguments: '{"city":' } }] } },
        ],
      },
      {
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, id: "b", function: { name: "f", arguments: '{"city":"Rome"}' } }] },
          },
        ],
      },
      { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
    ])}data: [DONE]\n\n`,
  ],
  [
    "openai-responses",
    sse([
      {
        type: "response.output_item.added",
        sequence_number: 0,
        output_index: 0,
        item: { type: "function_call", id: "fc_a", call_id: "a", name: "f", arguments: "" },
      },
      {
        type: "response.function_call_arguments.delta",
        sequence_number: 1,
        output_index: 0,
        item_id: "fc_a",
        delta: '{"city":',
      },
      {
        type: "response.output_item.added",
        sequence_number: 2,
        output_index: 0,
        item: { type: "function_call", id: "fc_b", call_id: "b", name: "f", arguments: "" },
      },
      {
        type: "response.function_call_arguments.done",
        sequence_number: 3,
        output_index: 0,
        item_id: "fc_b",
        arguments: '{"city":"Rome"}',
      },
      { type: "response.completed", sequence_number: 4, response: { status: "completed", output: [] } },
    ]),
  ],
  [
    "cohere",
    sse([
      {
        type: "tool-call-start",
        index: 0,
        delta: {
          message: { tool_calls: { id: "a", type: "function", function: { name: "f", arguments: '{"city":' } } },
        },
      },
      {
        type: "tool-call-start",
        index: 0,
        delta: {
          message: { tool_calls: { id: "b", type: "function", function: { name: "f", arguments: '{"city":"Rome"}' } } },
        },
      },
      { type: "tool-call-end", index: 0 },
      { type: "message-end", delta: { finish_reason: "TOOL_CALL" } },
    ]),
  ],
];

/** The calls and what became of them: complete (with any repairs), invalid (with its code) or discarded. */
function outline(events: ToolCallEvent[]): unknown[] {
  return events.flatMap((event) => {
    if (event.type === "tool-call") return [["call", event.id, event.arguments, event.repairs ?? []]];
    if (event.type === "invalid-tool-call") return [["invalid", event.id, event.error.code]];
    if (event.type === "abort") return [["abort", event.discarded.map((call) => call.id)]];
    if (event.type === "finish") return [["finish", event.reason]];
    return [];
  });
}

const read = async (provider: Provider, body: string): Promise<unknown[]> =>
  outline(await collect(streamToolCalls(fromChunks([bytes(body)]), { provider })));

group("A call whose index another call takes before its arguments closed is cut, never repaired", (test) => {
  for (const [provider, body] of bodies)
    test(`${provider}: the displaced call is invalid-json at the finish, the call after it complete`, async () => {
      const events = await read(provider, body);
      assertEquals(
        events.filter((event) => (event as string[])[1] === "a"),
        [["invalid", "a", "invalid-json"]],
      );
      assertEquals(
        events.filter((event) => (event as string[])[1] === "b"),
        [["call", "b", { city: "Rome" }, []]],
      );
    });

  test("Ollama: whole calls, every one at index 0, stay complete", async () => {
    const line = (name: string, city: string) =>
      `${JSON.stringify({ message: { role: "assistant", content: "", tool_calls: [{ function: { name, arguments: { city } } }] }, done: false })}\n`;
    const done = `${JSON.stringify({ message: { role: "assistant", content: "" }, done: true, done_reason: "stop" })}\n`;
    const events = await read("ollama", line("f", "Paris") + line("f", "Rome") + done);
    assertEquals(events.filter((event) => (event as string[])[0] === "call").length, 2);
  });
});
