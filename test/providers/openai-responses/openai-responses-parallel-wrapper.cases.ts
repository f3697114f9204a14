// OpenAI models sometimes call a tool nobody declared, `parallel` on the Responses API
// (`multi_tool_use.parallel` on Chat Completions), whose arguments list the calls they meant:
// `{"tool_uses": [{"recipient_name": "functions.<tool>", "parameters": {...}}]}`. Given the
// request's tools, the library runs the calls it wraps, not the wrapper (an undeclared tool).
//
// Provenance: the streams are BUILT BY HAND, in this project's own tools, ids and values, from the
// shape vercel/ai recorded from gpt-5.4 in
// packages/openai/src/responses/__fixtures__/issue-19067-parallel-tool-call-wrapper.chunks.txt
// (commit 9cc5e90d213f1a17eb34d5927df6550a6942a924), whose test expects the two declared calls it
// wraps; the library reported one call of an undeclared tool `parallel`, which the Worker answered
// as an invalid call, so Codex never ran them.
import fc from "fast-check";
import {
  assistantMessage,
  jsonSchema,
  streamToolCalls,
  toolResultMessages,
  type FinishEvent,
  type ProviderDelta,
  type StreamToolCallsOptions,
  type ToolCallEvent,
  type ToolDefinition,
} from "../../../src/index.ts";
import { parallelUnwrapper } from "../../../src/core.ts";
import { streamToolCalls as responsesStreamToolCalls } from "../../../src/openai-responses.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { responsesSse } from "./built-in-calls-recordings.ts";

const TOOLS: ToolDefinition[] = [
  { name: "tide_table", parameters: { type: "object", properties: { harbour: { type: "string" } } } },
  {
    name: "ferry_times",
    parameters: { type: "object", properties: { route: { type: "string" }, day: { type: "integer" } } },
  },
];

const wrapped = (uses: readonly [string, unknown][]): string =>
  JSON.stringify({ tool_uses: uses.map(([name, parameters]) => ({ recipient_name: name, parameters })) });

const ARGS = wrapped([
  ["functions.tide_table", { harbour: "Brest" }],
  ["functions.ferry_times", { route: "Brest-Ouessant", day: 3 }],
]);

/** A `parallel` function_call streamed in three deltas, then its done events, as gpt-5.4 sent it. */
function stream(args = ARGS, name = "parallel"): string {
  const item = (status: string, text: string) => ({
    type: "function_call",
    id: "fc_tide",
    call_id: "call_tide",
    name,
    arguments: text,
    status,
  });
  const cuts = [0, 17, 60, args.length];
  return responsesSse([
    { type: "response.created", response: { id: "resp_tide", object: "response", status: "in_progress", output: [] } },
    { type: "response.output_item.added", output_index: 0, item: item("in_progress", "") },
    ...cuts.slice(1).map((end, i) => ({
      type: "response.function_call_arguments.delta",
      item_id: "fc_tide",
      output_index: 0,
      delta: args.slice(cuts[i], end),
    })),
    { type: "response.function_call_arguments.done", item_id: "fc_tide", output_index: 0, arguments: args },
    { type: "response.output_item.done", output_index: 0, item: item("completed", args) },
    { type: "response.completed", response: { id: "resp_tide", object: "response", status: "completed", output: [] } },
  ]);
}

const run = (chunks: Uint8Array[], options: Partial<StreamToolCallsOptions> = { tools: TOOLS }) =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "openai-responses", ...options }));

async function finishOf(body: string, options?: Partial<StreamToolCallsOptions>): Promise<FinishEvent> {
  const events = await run([bytes(body)], options);
  const finish = assertFinished(events, false);
  return finish;
}

const calls = (finish: FinishEvent) => finish.toolCalls.map((call) => [call.id, call.name, call.arguments]);

