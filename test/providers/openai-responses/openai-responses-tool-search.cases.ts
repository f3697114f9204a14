// OpenAI Responses tool search: a `tool_search` tool with `execution: "client"` is the
// application's to run (its `tool_search_call` is answered with a `tool_search_output` listing the
// tools it loaded); one OpenAI runs (`execution: "server"`) comes with its own output.
//
// Provenance: the streams are BUILT BY HAND, in this project's own ids and data, from the
// documented shapes: the `tool_search_call` item (`call_id`, `execution`, `arguments` an object,
// `status`) and the `tool_search_output` input item (`call_id`, `execution`, `tools`) of OpenAI's
// API reference and its generated clients (docs.rs openai-client-base 0.16.0
// ToolSearchOutputItemParam, RequiredToolSearchOutput: "Supply `tools` using the tool search output
// input schema, retaining `execution: "client"`"). The shapes, and the added item's `call_id`
// differing from the done item's, were revealed by vercel/ai's recordings
// packages/openai/src/responses/__fixtures__/openai-client-tool-search.1.chunks.txt (commit
// 26012d11da8ec74ba7b22abe1fe973f85e4fa60f, gpt-5.4) and openai-tool-search.1.chunks.txt (commit
// 5e08d78d197888c709d4d8672b20230b3b94ebe1): the library reported the client tool search as a
// turn that finished `stop` with no call, so the model's search was never answered; and the call of
// a tool it loaded went back without its `namespace`, which OpenAI refuses.
import fc from "fast-check";
import type { ResponseInputItem, ResponseToolSearchOutputItemParam } from "openai/resources/responses/responses";
import {
  assistantMessage,
  providerKit,
  streamToolCalls,
  toolResultMessages,
  type FinishEvent,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { readResponsesEvents } from "../../support/agent-protocol-readers.ts";
import { ENCODERS, encodeAll } from "../../support/encoders.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { responsesSse } from "./built-in-calls-recordings.ts";

const response = (status: string) => ({ id: "resp_ts", object: "response", status, output: [] });
const search = (callId: string, status: string, args: Record<string, unknown>, execution = "client") => ({
  id: "tsc_81",
  type: "tool_search_call",
  status,
  arguments: args,
  call_id: callId,
  execution,
});
const GOAL = { goal: "a tool that converts currencies" };

/** A client tool search: its added item has an empty input and a call id the done item replaces. */
const clientStream = responsesSse([
  { type: "response.created", response: response("in_progress") },
  { type: "response.output_item.added", output_index: 0, item: search("call_early", "in_progress", {}) },
  { type: "response.output_item.done", output_index: 0, item: search("call_final", "completed", GOAL) },
  { type: "response.completed", response: response("completed") },
]);

const rates = {
  type: "function",
  name: "rates",
  defer_loading: true,
  parameters: { type: "object", properties: { from: { type: "string" } } },
};

/** OpenAI searches (no call id), lists what it loaded, and the model calls a loaded tool. */
const serverStream = responsesSse([
  { type: "response.created", response: response("in_progress") },
  {
    type: "response.output_item.added",
    output_index: 0,
    item: { ...search("", "in_progress", {}, "server"), call_id: null },
  },
  {
    type: "response.output_item.done",
    output_index: 0,
    item: { ...search("", "completed", { paths: ["rates"] }, "server"), call_id: null },
  },
  {
    type: "response.output_item.done",
    output_index: 1,
    item: {
      id: "tso_82",
      type: "tool_search_output",
      status: "completed",
      call_id: null,
      execution: "server",
      tools: [rates],
    },
  },
  {
    type: "response.output_item.added",
    output_index: 2,
    item: {
      id: "fc_83",
      type: "function_call",
      status: "in_progress",
      arguments: "",
      call_id: "call_r",
      name: "rates",
      namespace: "rates",
    },
  },
  { type: "response.function_call_arguments.done", item_id: "fc_83", output_index: 2, arguments: '{"from":"EUR"}' },
  { type: "response.completed", response: response("completed") },
]);

const run = (chunks: Uint8Array[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "openai-responses" }));

async function finishOf(body: string): Promise<FinishEvent> {
  const events = await run([bytes(body)]);
  const finish = assertFinished(events, false);
  return finish;
}

