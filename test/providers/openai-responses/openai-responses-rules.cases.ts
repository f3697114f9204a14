import { SequenceReorderer, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { summarize } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

/** Responses SSE from payloads; `sequence_number` is the payload's own. */
const sse = (payloads: Record<string, unknown>[]): string =>
  payloads.map((p) => `event: ${String(p["type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("");

async function run(payloads: Record<string, unknown>[]): Promise<ToolCallEvent[]> {
  const events = await collect(streamToolCalls(fromChunks([bytes(sse(payloads))]), { provider: "openai-responses" }));
  assertEventInvariants(events);
  return events;
}

/** A function-call response: added, argument deltas, done, completed; numbered from 0. */
function functionCallResponse(fragments: string[], final = fragments.join("")): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [
    { type: "response.created", response: { status: "in_progress" } },
    {
      type: "response.output_item.added",
      output_index: 0,
      item: { id: "fc_1", type: "function_call", call_id: "call_1", name: "lookup", arguments: "" },
    },
    ...fragments.map((delta) => ({
      type: "response.function_call_arguments.delta",
      output_index: 0,
      item_id: "fc_1",
      delta,
    })),
    { type: "response.function_call_arguments.done", output_index: 0, item_id: "fc_1", arguments: final },
    {
      type: "response.completed",
      response: { status: "completed", usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 } },
    },
  ];
  return events.map((event, sequence_number) => ({ ...event, sequence_number }));
}

group("OpenAIResponsesDeltaStream rules", (test) => {
  test("the id is the call_id, the index the output_index, and the call completes at .done", async () => {
    const events = await run(functionCallResponse(['{"q":', '"tides"}']));
    assertEquals(summarize(events).toolCalls, [{ id: "call_1", name: "lookup", arguments: { q: "tides" } }]);
    const final = events.at(-1);
    assert(
      final?.type === "finish" && final.rawReason === "completed" && final.reason === "tool-calls",
      "completed with calls",
    );
    assertEquals(final.usage?.totalTokens, 12);
  });

  test("events out of order are put back in sequence_number order", async () => {
    const inOrder = await run(functionCallResponse(['{"q":', '"a', "b", 'c"}']));
    const shuffled = functionCallResponse(['{"q":', '"a', "b", 'c"}']);
    [shuffled[3], shuffled[5]] = [shuffled[5]!, shuffled[3]!];
    assertEquals(await run(shuffled), inOrder);
  });

  test("an exact duplicate is dropped", async () => {
    const events = functionCallResponse(['{"q":', '"x"}']);
    const withDuplicate = [...events.slice(0, 3), events[2]!, ...events.slice(3)];
    assertEquals(await run(withDuplicate), await run(events));
  });

  test("a gap that never fills is reported as an error and the stream goes on", async () => {
    const events = functionCallResponse(['{"q":', '"x"}']).filter((e) => e["sequence_number"] !== 2);
    const out = await run(events);
    const gap = out.find((e) => e.type === "error");
    assert(gap?.type === "error" && gap.error.code === "sequence-gap", "sequence-gap error");
    assert(out.at(-1)?.type === "finish", "the stream still finishes");
  });

  test("the final arguments of .done are what streamed: another value is an arguments-mismatch, never run", async () => {
    // It was a call of {q: "final"}, a value none of the deltas (what a client was shown) held.
    const events = await run(functionCallResponse(['{"q": "dra', 'ft"}'], '{"q": "final"}'));
    const invalid = events.find((event) => event.type === "invalid-tool-call");
    assert(invalid?.type === "invalid-tool-call", "invalid");
    assertEquals(
      [invalid.rawArguments, invalid.error.code, invalid.error.position],
      ['{"q": "draft"}', "arguments-mismatch", 7],
    );
    // The same value written otherwise is the streamed text's call.
    const same = await run(functionCallResponse(['{"q": ', '"draft"}'], '{"q":"draft"}'));
    assertEquals(summarize(same).toolCalls[0]?.arguments, { q: "draft" });
  });

  test("LM Studio: no argument deltas at all, .done alone gives the arguments", async () => {
    const events = await run(functionCallResponse([], '{"location":"SF"}'));
    assertEquals(summarize(events).toolCalls[0]?.arguments, { location: "SF" });
  });

  test("argument deltas without output_index are correlated by item_id", async () => {
    const events = functionCallResponse(['{"a":', "1}"]).map((e) => {
      const { output_index: _, ...rest } = e;
      return e["type"] === "response.function_call_arguments.delta" ? rest : e;
    });
    assertEquals(summarize(await run(events)).toolCalls[0]?.arguments, { a: 1 });
  });

  test("custom_tool_call free-text input is kept as a string, never reported invalid", async () => {
    const events = await run([
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { id: "ctc_1", type: "custom_tool_call", call_id: "call_9", name: "run_sql", input: "" },
      },
      { type: "response.custom_tool_call_input.delta", output_index: 0, item_id: "ctc_1", delta: "SELECT * " },
      { type: "response.custom_tool_call_input.delta", output_index: 0, item_id: "ctc_1", delta: "FROM t" },
      { type: "response.custom_tool_call_input.done", output_index: 0, item_id: "ctc_1", input: "SELECT * FROM t" },
      { type: "response.completed", response: { status: "completed" } },
    ]);
    const call = events.find((e) => e.type === "tool-call");
    assert(call?.type === "tool-call", "a tool-call, not an invalid one");
    assertEquals([call.arguments, call.inputFormat], ["SELECT * FROM t", "text"]);
  });

  test("incomplete for max_output_tokens is length; failed is error", async () => {
    const incomplete = (
      await run([
        {
          type: "response.incomplete",
          response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } },
        },
      ])
    ).at(-1);
    assert(
      incomplete?.type === "finish" && incomplete.reason === "length" && incomplete.rawReason === "max_output_tokens",
      "length",
    );
    const failed = await run([
      { type: "response.failed", response: { status: "failed", error: { code: "server_error", message: "x" } } },
    ]);
    assertEquals(
      failed.map((e) => e.type),
      ["error", "finish"],
    );
    assert(failed[1]?.type === "finish" && failed[1].reason === "error", "error");
  });
});

group("SequenceReorderer", (test) => {
  test("releases in order, drops duplicates, reports a gap when the window fills", () => {
    const released: number[] = [];
    const gaps: [number, number][] = [];
    const reorderer = new SequenceReorderer<number>(
      2,
      (n) => released.push(n),
      (from, to) => gaps.push([from, to]),
    );
    for (const n of [0, 2, 1, 1, 4, 5, 6]) reorderer.push(n, n);
    assertEquals(released, [0, 1, 2, 4, 5, 6]);
    assertEquals(gaps, [[3, 3]]);
    reorderer.push(3, 3);
    assertEquals(released.length, 6, "a number whose gap was given up is dropped");
  });

  test("the end of input releases what is held, reporting the gap", () => {
    const released: number[] = [];
    const gaps: [number, number][] = [];
    const reorderer = new SequenceReorderer<number>(
      64,
      (n) => released.push(n),
      (from, to) => gaps.push([from, to]),
    );
    for (const n of [0, 3, 4]) reorderer.push(n, n);
    reorderer.flush();
    assertEquals([released, gaps], [[0, 3, 4], [[1, 2]]]);
  });
});