group("OpenAI Responses: a `parallel` wrapper call", (test) => {
  test("with the request's tools, it is the declared calls it wraps, in order; no event names the wrapper", async () => {
    const events = await run([bytes(stream())]);
    assertEventInvariants(events);
    assert(!events.some((e) => "name" in e && e.name === "parallel"), "the wrapper never surfaces");
    const finish = events.at(-1) as FinishEvent;
    assertEquals(finish.reason, "tool-calls");
    assertEquals(calls(finish), [
      ["call_tide_0", "tide_table", { harbour: "Brest" }],
      ["call_tide_1", "ferry_times", { route: "Brest-Ouessant", day: 3 }],
    ]);
    assertEquals(finish.invalidToolCalls, []);
  });

  test("its next turn: a function_call item per call and their outputs by call id", async () => {
    const finish = await finishOf(stream());
    assertEquals(
      (assistantMessage("openai-responses", finish) as { type: string; call_id: string; name: string }[]).map(
        (item) => [item.type, item.call_id, item.name],
      ),
      [
        ["function_call", "call_tide_0", "tide_table"],
        ["function_call", "call_tide_1", "ferry_times"],
      ],
    );
    const results = finish.toolCalls.map((call) => ({ call, output: `${call.name} done` }));
    assertEquals(
      (toolResultMessages("openai-responses", results) as { call_id: string }[]).map((item) => item.call_id),
      ["call_tide_0", "call_tide_1"],
    );
  });

  test("each wrapped call is checked against its own tool's schema", async () => {
    const args = wrapped([
      ["functions.tide_table", { harbour: "Brest" }],
      ["functions.ferry_times", { route: "Brest-Ouessant", day: "Wednesday" }],
    ]);
    const finish = await finishOf(stream(args), { tools: TOOLS, jsonSchema });
    assertEquals(calls(finish), [["call_tide_0", "tide_table", { harbour: "Brest" }]]);
    assertEquals(
      finish.invalidToolCalls.map((call) => [call.id, call.name, call.error.code]),
      [["call_tide_1", "ferry_times", "schema-mismatch"]],
    );
  });

  test("it stays the call it is when it names an undeclared tool, when `parallel` is declared, or without tools", async () => {
    const stranger = wrapped([
      ["functions.tide_table", {}],
      ["functions.weather", { city: "Brest" }],
    ]);
    const undeclared = await finishOf(stream(stranger));
    assertEquals(undeclared.toolCalls, []);
    assertEquals(
      undeclared.invalidToolCalls.map((call) => [call.id, call.name]),
      [["call_tide", "parallel"]],
    );
    const declared = await finishOf(stream(), { tools: [...TOOLS, { name: "parallel" }] });
    assertEquals(calls(declared), [["call_tide", "parallel", JSON.parse(ARGS)]]);
    const without = await finishOf(stream(), { tools: undefined });
    assertEquals(calls(without), [["call_tide", "parallel", JSON.parse(ARGS)]]);
  });

  test("`unwrapParallel: false` keeps the wrapper; a provider subpath's streamToolCalls unwraps only with the plug-in", async () => {
    const off = await finishOf(stream(), { tools: TOOLS, unwrapParallel: false });
    assertEquals(
      off.invalidToolCalls.map((call) => [call.id, call.name]),
      [["call_tide", "parallel"]],
    );
    const subpath = (options: Partial<StreamToolCallsOptions>) =>
      collect(responsesStreamToolCalls(fromChunks([bytes(stream())]), { tools: TOOLS, ...options }));
    const plain = (await subpath({})).at(-1) as FinishEvent;
    assertEquals(
      plain.invalidToolCalls.map((call) => call.name),
      ["parallel"],
    );
    const given = (await subpath({ unwrapParallel: parallelUnwrapper })).at(-1) as FinishEvent;
    assertEquals(calls(given), calls(await finishOf(stream())));
  });

  test("a `parallel` call whose arguments list no calls surfaces as it came (an undeclared tool)", async () => {
    const notWrapper = await finishOf(stream('{"tool_uses":"none"}'));
    assertEquals(
      notWrapper.invalidToolCalls.map((call) => [call.id, call.name, call.rawArguments]),
      [["call_tide", "parallel", '{"tool_uses":"none"}']],
    );
  });

  test("the wrapped calls count toward maxToolCalls, the wrapper not: two wrapped calls fit a limit of 2", async () => {
    const events = await run([bytes(stream())], { tools: TOOLS, maxToolCalls: 2 });
    assertEventInvariants(events);
    assertEquals(calls(assertFinished(events, false)), calls(await finishOf(stream())));
  });

  test("past maxToolCalls, the wrapped calls end in an error and an abort after the calls before", async () => {
    const events = await run([bytes(stream())], { tools: TOOLS, maxToolCalls: 1 });
    assertEventInvariants(events);
    assertEquals(
      events.filter((e) => e.type === "tool-call").map((e) => e.id),
      ["call_tide_0"],
    );
    const [error, abort] = events.slice(-2);
    assert(error?.type === "error" && error.error.code === "too-many-tool-calls", JSON.stringify(error));
    assert(abort?.type === "abort" && abort.reason === "limit-exceeded", JSON.stringify(abort));
  });

  test("the plug-in: which names it holds, and which arguments it reads as calls", () => {
    const unwrapper = parallelUnwrapper(TOOLS);
    const call = (name: string, text = "") => ({ name, id: "call_x", index: 0, choice: 0, args: { text } });
    assertEquals(
      ["parallel", "multi_tool_use.parallel", "tide_table", "multi_tool_use"].map((name) => unwrapper(call(name))),
      [true, true, false, false],
    );
    assertEquals(parallelUnwrapper([...TOOLS, { name: "parallel" }])(call("parallel")), false);
    const pushed: ProviderDelta[] = [];
    assertEquals(unwrapper(call("tide_table", ARGS), pushed), false);
    // A name without the `functions.` prefix is the tool's own; a key named __proto__ stays an own
    // key; each call has a provider index below 0, which no provider sends, and its own end.
    const proto = wrapped([["tide_table", JSON.parse('{"__proto__":{"x":1}}')]]);
    assertEquals(unwrapper({ ...call("parallel", proto), choice: 2 }, pushed), true);
    assertEquals(pushed, [
      {
        type: "tool-call-chunk",
        index: -1,
        id: "call_x_0",
        name: "tide_table",
        argumentsDelta: '{"__proto__":{"x":1}}',
        choice: 2,
      },
      { type: "tool-call-end", index: -1, choice: 2 },
    ]);
    for (const text of ["", "[", "[]", '{"tool_uses":[]}', '{"tool_uses":[{"recipient_name":"functions.tide_table"}]}'])
      assertEquals(unwrapper(call("parallel", text), pushed), false, text);
    assertEquals(unwrapper(call("parallel", wrapped([["functions.tide_table", [1]]])), pushed), false);
    assertEquals(pushed.length, 2);
  });

  test("any split of the bytes gives the same events", async () => {
    const data = bytes(stream());
    const whole = await run([data]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 40 }), async (cuts) => {
        const events: ToolCallEvent[] = await run(splitAt(data, cuts));
        assertEquals(events, whole);
      }),
      { seed: 34, numRuns: 12 },
    );
  });
});
