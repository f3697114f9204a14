// Chat Completions custom tools: a call of a tool declared `{ type: "custom" }` streams as
// `tool_calls[].type: "custom"` with `custom: { name, input }`, its free-text input in `input`
// fragments (the SDK's ChatCompletionChunk delta and ChatCompletionMessageCustomToolCall types), and
// goes back on the next turn as `{ type: "custom", custom: { name, input } }`.
//
// Provenance: BUILT BY HAND, in this project's own tools, ids and values, from the shape of
// openai/openai-node's tests/lib/ChatCompletionStream.test.ts `customToolChunks()` (a custom call
// then a function call, gpt-5.5), whose ChatCompletionStream gives both calls. The library made
// the custom call an invalid call without a name: its input and name were never read.
import fc from "fast-check";
import type { ChatCompletionTool } from "openai/resources/chat/completions";
import {
  assistantMessage,
  providerKit,
  streamToolCalls,
  toolResultMessages,
  type FinishEvent,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { jsonSchema } from "../../../src/schema.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE, splitAt } from "../../support/streams.ts";

const SCRIPT = "awk -F, '{ s += $3 } END { print s }' \"tides 2026.csv\"\n";

const BODY = openAISSE([
  chatChunk({
    role: "assistant",
    tool_calls: [{ index: 0, id: "call_shell_7", type: "custom", custom: { name: "run_shell", input: "" } }],
  }),
  chatChunk({ tool_calls: [{ index: 0, custom: { input: SCRIPT.slice(0, 21) } }] }),
  chatChunk({ tool_calls: [{ index: 0, custom: { input: SCRIPT.slice(21) } }] }),
  chatChunk({
    tool_calls: [{ index: 1, id: "call_tide_8", type: "function", function: { name: "tide_table", arguments: "" } }],
  }),
  chatChunk({ tool_calls: [{ index: 1, function: { arguments: '{"harbour":' } }] }),
  chatChunk({ tool_calls: [{ index: 1, function: { arguments: '"Roscoff"}' } }] }),
  chatChunk({}, "tool_calls"),
]);

const run = (chunks: Uint8Array[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "openai" }));

async function finishOf(): Promise<FinishEvent> {
  const events = await run([bytes(BODY)]);
  const finish = assertFinished(events);
  return finish;
}

group("OpenAI Chat: custom tool calls", (test) => {
  test("a custom call's input is its free text, beside a function call's parsed arguments", async () => {
    const finish = await finishOf();
    assertEquals(finish.reason, "tool-calls");
    assertEquals(
      finish.toolCalls.map((call) => [call.id, call.name, call.inputFormat, call.arguments]),
      [
        ["call_shell_7", "run_shell", "text", SCRIPT],
        ["call_tide_8", "tide_table", undefined, { harbour: "Roscoff" }],
      ],
    );
    assertEquals(finish.invalidToolCalls, []);
  });

  test("its next turn: the custom call as { type: custom, custom: { name, input } }, each result a tool message", async () => {
    const finish = await finishOf();
    assertEquals(assistantMessage("openai", finish), {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_shell_7", type: "custom", custom: { name: "run_shell", input: SCRIPT } },
        { id: "call_tide_8", type: "function", function: { name: "tide_table", arguments: '{"harbour":"Roscoff"}' } },
      ],
    });
    const results = finish.toolCalls.map((call, i) => ({ call, output: `result ${i}` }));
    assertEquals(toolResultMessages("openai", results), [
      { role: "tool", tool_call_id: "call_shell_7", content: "result 0" },
      { role: "tool", tool_call_id: "call_tide_8", content: "result 1" },
    ]);
  });

  test("the request builder sends finish.toolCalls' custom call back with its text as the input, not a JSON literal of it", async () => {
    const finish = await finishOf();
    const body = providerKit("openai").requestBody({
      model: "gpt-5",
      messages: [
        { role: "user", content: "Sum the tides." },
        { role: "assistant", content: "", toolCalls: finish.toolCalls },
      ],
      tools: [],
    }) as { messages: { tool_calls?: unknown[] }[] };
    assertEquals(body.messages[1]!.tool_calls, [
      { id: "call_shell_7", type: "custom", custom: { name: "run_shell", input: SCRIPT } },
      { id: "call_tide_8", type: "function", function: { name: "tide_table", arguments: '{"harbour":"Roscoff"}' } },
    ]);
  });

  test("an empty input is the empty text, sent back as it came", async () => {
    const events = await run([
      bytes(
        openAISSE([
          chatChunk({
            tool_calls: [{ index: 0, id: "call_e", type: "custom", custom: { name: "run_shell", input: "" } }],
          }),
          chatChunk({}, "tool_calls"),
        ]),
      ),
    ]);
    const finish = events.at(-1) as FinishEvent;
    assertEquals(
      finish.toolCalls.map((call) => [call.name, call.arguments]),
      [["run_shell", ""]],
    );
    const message = assistantMessage("openai", finish) as { tool_calls: unknown[] };
    assertEquals(message.tool_calls, [{ id: "call_e", type: "custom", custom: { name: "run_shell", input: "" } }]);
  });

  test("with the request's tools (as openai-node types them), a custom call is accepted by its custom.name, free text unchecked", async () => {
    const tools: ChatCompletionTool[] = [
      { type: "custom", custom: { name: "run_shell", description: "Runs a shell line", format: { type: "text" } } },
      {
        type: "function",
        function: { name: "tide_table", parameters: { type: "object", required: ["harbour"] } },
      },
    ];
    for (const plugins of [{}, { jsonSchema }]) {
      const events = await collect(
        streamToolCalls(fromChunks([bytes(BODY)]), { provider: "openai", tools, ...plugins }),
      );
      const finish = assertFinished(events);
      assertEquals(
        finish.toolCalls.map((call) => [call.name, call.arguments]),
        [
          ["run_shell", SCRIPT],
          ["tide_table", { harbour: "Roscoff" }],
        ],
      );
      assertEquals(finish.invalidToolCalls, []);
      // A custom call of a tool the request did not declare is rejected by name, as a function call is.
      const undeclared = await collect(
        streamToolCalls(fromChunks([bytes(BODY)]), { provider: "openai", tools: tools.slice(1), ...plugins }),
      );
      assertEquals(
        assertFinished(undeclared).invalidToolCalls.map((call) => [call.name, call.error.message]),
        [["run_shell", "run_shell is not one of the request's tools"]],
      );
    }
  });

  test("any split of the bytes gives the same events", async () => {
    const data = bytes(BODY);
    const whole = await run([data]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 40 }), async (cuts) => {
        assertEquals(await run(splitAt(data, cuts)), whole);
      }),
      { seed: 34, numRuns: 12 },
    );
  });
});