group("OpenAIResponsesDeltaStream tool search", (test) => {
  test("a client tool search is a call named tool_search the app runs, with the done item's call id and arguments", async () => {
    const finish = await finishOf(clientStream);
    assertEquals(finish.reason, "tool-calls");
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.name, c.arguments, c.providerExecuted]),
      [["call_final", "tool_search", GOAL, undefined]],
    );
  });

  test("its next turn: the tool_search_call item, and a tool_search_output with the tools the app loaded", async () => {
    const finish = await finishOf(clientStream);
    assertEquals(assistantMessage("openai-responses", finish), [
      { type: "tool_search_call", call_id: "call_final", execution: "client", arguments: GOAL, status: "completed" },
    ]);
    const call = finish.toolCalls[0]!;
    const output = { type: "tool_search_output", call_id: "call_final", execution: "client", tools: [rates] };
    assertEquals(toolResultMessages("openai-responses", [{ call, output: [rates] }]), [output]);
    assertEquals(toolResultMessages("openai-responses", [{ call, output: { tools: [rates] } }]), [output]);
  });

  test("a server tool search is OpenAI's: a providerExecuted call the app does not run; the loaded tool's call is the app's", async () => {
    const finish = await finishOf(serverStream);
    assertEquals(finish.reason, "tool-calls");
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.name, c.arguments, c.providerExecuted]),
      [
        ["tsc_81", "tool_search", { paths: ["rates"] }, true],
        ["call_r", "rates", { from: "EUR" }, undefined],
      ],
    );
    // The loaded tool's call goes back with its namespace: without it OpenAI answers 400 "Missing
    // namespace for function_call ... Round-trip the model's function_call item with its namespace
    // field included" (vercel/ai's recorded error, openai-missing-function-call-namespace-error.1.json,
    // commit f41714791a2780d6e7667bf98ac54a223e5381d5).
    const item = {
      type: "function_call",
      call_id: "call_r",
      name: "rates",
      arguments: '{"from":"EUR"}',
      namespace: "rates",
    };
    // The search OpenAI ran goes back with its output, in place, before the call of the tool it
    // loaded (as openai 6 types them): before, both were left out, and the loaded tool's call went
    // back without the search that loaded it.
    const search: ResponseInputItem[] = [
      {
        type: "tool_search_call",
        id: "tsc_81",
        call_id: null,
        execution: "server",
        arguments: { paths: ["rates"] },
        status: "completed",
      },
      {
        id: "tso_82",
        type: "tool_search_output",
        status: "completed",
        call_id: null,
        execution: "server",
        tools: [rates as ResponseToolSearchOutputItemParam["tools"][number]],
      },
    ];
    assertEquals(assistantMessage("openai-responses", finish), [...search, item]);
    const loaded = finish.toolCalls[1]!;
    assertEquals(loaded.providerMetadata, { responsesItem: { type: "function_call", namespace: "rates" } });
    const body = providerKit("openai-responses").requestBody({
      model: "m",
      messages: [
        { role: "user", content: "EUR rates?" },
        { role: "assistant", content: "", toolCalls: [loaded] },
      ],
      tools: [],
    });
    assertEquals((body["input"] as unknown[])[1], item);
    // The request kit sends the turn as assistantMessage does, with the kept output.
    const whole = providerKit("openai-responses").requestBody({
      model: "m",
      messages: [
        { role: "user", content: "EUR rates?" },
        { role: "assistant", content: "", toolCalls: finish.toolCalls, reasoningParts: finish.reasoningParts },
      ],
      tools: [],
    });
    assertEquals((whole["input"] as unknown[]).slice(1), [...search, item]);
  });

  test("Responses to Responses: the encoder writes the loaded tool's function_call with its namespace", async () => {
    const reading = readResponsesEvents(encodeAll(ENCODERS.responses(), await run([bytes(serverStream)])));
    const calls = (items: unknown) =>
      (items as Record<string, unknown>[])
        .filter((item) => item["type"] === "function_call")
        .map(({ call_id, name, namespace }) => ({ call_id, name, namespace }));
    const loaded = [{ call_id: "call_r", name: "rates", namespace: "rates" }];
    // As the events built it, and in the completed response a client sends back as its next input.
    assertEquals([calls(reading.items), calls(reading.response["output"])], [loaded, loaded]);
  });

  test("a server search with no output in the turn is left out (OpenAI pairs the two)", async () => {
    const finish = await finishOf(
      serverStream.replace(/event: response\.output_item\.done\ndata: [^\n]*tso_82[^\n]*\n\n/, ""),
    );
    assertEquals(finish.reasoningParts, undefined);
    assertEquals(
      (assistantMessage("openai-responses", finish) as { type: string }[]).map((i) => i.type),
      ["function_call"],
    );
  });

  for (const [name, body] of [
    ["client", clientStream],
    ["server", serverStream],
  ] as const)
    test(`${name} tool search: any split of the bytes gives the same events`, async () => {
      const data = bytes(body);
      const whole = await run([data]);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 40 }), async (cuts) => {
          assertEquals(await run(splitAt(data, cuts)), whole);
        }),
        { seed: 34, numRuns: 12 },
      );
    });
});
