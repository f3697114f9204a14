// OpenAI Responses items a client sends back on its next turn (issue 34), as the library's request
// kit and the Responses encoder carry them: a server tool search's `tool_search_call` kept as a
// block (how the Worker carries a Responses client's item, which names no call to run) goes back
// with its `tool_search_output` before the turn's calls; a `function_call`'s `caller` reaches a
// Responses client on the item the encoder writes, so that it comes back with the call.
//
// Provenance: BUILT BY HAND from the `openai` SDK 6.49's types (ResponseInputItem.ToolSearchCall:
// `arguments`, `call_id` null for a server search, `execution: "server"`;
// ResponseToolSearchOutputItemParam: `tools`; ResponseFunctionToolCall.caller:
// `{ type: "program", caller_id }`), which the expectations are typed against. The ids, tools and
// arguments are made up.
//
// The computer tool's turn and a `compaction` item are BUILT FROM THE DOCUMENTED SHAPE of the same
// SDK (ResponseComputerToolCall: `call_id`, `pending_safety_checks`, `action` of
// `computer_use_preview` or the batched `actions` of the GA `computer` tool, a call the client runs;
// ResponseInputItem.ComputerCallOutput: `output` a `computer_screenshot`, `acknowledged_safety_checks`;
// ResponseCompactionItem `{ id, encrypted_content }`, an output item and an input item).
import type { ResponseInputItem } from "openai/resources/responses/responses";
import fc from "fast-check";
import {
  assistantMessage,
  providerKit,
  streamToolCalls,
  ToolCallStreamError,
  toolResultMessages,
  type EncodableEvent,
} from "../../../src/index.ts";
import { readResponsesEvents } from "../../support/agent-protocol-readers.ts";
import { ENCODERS, encodeAll } from "../../support/encoders.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { responsesSse } from "./built-in-calls-recordings.ts";

const SEARCH: ResponseInputItem = {
  type: "tool_search_call",
  id: "tsc_41",
  call_id: null,
  execution: "server",
  arguments: { query: "currency rates" },
  status: "completed",
};
const FOUND: ResponseInputItem = {
  type: "tool_search_output",
  id: "tso_41",
  call_id: null,
  execution: "server",
  status: "completed",
  tools: [{ type: "function", name: "rates", parameters: { type: "object" }, strict: false }],
};
const CALLER = { type: "program" as const, caller_id: "call_prog" };

const CHECK = { id: "cu_sc_1", code: "malicious_instructions", message: "Check the page before you go on." };
const CLICK = { type: "click", button: "left", x: 412, y: 96 } as const;
const COMPACTION = { type: "compaction", id: "cmp_7", encrypted_content: "gAAAAB-compacted" } as const;
/** A computer call of the GA tool (batched `actions`) or of the preview (one `action`), after a compaction item. */
const computerStream = (input: { actions: unknown[] } | { action: unknown }): string => {
  const call = (status: string) => ({
    type: "computer_call",
    id: "cu_1",
    call_id: "call_cu_1",
    ...input,
    pending_safety_checks: [CHECK],
    status,
  });
  return responsesSse([
    { type: "response.created", response: { id: "r_cu", object: "response", status: "in_progress", output: [] } },
    { type: "response.output_item.added", output_index: 0, item: COMPACTION },
    { type: "response.output_item.done", output_index: 0, item: COMPACTION },
    { type: "response.output_item.added", output_index: 1, item: call("in_progress") },
    { type: "response.output_item.done", output_index: 1, item: call("completed") },
    {
      type: "response.completed",
      response: { id: "r_cu", object: "response", status: "completed", output: [COMPACTION, call("completed")] },
    },
  ]);
};
const computerFinish = async (body: string, cuts: number[] = []) =>
  assertFinished(
    await collect(streamToolCalls(fromChunks(splitAt(bytes(body), cuts)), { provider: "openai-responses" })),
  );

