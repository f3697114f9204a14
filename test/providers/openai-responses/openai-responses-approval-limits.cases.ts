// OpenAI Responses' MCP approval requests are kept whole for the finish, like the calls: they are
// bounded as calls are, counted against maxToolCalls (apart from the calls) and each one's
// arguments against maxArgumentsLength, with the accumulator's errors. Before, a response could
// list any number of them, of any size. Streams BUILT BY HAND in the documented shape of
// test/recordings/openai-responses/mcp-approval-request.sse, with this project's own ids and values.
import fc from "fast-check";
import {
  OpenAIResponsesDeltaStream,
  SSEDecoderStream,
  streamToolCalls,
  ToolCallStreamError,
  type StreamToolCallsOptions,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { responsesSse } from "./built-in-calls-recordings.ts";

/** A response with a function call, then `count` approval requests, the second with `long` arguments. */
function stream(count: number, long = false): string {
  const approval = (n: number) => ({
    type: "mcp_approval_request",
    id: `mcpr_lim_${n}`,
    server_label: "links",
    name: "shorten",
    arguments: JSON.stringify({ url: n === 1 && long ? `https://example.com/${"a".repeat(100)}` : "https://x.io" }),
  });
  const call = { type: "function_call", id: "fc_lim", call_id: "call_lim", name: "lookup", arguments: '{"q":"a"}' };
  return responsesSse([
    { type: "response.created", response: { id: "resp_lim", object: "response", status: "in_progress", output: [] } },
    { type: "response.output_item.added", output_index: 0, item: { ...call, arguments: "", status: "in_progress" } },
    { type: "response.function_call_arguments.done", item_id: "fc_lim", output_index: 0, arguments: call.arguments },
    { type: "response.output_item.done", output_index: 0, item: { ...call, status: "completed" } },
    ...Array.from({ length: count }, (_, n) => ({
      type: "response.output_item.done",
      output_index: n + 1,
      item: approval(n),
    })),
    { type: "response.completed", response: { id: "resp_lim", object: "response", status: "completed", output: [] } },
  ]);
}

const run = (chunks: Uint8Array[], options: Partial<StreamToolCallsOptions> = {}): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "openai-responses", ...options }));

/** The requests delivered, then the error's code and the abort's reason (or the finish's approvals). */
function outcome(events: ToolCallEvent[]): unknown[] {
  const requests = events.filter((e) => e.type === "approval-request").map((e) => e.id);
  const last = events.at(-1);
  if (last?.type === "finish") return [requests, "finish", last.approvalRequests?.length];
  const error = events.find((e) => e.type === "error");
  return [
    requests,
    error?.type === "error" ? error.error.code : undefined,
    last?.type === "abort" ? last.reason : last?.type,
  ];
}

group("OpenAI Responses MCP approval requests are bounded as calls", (test) => {
  test("more approval requests than maxToolCalls: the ones before, then too-many-tool-calls and an abort limit-exceeded", async () => {
    const events = await run([bytes(stream(3))], { maxToolCalls: 2 });
    assertEventInvariants(events);
    assertEquals(outcome(events), [["mcpr_lim_0", "mcpr_lim_1"], "too-many-tool-calls", "limit-exceeded"]);
    // Counted apart from the calls: the function call and two requests fit a limit of 2.
    assertEquals(outcome(await run([bytes(stream(2))], { maxToolCalls: 2 })), [
      ["mcpr_lim_0", "mcpr_lim_1"],
      "finish",
      2,
    ]);
    assertEquals(outcome(await run([bytes(stream(3))])), [["mcpr_lim_0", "mcpr_lim_1", "mcpr_lim_2"], "finish", 3]);
  });

  test("a request's arguments longer than maxArgumentsLength: arguments-too-large and an abort limit-exceeded, before it is parsed", async () => {
    const events = await run([bytes(stream(3, true))], { maxArgumentsLength: 60 });
    assertEventInvariants(events);
    assertEquals(outcome(events), [["mcpr_lim_0"], "arguments-too-large", "limit-exceeded"]);
    assertFinished(await run([bytes(stream(3, true))], { maxArgumentsLength: 200 }), false);
  });

  test("any split of the bytes gives the same events at the limit", async () => {
    const data = bytes(stream(3, true));
    const whole = await run([data], { maxToolCalls: 1 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 30 }), async (cuts) => {
        assertEquals(await run(splitAt(data, cuts), { maxToolCalls: 1 }), whole);
      }),
      { seed: 34, numRuns: 10 },
    );
  });

  test("the low-level stage takes the limits itself: past one, the stream errors with the ToolCallStreamError", async () => {
    const deltas = fromChunks([bytes(stream(3))])
      .pipeThrough(new SSEDecoderStream())
      .pipeThrough(new OpenAIResponsesDeltaStream({ maxToolCalls: 2 }));
    let error: unknown;
    try {
      await collect(deltas);
    } catch (caught) {
      error = caught;
    }
    assert(error instanceof ToolCallStreamError && error.code === "too-many-tool-calls", String(error));
  });
});
