// OpenAI Responses: a call no `response.output_item.added` announced. OpenAI streams each
// `function_call` / `custom_tool_call` item as added, argument deltas, `.done`, then
// `output_item.done` (the streaming events reference), and `response.completed` repeats the
// items in its `response.output`. Compatible gateways skip steps: some send a call's item only
// at `output_item.done`, with its arguments whole ("done-only" arguments, lidge-jun/opencodex
// PR 4652; Codex's "complete function-call arguments only in final done events",
// Gitlawb/openclaude issue 1259), others only in the terminal snapshot, with no item or delta
// event before it (NVIDIA-NeMo/Switchyard PR 777, bigduu/Bamboo-agent PR 756: "assistant output
// ... delivered only inside the terminal response.completed.response.output[]"). A call is
// known by its output index, not its item id, which some servers change (below); in the snapshot,
// by its item id, else by its place there.
//
// Provenance: BUILT BY HAND in the shape those threads describe, with this project's own tools,
// ids and values. Before the fix, such calls were lost: the finish said `stop` with no call.
import fc from "fast-check";
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";

const sse = (payloads: Record<string, unknown>[]): string =>
  payloads
    .map((p, sequence_number) => `event: ${String(p["type"])}\ndata: ${JSON.stringify({ ...p, sequence_number })}\n\n`)
    .join("");

const TIDES = {
  type: "function_call",
  id: "fc_tides",
  call_id: "call_tides",
  name: "tide_table",
  arguments: '{"harbour":"Roscoff","day":"2026-12-04"}',
  status: "completed",
};
const SHELL = {
  type: "custom_tool_call",
  id: "ctc_shell",
  call_id: "call_shell",
  name: "run_shell",
  input: "cut -d, -f3 tides.csv | sort -n | tail -1",
  status: "completed",
};
const MESSAGE = {
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "Checking the tides.", annotations: [] }],
};
const CREATED = { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } };
const completed = (output: unknown[]) => ({
  type: "response.completed",
  response: { id: "resp_1", status: "completed", output },
});

async function run(chunks: Uint8Array[]): Promise<ToolCallEvent[]> {
  const events = await collect(streamToolCalls(fromChunks(chunks), { provider: "openai-responses" }));
  assertEventInvariants(events);
  return events;
}

const callsOf = async (body: string) =>
  assertFinished(await run([bytes(body)])).toolCalls.map((c) => [c.index, c.id, c.name, c.arguments, c.inputFormat]);

const EXPECTED_AT = (tides: number, shell: number) => [
  [tides, "call_tides", "tide_table", { harbour: "Roscoff", day: "2026-12-04" }, undefined],
  [shell, "call_shell", "run_shell", SHELL.input, "text"],
];

group("OpenAI Responses: calls no output_item.added announced", (test) => {
  test("a call whose item comes only done, arguments whole, is a call", async () => {
    const body = sse([
      CREATED,
      { type: "response.output_item.done", output_index: 0, item: TIDES },
      { type: "response.output_item.done", output_index: 1, item: SHELL },
      completed([TIDES, SHELL]),
    ]);
    assertEquals(await callsOf(body), EXPECTED_AT(0, 1));
  });

  test("a call only in response.completed's output is a call, at its place in the output", async () => {
    const body = sse([CREATED, completed([MESSAGE, TIDES, SHELL])]);
    const events = await run([bytes(body)]);
    assertEquals(assertFinished(events).reason, "tool-calls");
    assertEquals(await callsOf(body), EXPECTED_AT(1, 2));
  });

  // Servers that give one item other ids from event to event: vLLM's completed output gives a
  // streamed call another `call_id` (vllm-project/vllm PR 47916), mistral.rs gave an item a new id
  // at `output_item.added`, `output_item.done` and in the output (EricLBuehler/mistral.rs issue
  // 1944). Read by id alone, each would be a second call.
  const streamedTides = (doneId: string) => [
    CREATED,
    { type: "response.output_item.added", output_index: 0, item: { ...TIDES, arguments: "", status: "in_progress" } },
    { type: "response.function_call_arguments.delta", output_index: 0, item_id: "fc_tides", delta: TIDES.arguments },
    { type: "response.function_call_arguments.done", output_index: 0, item_id: "fc_tides", arguments: TIDES.arguments },
    { type: "response.output_item.done", output_index: 0, item: { ...TIDES, id: doneId } },
  ];

  test("a call that streamed is not started again by its item under another id, done or in the output", async () => {
    const renamed = { ...TIDES, id: "fc_renamed", call_id: "call_renamed" };
    const body = sse([...streamedTides("fc_done_id"), completed([renamed])]);
    assertEquals(await callsOf(body), EXPECTED_AT(0, 1).slice(0, 1));
  });

  // A call that streamed, then one seen only in the output (a gateway that streams the first call
  // and puts the rest in its terminal snapshot): each call of the output is known by its item id,
  // else by its place there, which the events' `output_index` name. Before, the snapshot started
  // calls only when none streamed: the second call was lost and the finish named one call.
  test("a call only in response.completed's output after a call that streamed is a call, at its place", async () => {
    const body = sse([...streamedTides("fc_tides"), completed([TIDES, SHELL])]);
    assertEquals(await callsOf(body), EXPECTED_AT(0, 1));
  });

  test("a streamed call renamed in the output keeps its place, and a call new there still starts", async () => {
    const renamed = { ...TIDES, id: "fc_renamed", call_id: "call_renamed" };
    const body = sse([...streamedTides("fc_done_id"), completed([renamed, MESSAGE, SHELL])]);
    assertEquals(await callsOf(body), EXPECTED_AT(0, 2));
  });

  test("a call that streamed and never came done ends with its item in the output", async () => {
    const body = sse([...streamedTides("fc_tides").slice(0, 3), completed([TIDES])]);
    assertEquals(await callsOf(body), EXPECTED_AT(0, 1).slice(0, 1));
  });

  test("any split of the bytes gives the same events", async () => {
    const data = bytes(
      sse([CREATED, { type: "response.output_item.done", output_index: 0, item: TIDES }, completed([TIDES, SHELL])]),
    );
    const whole = await run([data]);
    assertEquals(assertFinished(whole).toolCalls.length, 2);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 40 }), async (cuts) => {
        assertEquals(await run(splitAt(data, cuts)), whole);
      }),
      { seed: 2026, numRuns: 12 },
    );
  });
});