group("OpenAI Responses: the items a client sends back, through the request kit and the encoder", (test) => {
  test("a server search kept as blocks goes back as its call and output, before the turn's call", () => {
    const body = providerKit("openai-responses").requestBody({
      model: "gpt-5.6",
      messages: [
        { role: "user", content: "EUR to JPY?" },
        {
          role: "assistant",
          content: "",
          reasoningParts: [
            { type: "block", block: SEARCH as never },
            { type: "block", block: FOUND as never },
          ],
          toolCalls: [{ id: "call_r", name: "rates", arguments: { from: "EUR", to: "JPY" } }],
        },
        { role: "tool", toolCallId: "call_r", content: "162.4" },
      ],
      tools: [],
    });
    const expected: ResponseInputItem[] = [
      { role: "user", content: "EUR to JPY?" },
      SEARCH,
      FOUND,
      { type: "function_call", call_id: "call_r", name: "rates", arguments: '{"from":"EUR","to":"JPY"}' },
      { type: "function_call_output", call_id: "call_r", output: "162.4" },
    ];
    assertEquals(body["input"], expected);
  });

  test("a search's output with no kept call stays where it was, after its call (the stream's own shape)", () => {
    const body = providerKit("openai-responses").requestBody({
      model: "gpt-5.6",
      messages: [
        { role: "user", content: "Hi" },
        {
          role: "assistant",
          content: "Hello.",
          reasoningParts: [{ type: "block", block: FOUND as never }],
          toolCalls: [],
        },
      ],
      tools: [],
    });
    // A server search's output streams after its providerExecuted call, which a request has not:
    // alone it has no place, as before.
    assertEquals(
      (body["input"] as { type?: string }[]).map((item) => item.type ?? "message"),
      ["message", "message"],
    );
  });

  test("the encoder writes a function_call's caller, as the strict reader and openai 6's type take it", async () => {
    const item = (args: string, status: string) => ({
      id: "fc_1",
      type: "function_call",
      status,
      call_id: "call_a",
      name: "stock",
      arguments: args,
      caller: CALLER,
    });
    const sse = responsesSse([
      { type: "response.created", response: { id: "r", object: "response", status: "in_progress", output: [] } },
      { type: "response.output_item.added", output_index: 0, item: item("", "in_progress") },
      { type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 0, arguments: '{"item":"bolt"}' },
      { type: "response.output_item.done", output_index: 0, item: item('{"item":"bolt"}', "completed") },
      { type: "response.completed", response: { id: "r", object: "response", status: "completed", output: [] } },
    ]);
    const events: EncodableEvent[] = await collect(
      streamToolCalls(fromChunks([bytes(sse)]), { provider: "openai-responses" }),
    );
    const reading = readResponsesEvents(encodeAll(ENCODERS.responses(), events));
    const call = reading.items.find((one) => one.type === "function_call") as Record<string, unknown> | undefined;
    const typed: Extract<ResponseInputItem, { type: "function_call" }>["caller"] = CALLER;
    assertEquals(call?.["caller"], typed);
  });

  test("a computer_call is a call named computer the client runs (GA actions or preview action), at any split", async () => {
    for (const input of [{ actions: [CLICK, { type: "type", text: "héllo" }] }, { action: CLICK }]) {
      const data = bytes(computerStream(input));
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 5 }),
          async (cuts) => {
            const finish = await computerFinish(computerStream(input), cuts);
            assertEquals(finish.reason, "tool-calls");
            assertEquals(
              finish.toolCalls.map((call) => [call.id, call.name, call.arguments, call.providerExecuted]),
              [["call_cu_1", "computer", input, undefined]],
            );
          },
        ),
        { numRuns: 15 },
      );
    }
  });

  test("the next turn: the compaction item and the computer_call go back as they came, the screenshot as computer_call_output", async () => {
    const finish = await computerFinish(computerStream({ actions: [CLICK] }));
    const items: ResponseInputItem[] = [
      COMPACTION,
      {
        type: "computer_call",
        id: "cu_1",
        call_id: "call_cu_1",
        actions: [CLICK],
        pending_safety_checks: [CHECK],
        status: "completed",
      },
    ];
    assertEquals(assistantMessage("openai-responses", finish), items);
    const call = finish.toolCalls[0]!;
    const outputs: ResponseInputItem[] = [
      {
        type: "computer_call_output",
        call_id: "call_cu_1",
        output: { type: "computer_screenshot", image_url: "data:image/png;base64,iVBO" },
      },
      {
        type: "computer_call_output",
        call_id: "call_cu_1",
        output: { type: "computer_screenshot", file_id: "file_shot" },
        acknowledged_safety_checks: [CHECK],
      },
    ];
    assertEquals(
      toolResultMessages("openai-responses", [
        { call, output: "data:image/png;base64,iVBO" },
        { call, output: { file_id: "file_shot", acknowledged_safety_checks: [CHECK] } },
      ]),
      outputs,
    );
  });

  test("a computer call's result that is no screenshot is an invalid-request naming it, never an image_url", async () => {
    const finish = await computerFinish(computerStream({ actions: [CLICK] }));
    const call = finish.toolCalls[0]!;
    // The checks the user confirmed, given as the result's own field, go back as the SDK types them.
    const acknowledged: ResponseInputItem[] = [
      {
        type: "computer_call_output",
        call_id: "call_cu_1",
        output: { type: "computer_screenshot", image_url: "https://example.com/shot.png" },
        acknowledged_safety_checks: [CHECK],
      },
    ];
    assertEquals(
      toolResultMessages("openai-responses", [
        { call, output: { image_url: "https://example.com/shot.png" }, acknowledgedSafetyChecks: [CHECK] },
      ]),
      acknowledged,
    );
    const refused = (run: () => unknown): ToolCallStreamError | undefined => {
      try {
        run();
      } catch (error) {
        if (error instanceof ToolCallStreamError) return error;
        throw error;
      }
      return undefined;
    };
    for (const [output, isError] of [
      ["The browser closed.", true],
      ["Clicked the button.", false],
      [{ image_url: "file:///tmp/shot.png" }, false],
      [{ image_url: "data:image/png;base64,iVBO" }, true],
      [{}, false],
    ] as const) {
      const error = refused(() =>
        toolResultMessages("openai-responses", [
          { call, output: "data:image/png;base64,iVBO" },
          { call, output, isError },
        ]),
      );
      assertEquals([error?.code, error?.info.path], ["invalid-request", "results[1].output"], JSON.stringify(output));
      assert(!/browser|Clicked|file:|iVBO/.test(error?.message ?? ""), "the message never holds the output");
    }
    // The request kit's tool message of an error, as the Worker would carry one.
    const error = refused(() =>
      providerKit("openai-responses").requestBody({
        model: "gpt-5.6",
        messages: [
          { role: "user", content: "Open the settings." },
          { role: "assistant", content: "", toolCalls: [call] },
          { role: "tool", toolCallId: "call_cu_1", content: "The browser closed.", isError: true },
        ],
        tools: [],
      }),
    );
    assertEquals([error?.code, error?.info.path], ["invalid-request", "messages[2].content"]);
  });

  test("the request kit sends a computer call's result given as an image part as its screenshot", async () => {
    const { toolCalls } = await computerFinish(computerStream({ actions: [CLICK] }));
    for (const [source, image_url] of [
      [{ type: "base64", data: "iVBO" }, "data:image/png;base64,iVBO"],
      [{ type: "url", url: "https://shots.example/1.png" }, "https://shots.example/1.png"],
    ] as const) {
      const input = providerKit("openai-responses").requestBody({
        model: "gpt-5.6",
        messages: [
          { role: "user", content: "Open the settings." },
          { role: "assistant", content: "", toolCalls },
          {
            role: "tool",
            toolCallId: "call_cu_1",
            content: "",
            parts: [{ type: "file", mediaType: "image/png", source }],
          },
        ],
        tools: [],
      })["input"] as unknown[];
      const output: ResponseInputItem = {
        type: "computer_call_output",
        call_id: "call_cu_1",
        output: { type: "computer_screenshot", image_url },
      };
      assertEquals(input[2], output);
    }
  });
});
