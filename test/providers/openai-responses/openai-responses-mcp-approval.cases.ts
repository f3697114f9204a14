// OpenAI Responses MCP approvals: a remote MCP tool whose `require_approval` says so is not called
// but asked about (`mcp_approval_request`); the response completes while OpenAI waits for the
// answer (`mcp_approval_response`) on the next turn. Streams built from the documented shapes
// (test/recordings/openai-responses/README.md says from what). Before, the item was ignored: the
// turn finished `stop` with nothing to answer, and a loop ended with OpenAI still waiting.
import fc from "fast-check";
import type { ResponseInputItem, ResponseOutputItem } from "openai/resources/responses/responses";
import {
  approvalResponses,
  assistantMessage,
  encodeEvents,
  OpenAIChatEncoderStream,
  OpenAIResponsesEncoder,
  readOpenAIChatCompletion,
  readOpenAIResponse,
  runToolLoop,
  SSEDecoderStream,
  streamToolCalls,
  ToolCallEventDecoderStream,
  ToolCallEventEncoder,
  UIMessageEncoder,
  type FinishEvent,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { allFixtures, type Fixture } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt, textOf } from "../../support/streams.ts";
import { replayModel } from "../../support/tool-fakes.ts";

/** A documented stream of test/recordings/openai-responses, always bundled. */
function documented(name: string): Fixture {
  const found = allFixtures.find((f) => f.provider === "openai-responses" && f.name === name);
  if (!found) throw new Error(`No documented stream openai-responses/${name}`);
  return found;
}

const run = (chunks: Uint8Array[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "openai-responses" }));

async function finishOf(fixture: Fixture): Promise<{ events: ToolCallEvent[]; finish: FinishEvent }> {
  const events = await run([fixture.body]);
  const finish = assertFinished(events);
  return { events, finish };
}

const ARGS = { url: "https://example.com/a/very/long/path?q=café", alias: "docs" };
const REQUEST_ITEM = {
  type: "mcp_approval_request",
  id: "mcpr_tcs_02",
  server_label: "links",
  name: "shorten",
  arguments: JSON.stringify(ARGS),
} as const;

/** The tool the documented stream's `mcp_list_tools` item lists. */
const SHORTEN = {
  name: "shorten",
  description: "Shorten a URL.",
  input_schema: {
    type: "object",
    properties: { url: { type: "string" }, alias: { type: "string" } },
    required: ["url"],
  },
  annotations: { read_only: false },
};

