// Declared tools are a contract (issue 36): when `streamToolCalls` (or the loop) has `tools`, a
// call to any other name is an `invalid-tool-call` whose message names it, for every provider,
// every shape a tool is given in, with or without early validation, one by one or in batches.
import {
  jsonSchema,
  runToolLoop,
  streamToolCallBatches,
  streamToolCalls,
  type Provider,
  type StreamToolCallsOptions,
  type ToolCallEvent,
  type ToolDefinition,
} from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { chatChunk, collect } from "../support/streams.ts";

/** One provider's SDK objects of one call to `search` with `{"q":"x"}`, then its finish. */
const CALL: Record<Provider, object[]> = {
  openai: [
    chatChunk({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "search", arguments: "" } }] }),
    chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"q":"x"}' } }] }),
    chatChunk({}, "tool_calls"),
  ] as object[],
  anthropic: [
    { type: "message_start", message: { id: "m", role: "assistant", content: [], usage: {} } },
    { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "t1", name: "search", input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"q":"x"}' } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: {} },
    { type: "message_stop" },
  ],
  gemini: [
    {
      candidates: [
        {
          index: 0,
          content: { parts: [{ functionCall: { name: "search", args: { q: "x" } } }] },
          finishReason: "STOP",
        },
      ],
    },
  ],
  "openai-responses": [
    {
      type: "response.output_item.added",
      sequence_number: 0,
      output_index: 0,
      item: {
        type: "function_call",
        id: "fc_1",
        call_id: "call_1",
        name: "search",
        arguments: "",
        status: "in_progress",
      },
    },
    {
      type: "response.function_call_arguments.delta",
      sequence_number: 1,
      output_index: 0,
      item_id: "fc_1",
      delta: '{"q":"x"}',
    },
    {
      type: "response.output_item.done",
      sequence_number: 2,
      output_index: 0,
      item: {
        type: "function_call",
        id: "fc_1",
        call_id: "call_1",
        name: "search",
        arguments: '{"q":"x"}',
        status: "completed",
      },
    },
    { type: "response.completed", sequence_number: 3, response: { status: "completed", output: [] } },
  ],
  bedrock: [
    { messageStart: { role: "assistant" } },
    { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "t1", name: "search" } } } },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"q":"x"}' } } } },
    { contentBlockStop: { contentBlockIndex: 0 } },
    { messageStop: { stopReason: "tool_use" } },
  ],
  cohere: [
    {
      type: "tool-call-start",
      index: 0,
      delta: { message: { toolCalls: { id: "c1", type: "function", function: { name: "search", arguments: "" } } } },
    },
    { type: "tool-call-delta", index: 0, delta: { message: { toolCalls: { function: { arguments: '{"q":"x"}' } } } } },
    { type: "tool-call-end", index: 0 },
    { type: "message-end", delta: { finishReason: "TOOL_CALL" } },
  ],
  ollama: [
    {
      message: {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "search", arguments: { q: "x" } } }],
      },
      done: false,
    },
    { message: { role: "assistant", content: "" }, done: true, done_reason: "stop" },
  ],
  "gemini-interactions": [
    { event_type: "step.start", index: 0, step: { type: "function_call", id: "c1", name: "search", arguments: {} } },
    { event_type: "step.delta", index: 0, delta: { type: "arguments_delta", arguments: '{"q":"x"}' } },
    { event_type: "step.stop", index: 0 },
    { event_type: "interaction.completed", interaction: { id: "v1_1", status: "requires_action" } },
  ],
};

const SCHEMA = { type: "object", properties: { order_id: { type: "string", pattern: "^ORD-[0-9]+$" } } } as const;

/** The one declared tool, `lookup_order`, in each shape `tools` takes. */
const SHAPES: Record<string, ToolDefinition> = {
  "OpenAI Chat": { type: "function", function: { name: "lookup_order", parameters: SCHEMA } },
  Responses: { type: "function", name: "lookup_order", parameters: SCHEMA },
  Anthropic: { name: "lookup_order", input_schema: SCHEMA },
  "a name alone": { name: "lookup_order" },
  "a Standard Schema validator": {
    name: "lookup_order",
    schema: { "~standard": { version: 1, vendor: "test", validate: (value: unknown) => ({ value }) } },
  },
};

