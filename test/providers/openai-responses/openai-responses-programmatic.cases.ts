// OpenAI Responses programmatic tool calling: a `program` item (the JavaScript the model wrote,
// and an opaque `fingerprint`), then the `function_call`s the program made, each with
// `caller: { type: "program", caller_id }`, for the application to run.
//
// Provenance: the stream is BUILT BY HAND, in this project's own ids and data, from the documented
// shapes: the `program` item's fields (`id`, `call_id`, `code`, `fingerprint`: "Opaque program
// replay fingerprint that must be round-tripped", in OpenAI's API reference and its generated
// clients, e.g. openai-python's `Program` input item), and the `caller` of `ResponseFunctionToolCall`
// and of the `function_call_output` input item ("The execution context that produced this tool
// call") in the `openai` SDK 6.49's types. It was revealed by vercel/ai's recording
// packages/openai/src/responses/__fixtures__/programmatic-tool-calling.1.chunks.txt (commit
// b1593c2bedbd61c272df8abaad6cd74e66b64dab, a gpt-5.6 capture): a reasoning item, a `program`
// item whose `code` arrives at its `output_item.done`, then a `function_call` with its caller;
// the library ran the call but dropped the caller and the program item, so the next turn could
// not give them back.
import type { ResponseInputItem } from "openai/resources/responses/responses";
import {
  assistantMessage,
  providerKit,
  streamToolCalls,
  toolResultMessages,
  type FinishEvent,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { asRequestMessage, assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { assertAnySplitSame } from "../../support/splits.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";
import { responsesSse } from "./built-in-calls-recordings.ts";

const CODE =
  'const a = await tools.stock({ item: "bolt" });\nconst b = await tools.stock({ item: "nut" });\ntext(a + b);\n';
const program = { id: "pg_71", type: "program", call_id: "call_prog", code: CODE, fingerprint: "fp-opaque-2" };
const caller = { type: "program", caller_id: "call_prog" };
const call = (id: string, callId: string, args: string) => ({
  id,
  type: "function_call",
  status: "completed",
  call_id: callId,
  name: "stock",
  arguments: args,
  caller,
});

/** A reasoning item, the program (its code only at its end), and the two calls it made. */
const stream = responsesSse([
  { type: "response.created", response: { id: "resp_ptc", object: "response", status: "in_progress", output: [] } },
  { type: "response.output_item.added", output_index: 0, item: { id: "rs_71", type: "reasoning", summary: [] } },
  {
    type: "response.output_item.done",
    output_index: 0,
    item: { id: "rs_71", type: "reasoning", summary: [], encrypted_content: "enc-71" },
  },
  { type: "response.output_item.added", output_index: 1, item: { ...program, code: "", fingerprint: "fp-opaque-1" } },
  { type: "response.output_item.done", output_index: 1, item: program },
  {
    type: "response.output_item.added",
    output_index: 2,
    item: { ...call("fc_72", "call_a", ""), status: "in_progress" },
  },
  { type: "response.function_call_arguments.delta", item_id: "fc_72", output_index: 2, delta: '{"item":' },
  { type: "response.function_call_arguments.delta", item_id: "fc_72", output_index: 2, delta: '"bolt"}' },
  { type: "response.function_call_arguments.done", item_id: "fc_72", output_index: 2, arguments: '{"item":"bolt"}' },
  { type: "response.output_item.done", output_index: 2, item: call("fc_72", "call_a", '{"item":"bolt"}') },
  {
    type: "response.output_item.added",
    output_index: 3,
    item: { ...call("fc_73", "call_b", ""), status: "in_progress" },
  },
  { type: "response.function_call_arguments.done", item_id: "fc_73", output_index: 3, arguments: '{"item":"nut"}' },
  { type: "response.output_item.done", output_index: 3, item: call("fc_73", "call_b", '{"item":"nut"}') },
  {
    type: "response.completed",
    response: { id: "resp_ptc", object: "response", status: "completed", output: [], usage: null },
  },
]);

const RESULT = '{"bolt":12,"nut":40}';
const output = { id: "cmo_74", type: "program_output", status: "completed", call_id: "call_prog", result: "" };
/**
 * The response after the calls' outputs: the program's output (`program_output`, its `result`
 * whole at its `output_item.done`, as vercel/ai's programmatic-tool-calling.3 recording shows
 * it, commit d6ad96ae0e3b7fbb1a3a9245cc9156fcfb7cdb4a; openai 6's `ResponseOutputItem.ProgramOutput`),
 * then the answer.
 */
const finalStream = responsesSse([
  { type: "response.created", response: { id: "resp_ptc2", object: "response", status: "in_progress", output: [] } },
  { type: "response.output_item.added", output_index: 0, item: output },
  { type: "response.output_item.done", output_index: 0, item: { ...output, result: RESULT } },
  {
    type: "response.output_item.added",
    output_index: 1,
    item: { id: "msg_75", type: "message", status: "in_progress", role: "assistant", content: [] },
  },
  { type: "response.output_text.delta", item_id: "msg_75", output_index: 1, content_index: 0, delta: "52 in stock." },
  {
    type: "response.completed",
    response: { id: "resp_ptc2", object: "response", status: "completed", output: [], usage: null },
  },
]);

const run = (chunks: Uint8Array[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "openai-responses" }));

async function finishOf(): Promise<FinishEvent> {
  const events = await run([bytes(stream)]);
  const finish = assertFinished(events);
  return finish;
}

group("OpenAIResponsesDeltaStream programmatic tool calling", (test) => {
  test("a program's calls are the app's to run, each with its caller and the program item that made it", async () => {
    const finish = await finishOf();
    assertEquals(finish.reason, "tool-calls");
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.name, c.arguments]),
      [
        ["call_a", "stock", { item: "bolt" }],
        ["call_b", "stock", { item: "nut" }],
      ],
    );
    for (const c of finish.toolCalls)
      assertEquals(c.providerMetadata, {
        responsesItem: { type: "function_call", caller },
        responsesProgram: program,
      });
  });

  test("the next turn: the reasoning item, the program item once with its fingerprint, the calls with their caller", async () => {
    const finish = await finishOf();
    const items = [
      { type: "reasoning", id: "rs_71", summary: [], encrypted_content: "enc-71" },
      program,
      { type: "function_call", call_id: "call_a", name: "stock", arguments: '{"item":"bolt"}', caller },
      { type: "function_call", call_id: "call_b", name: "stock", arguments: '{"item":"nut"}', caller },
    ];
    assertEquals(assistantMessage("openai-responses", finish), items);
    // Each output carries the caller, so that it goes back to the program.
    assertEquals(
      toolResultMessages(
        "openai-responses",
        finish.toolCalls.map((c) => ({ call: c, output: "7" })),
      ),
      [
        { type: "function_call_output", call_id: "call_a", output: "7", caller },
        { type: "function_call_output", call_id: "call_b", output: "7", caller },
      ],
    );
    // The request kit (what a server sends, the Worker's upstream) writes the same items.
    const body = providerKit("openai-responses").requestBody({
      model: "m",
      messages: [
        { role: "user", content: "Stock?" },
        { role: "assistant", content: "", toolCalls: finish.toolCalls },
        { role: "tool", toolCallId: "call_a", content: "3" },
      ],
      tools: [],
    });
    const input = body["input"] as Record<string, unknown>[];
    assertEquals(input.slice(1), [
      program,
      { type: "function_call", call_id: "call_a", name: "stock", arguments: '{"item":"bolt"}', caller },
      { type: "function_call", call_id: "call_b", name: "stock", arguments: '{"item":"nut"}', caller },
      { type: "function_call_output", call_id: "call_a", output: "3", caller },
    ]);
  });

  test("a program that calls none of the client's tools goes back in its place with its fingerprint, at any split", async () => {
    const alone = {
      ...program,
      type: "program" as const,
      call_id: "call_solo",
      code: "text(String(6 * 7));\n",
      fingerprint: "fp-solo",
    };
    const done = { ...output, type: "program_output" as const, status: "completed" as const, call_id: "call_solo" };
    const solo = responsesSse([
      {
        type: "response.created",
        response: { id: "resp_solo", object: "response", status: "in_progress", output: [] },
      },
      { type: "response.output_item.added", output_index: 0, item: { id: "rs_81", type: "reasoning", summary: [] } },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { id: "rs_81", type: "reasoning", summary: [], encrypted_content: "enc-81" },
      },
      { type: "response.output_item.added", output_index: 1, item: { ...alone, code: "", fingerprint: "" } },
      { type: "response.output_item.done", output_index: 1, item: alone },
      { type: "response.output_item.added", output_index: 2, item: { ...output, call_id: "call_solo" } },
      { type: "response.output_item.done", output_index: 2, item: { ...output, call_id: "call_solo", result: "42" } },
      {
        type: "response.output_item.added",
        output_index: 3,
        item: { id: "msg_82", type: "message", status: "in_progress", role: "assistant", content: [] },
      },
      { type: "response.output_text.delta", item_id: "msg_82", output_index: 3, content_index: 0, delta: "42." },
      {
        type: "response.completed",
        response: { id: "resp_solo", object: "response", status: "completed", output: [], usage: null },
      },
    ]);
    const expected: ResponseInputItem[] = [
      { type: "reasoning", id: "rs_81", summary: [], encrypted_content: "enc-81" },
      alone,
      { ...done, result: "42" },
      { type: "message", role: "assistant", content: "42." },
    ];
    await assertAnySplitSame(bytes(solo), run);
    const finish = assertFinished(await run([bytes(solo)]));
    assertEquals([finish.reason, finish.toolCalls], ["stop", []]);
    assertEquals(assistantMessage("openai-responses", finish), expected);
    const body = providerKit("openai-responses").requestBody({
      model: "m",
      messages: [{ role: "user", content: "Six times seven?" }, asRequestMessage(finish)],
      tools: [],
    });
    assertEquals((body["input"] as unknown[]).slice(1), [
      expected[0],
      alone,
      expected[2],
      { role: "assistant", content: "42." },
    ]);
  });

  test("a call without a caller is unchanged: no providerMetadata", async () => {
    const plain = stream.replaceAll(`,"caller":${JSON.stringify(caller)}`, "");
    const events = await run([bytes(plain)]);
    const finish = events.at(-1);
    assert(finish?.type === "finish", "the response finishes");
    assertEquals(
      finish.toolCalls.map((c) => c.providerMetadata),
      [undefined, undefined],
    );
  });

  test("the program's output, in a later response, goes back in its place before the answer", async () => {
    const events = await run([bytes(finalStream)]);
    assertEventInvariants(events);
    const finish = events.at(-1);
    assert(finish?.type === "finish", "the response finishes");
    assertEquals([finish.reason, finish.toolCalls, finish.text], ["stop", [], "52 in stock."]);
    const expected: ResponseInputItem[] = [
      { id: "cmo_74", type: "program_output", status: "completed", call_id: "call_prog", result: RESULT },
      { type: "message", role: "assistant", content: "52 in stock." },
    ];
    assertEquals(assistantMessage("openai-responses", finish), expected);
    const body = providerKit("openai-responses").requestBody({
      model: "m",
      messages: [
        { role: "user", content: "Stock?" },
        { role: "assistant", content: finish.text, toolCalls: [], reasoningParts: finish.reasoningParts },
      ],
      tools: [],
    });
    assertEquals((body["input"] as unknown[]).slice(1), [expected[0], { role: "assistant", content: "52 in stock." }]);
  });

  for (const [name, body] of [
    ["the program's calls", stream],
    ["the program's output", finalStream],
  ] as const)
    test(`${name}: any split of the bytes gives the same events`, () => assertAnySplitSame(bytes(body), run));
});