group("OpenAIResponsesDeltaStream MCP approvals", (test) => {
  test("an mcp_approval_request is an approval-request event, never a call, and the turn finishes `approval`", async () => {
    const { events, finish } = await finishOf(documented("mcp-approval-request"));
    assertEquals(
      events.filter((e) => e.type.startsWith("tool-call")),
      [],
    );
    const requests = events.filter((e) => e.type === "approval-request");
    assertEquals(
      requests.map((e) => [e.id, e.name, e.arguments, e.serverLabel]),
      [["mcpr_tcs_02", "shorten", ARGS, "links"]],
    );
    assertEquals([finish.reason, finish.rawReason, finish.toolCalls], ["approval", "completed", []]);
    assertEquals(
      finish.approvalRequests?.map((r) => [r.id, r.rawArguments]),
      [["mcpr_tcs_02", JSON.stringify(ARGS)]],
    );
    // The event comes where the item ended: after the server's tool list and the reasoning item, before the finish.
    const order = events.map((e) => e.type).filter((t) => t !== "usage");
    assertEquals(order, ["reasoning-part", "reasoning-part", "approval-request", "finish"]);
  });

  test("its next turn: the server's tool list, the request item after the reasoning, then the answer; both as the openai SDK types them", async () => {
    const { finish } = await finishOf(documented("mcp-approval-request"));
    const turn = assistantMessage("openai-responses", finish);
    const expected: ResponseInputItem[] = [
      { id: "mcpl_tcs_01", type: "mcp_list_tools", server_label: "links", tools: [SHORTEN] },
      { type: "reasoning", id: "rs_tcs_03", summary: [] },
      REQUEST_ITEM,
    ];
    assertEquals(turn, expected);
    const request = finish.approvalRequests![0]!;
    const approved: ResponseInputItem[] = [
      { type: "mcp_approval_response", approval_request_id: "mcpr_tcs_02", approve: true },
    ];
    assertEquals(approvalResponses([{ request, approve: true }]), approved);
    const denied: ResponseInputItem[] = [
      { type: "mcp_approval_response", approval_request_id: "mcpr_tcs_02", approve: false, reason: "Not today." },
    ];
    assertEquals(approvalResponses([{ request, approve: false, reason: "Not today." }]), denied);
  });

  test("arguments that are not JSON: the request keeps its text, its `arguments` null", async () => {
    const body = documented("mcp-approval-request").text.replaceAll(
      JSON.stringify(JSON.stringify(ARGS)).slice(1, -1),
      '{\\"url\\":',
    );
    const { finish } = await finishOf({ ...documented("mcp-approval-request"), body: bytes(body) });
    const request = finish.approvalRequests![0]!;
    assertEquals([request.arguments, request.rawArguments], [null, '{"url":']);
  });

  test("the approved turn: OpenAI's mcp_call is a provider-executed call with its output; the turn is a normal stop", async () => {
    const { finish } = await finishOf(documented("mcp-approval-approved"));
    assertEquals(finish.reason, "stop");
    assertEquals(finish.text, "Here is your short link: https://lnk.example/docs");
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.name, c.arguments, c.providerExecuted]),
      [["mcp_tcs_05", "shorten", ARGS, true]],
    );
    assertEquals(finish.approvalRequests, undefined);
    const items = assistantMessage("openai-responses", finish) as Record<string, unknown>[];
    // In the stream's order: the call OpenAI ran, then the text that answers from its output.
    assertEquals(
      items.map((item) => item["type"]),
      ["mcp_call", "message"],
    );
    assertEquals(items[0], {
      type: "mcp_call",
      id: "mcp_tcs_05",
      name: "shorten",
      arguments: JSON.stringify(ARGS),
      server_label: "links",
      output: '{"short_url":"https://lnk.example/docs"}',
      status: "completed",
      approval_request_id: "mcpr_tcs_02",
    } satisfies ResponseInputItem);
  });

  test("runToolLoop stops at the request: it neither runs nor answers it, and its messages end with the request", async () => {
    const model = replayModel([documented("mcp-approval-request").text]);
    let ran = 0;
    const events = await collect(
      runToolLoop({
        provider: "openai-responses",
        messages: [{ role: "user", content: "Shorten https://example.com/..." }],
        tools: { shorten: { run: () => ran++ } },
        call: model.call,
      }),
    );
    assertEquals([model.requests.length, ran], [1, 0]);
    assert(
      events.some((e) => e.type === "approval-request"),
      "the request is surfaced",
    );
    const end = events.at(-1);
    assert(end?.type === "loop-finish", "the loop ends");
    assertEquals([end.reason, end.steps], ["approval", 1]);
    assertEquals(end.messages.at(-1), REQUEST_ITEM);
  });

  test("the Worker's event codec carries the request; the UI message stream shows it as a tool awaiting approval", async () => {
    const { events } = await finishOf(documented("mcp-approval-request"));
    const sse = encodeEvents(new ToolCallEventEncoder(), events, true);
    const decoded = await collect(
      fromChunks([bytes(sse)])
        .pipeThrough(new SSEDecoderStream())
        .pipeThrough(new ToolCallEventDecoderStream()),
    );
    assertEquals(decoded, events);
    const ui = encodeEvents(new UIMessageEncoder({ generateId: () => "x" }), events, true)
      .split("\n\n")
      .filter((frame) => frame.startsWith("data: {"))
      .map((frame) => JSON.parse(frame.slice(6)) as Record<string, unknown>);
    const call = { toolCallId: "mcpr_tcs_02", toolName: "shorten", providerExecuted: true, dynamic: true };
    assertEquals(
      ui.filter((chunk) => String(chunk["toolCallId"]) === "mcpr_tcs_02"),
      [
        { type: "tool-input-start", ...call },
        { type: "tool-input-available", ...call, input: ARGS },
        { type: "tool-approval-request", approvalId: "mcpr_tcs_02", toolCallId: "mcpr_tcs_02" },
      ],
    );
    assertEquals(ui.at(-1), { type: "finish", finishReason: "tool-calls" });
  });

  test("beside a function call of the client's, the Chat encoders finish tool_calls: the client still runs its call", async () => {
    // The documented stream, with a function call after the request (a turn may hold both).
    const call = {
      type: "function_call",
      id: "fc_tcs_04",
      call_id: "call_tcs_04",
      name: "open_ticket",
      arguments: '{"title":"links"}',
      status: "completed",
    };
    const extra = [
      { type: "response.output_item.added", sequence_number: 10, output_index: 3, item: { ...call, arguments: "" } },
      { type: "response.output_item.done", sequence_number: 11, output_index: 3, item: call },
    ]
      .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
      .join("");
    const text = new TextDecoder().decode(documented("mcp-approval-request").body);
    const completed = '"type":"response.completed","sequence_number":10';
    const body = bytes(
      text
        .replace("event: response.completed", `${extra}event: response.completed`)
        .replace(completed, completed.replace("10", "12")),
    );
    const events = await run([body]);
    const finish = events.at(-1) as FinishEvent;
    assertEquals([finish.reason, finish.toolCalls.map((c) => c.id)], ["approval", ["call_tcs_04"]]);
    const result = await readOpenAIChatCompletion(fromChunks(events), { model: "m" });
    assert(result.type === "completion", "a completion");
    assertEquals(result.completion.choices[0]?.finish_reason, "tool_calls");
    const sse = textOf(await collect(fromChunks(events).pipeThrough(new OpenAIChatEncoderStream({ model: "m" }))));
    assert(sse.includes('"finish_reason":"tool_calls"'), sse);
  });

  test("the Responses encoder writes the request as its own item, in its place, under the provider's id", async () => {
    const { events } = await finishOf(documented("mcp-approval-request"));
    const sse = encodeEvents(new OpenAIResponsesEncoder({ model: "m", generateId: () => "x" }), events, true);
    const item: ResponseOutputItem = REQUEST_ITEM;
    const frames = sse
      .split("\n\n")
      .filter((frame) => frame.includes('"response.output_item.'))
      .map((frame) => JSON.parse(frame.slice(frame.indexOf("data: ") + 6)) as Record<string, unknown>);
    assertEquals(
      frames.map((f) => [f["type"], f["output_index"], (f["item"] as { type: string }).type]),
      [
        ["response.output_item.added", 0, "reasoning"],
        ["response.output_item.done", 0, "reasoning"],
        ["response.output_item.added", 1, "mcp_approval_request"],
        ["response.output_item.done", 1, "mcp_approval_request"],
      ],
    );
    assertEquals(frames[3]!["item"], item);
    const answer = await readOpenAIResponse(fromChunks(events), { model: "m", generateId: () => "x" });
    assertEquals(answer.response.output.at(-1), item);
    assertEquals(answer.response.status, "completed");
  });

  for (const name of ["mcp-approval-request", "mcp-approval-approved"])
    test(`${name}: any split of the bytes gives the same events`, async () => {
      const data = documented(name).body;
      const whole = await run([data]);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 40 }), async (cuts) => {
          assertEquals(await run(splitAt(data, cuts)), whole);
        }),
        { seed: 34, numRuns: 12 },
      );
    });
});