const UNDECLARED = "search is not one of the request's tools";

/** The event that ended the call to `search`, after checking the stream finished. */
function callEnd(events: readonly ToolCallEvent[], label: string): ToolCallEvent | undefined {
  assertEquals(events.at(-1)?.type, "finish", `${label}: finishes`);
  return events.find((event) => event.type === "tool-call" || event.type === "invalid-tool-call");
}

group("declared tools are a contract: a call to any other name is an invalid-tool-call", (test) => {
  test("each provider: without tools the call passes; with tools, in every shape, with or without the JSON Schema plug-in and early validation, it is invalid", async () => {
    for (const [provider, objects] of Object.entries(CALL) as [Provider, object[]][]) {
      const free = callEnd(await collect(streamToolCalls(objects, { provider })), provider);
      assert(free?.type === "tool-call" && free.name === "search", `${provider}: a call without tools`);
      for (const [shape, tool] of Object.entries(SHAPES))
        for (const [plugin, earlyValidation] of [
          [undefined, false],
          [jsonSchema, false],
          [jsonSchema, true],
        ] as const) {
          const label = `${provider}, ${shape}, ${plugin ? "jsonSchema" : "names alone"}, earlyValidation ${earlyValidation}`;
          const options: StreamToolCallsOptions = { provider, tools: [tool], jsonSchema: plugin, earlyValidation };
          const events = await collect(streamToolCalls(objects, options));
          const end = callEnd(events, label);
          assert(end?.type === "invalid-tool-call", `${label}: invalid, not ${end?.type}`);
          assertEquals(end.error.code, "schema-mismatch", label);
          assertEquals(end.error.message, UNDECLARED, label);
          assertEquals(end.name, "search", label);
          const batches = await collect(streamToolCallBatches(objects, options));
          assertEquals(batches.flat(), events, `${label}: the batches agree`);
          const finish = events.at(-1);
          assert(finish?.type === "finish" && finish.toolCalls.length === 0, `${label}: no valid call in the finish`);
        }
    }
  });

  test("with partial arguments too, and a declared tool's call still passes", async () => {
    const declared = [{ name: "search" }, { name: "lookup_order" }];
    for (const [provider, objects] of Object.entries(CALL) as [Provider, object[]][]) {
      const ok = callEnd(
        await collect(streamToolCalls(objects, { provider, tools: declared, partialArguments: true })),
        provider,
      );
      assert(ok?.type === "tool-call", `${provider}: a declared call passes`);
      const bad = callEnd(
        await collect(
          streamToolCalls(objects, { provider, tools: [{ name: "lookup_order" }], partialArguments: true }),
        ),
        provider,
      );
      assert(bad?.type === "invalid-tool-call" && bad.error.message === UNDECLARED, `${provider}: undeclared`);
    }
  });

  test("runToolLoop: a call to a tool it does not have is an invalid-tool-call, with or without early validation", async () => {
    for (const earlyValidation of [false, true]) {
      const bodies = [
        `${CALL.openai.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("")}data: [DONE]\n\n`,
        `data: ${JSON.stringify(chatChunk({ content: "Done." }, "stop"))}\n\ndata: [DONE]\n\n`,
      ];
      let step = 0;
      const events = await collect(
        runToolLoop({
          provider: "openai",
          messages: [],
          tools: { lookup_order: { parameters: SCHEMA, run: () => "shipped" } },
          call: async () => new Response(bodies[step++]),
          earlyValidation,
        }),
      );
      const invalid = events.find((event) => event.type === "invalid-tool-call");
      assert(invalid?.type === "invalid-tool-call", `earlyValidation ${earlyValidation}: invalid`);
      assertEquals(invalid.error.message, UNDECLARED);
      assert(!events.some((event) => event.type === "tool-call"), "no call passes as valid");
    }
  });
});
