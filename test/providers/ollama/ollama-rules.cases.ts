import {
  assistantMessage,
  runToolLoop,
  streamToolCalls,
  toolDefinitions,
  toolResultMessages,
  type ToolCallEvent,
  type ToolLoopEvent,
} from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";

const line = (message: Record<string, unknown>, extra: Record<string, unknown> = { done: false }): string =>
  `${JSON.stringify({
    model: "qwen3",
    created_at: "2025-07-07T20:22:19Z",
    message: { role: "assistant", content: "", ...message },
    ...extra,
  })}\n`;
const done = (reason = "stop"): string =>
  line({}, { done: true, done_reason: reason, total_duration: 1, prompt_eval_count: 20, eval_count: 7 });
const call = (name: string, args: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...extra,
  function: { name, arguments: args },
});
const run = async (body: string, cuts: number[] = []): Promise<ToolCallEvent[]> => {
  const events = await collect(streamToolCalls(fromChunks(splitAt(bytes(body), cuts)), { provider: "ollama" }));
  assertEventInvariants(events);
  return events;
};
const finishOf = (events: ToolCallEvent[]) => {
  const last = events.at(-1);
  assert(last?.type === "finish", "finish");
  return last;
};

group("Ollama native /api/chat rules", (test) => {
  test("whole calls with object arguments, several on one line and over several lines, each complete at once", async () => {
    const body =
      line({ thinking: "Two cities." }) +
      line({ content: "Checking " }) +
      line({ tool_calls: [call("weather", { city: "Paris" }), call("weather", { city: "杭州" }, { id: "call_2" })] }) +
      line({ tool_calls: [call("time", { zone: "UTC" }, { id: "call_3" })] }) +
      done();
    const events = await run(body, [17, 200, 333]);
    const finish = finishOf(events);
    assertEquals(
      finish.toolCalls.map((c) => [c.index, c.id, c.name, c.arguments]),
      [
        [0, null, "weather", { city: "Paris" }],
        [1, "call_2", "weather", { city: "杭州" }],
        [2, "call_3", "time", { zone: "UTC" }],
      ],
    );
    assertEquals(
      [finish.text, finish.reasoning, finish.usage?.inputTokens, finish.usage?.outputTokens, finish.usage?.totalTokens],
      ["Checking ", "Two cities.", 20, 7, 27],
    );
  });

  test("done_reason stop after calls is the normalized tool-calls, the raw stop kept; length stays length", async () => {
    const finish = finishOf(await run(line({ tool_calls: [call("f", {})] }) + done("stop")));
    assertEquals([finish.reason, finish.rawReason, finish.toolCalls[0]!.arguments], ["tool-calls", "stop", {}]);
    const text = finishOf(await run(line({ content: "Hi" }) + done("stop")));
    assertEquals([text.reason, text.rawReason], ["stop", "stop"]);
    assertEquals(finishOf(await run(line({ content: "Hi" }) + done("length"))).reason, "length");
  });

  test("arguments sent as a JSON string (older servers, gateways) are read as they are", async () => {
    const finish = finishOf(await run(line({ tool_calls: [call("f", '{"a":1}')] }) + done()));
    assertEquals(finish.toolCalls[0]!.arguments, { a: 1 });
  });

  test("an error line with status 200 is a provider error; a body without done: true was cut short", async () => {
    const failed = await run(`${line({ content: "Hel" })}{"error":"model runner has unexpectedly stopped"}\n`);
    const error = failed.find((e) => e.type === "error");
    assert(error?.type === "error" && error.error.code === "provider-error", "a provider error");
    assertEquals(error.error.data, { error: "model runner has unexpectedly stopped" });
    assertEquals(failed.at(-1)?.type === "abort" && failed.at(-1), {
      type: "abort",
      reason: "provider-error",
      discarded: [],
    });
    const cut = await run(line({ content: "Hel" }) + line({ content: "lo" }));
    assert(cut.at(-1)?.type === "abort", "cut short: abort, never a finish");
    const half = await run(line({ content: "Hel" }) + line({ content: "lo" }).slice(0, 30));
    assertEquals(
      half.filter((e) => e.type === "error").map((e) => (e.type === "error" ? e.error.code : "")),
      ["truncated-event"],
    );
  });

  test("the next turn: assistant tool_calls with object arguments and thinking; tool messages with tool_name", async () => {
    const finish = finishOf(
      await run(
        line({ thinking: "Need weather." }) +
          line({ tool_calls: [call("weather", { city: "Oslo" }, { id: "call_1" })] }) +
          done(),
      ),
    );
    assertEquals(assistantMessage("ollama", finish), {
      role: "assistant",
      content: "",
      thinking: "Need weather.",
      tool_calls: [{ id: "call_1", function: { name: "weather", arguments: { city: "Oslo" } } }],
    });
    assertEquals(
      toolResultMessages("ollama", [
        { call: finish.toolCalls[0]!, output: "Sunny" },
        { call: { id: null, name: "time" }, output: { t: 1 } },
      ]),
      [
        { role: "tool", content: "Sunny", tool_name: "weather", tool_call_id: "call_1" },
        { role: "tool", content: '{"t":1}', tool_name: "time" },
      ],
    );
    assertEquals(toolDefinitions("ollama", { time: { description: "Now.", run: () => "" } }), [
      {
        type: "function",
        function: { name: "time", description: "Now.", parameters: { type: "object", properties: {} } },
      },
    ]);
  });

  test("runToolLoop loops with Ollama: results go back as tool messages, then the model answers", async () => {
    const bodies = [line({ tool_calls: [call("add", { a: 2, b: 3 })] }) + done(), line({ content: "5" }) + done()];
    const sent: unknown[][] = [];
    const events: ToolLoopEvent[] = await collect(
      runToolLoop({
        provider: "ollama",
        messages: [{ role: "user", content: "2+3?" }],
        tools: { add: { run: (args) => (args as { a: number; b: number }).a + (args as { a: number; b: number }).b } },
        call: ({ messages }) => {
          sent.push(structuredClone(messages) as unknown[]);
          return Promise.resolve(
            new Response(bytes(bodies[sent.length - 1]!), { headers: { "content-type": "application/x-ndjson" } }),
          );
        },
      }),
    );
    const finish = events.at(-1);
    assert(
      finish?.type === "loop-finish" && finish.reason === "no-tool-calls" && finish.steps === 2,
      "two steps, then no calls",
    );
    assertEquals(sent[1]!.slice(1), [
      { role: "assistant", content: "", tool_calls: [{ function: { name: "add", arguments: { a: 2, b: 3 } } }] },
      { role: "tool", content: "5", tool_name: "add" },
    ]);
  });
});
