// A payload the decoder skipped (not JSON, or events that never arrived) may have held a fragment
// of a call still open: that call's arguments may miss a part anywhere, and what is left can still
// be valid JSON (`rm -rf /tmp/x` for `rm -rf /tmp/x/y`). So it is never handed over as complete:
// it ends as an `invalid-tool-call` of code `malformed-payload` and the turn fails (`finish` of reason
// `error`), unless the provider's final text of its arguments settles it (OpenAI Responses' `.done`).
// A call closed before the skipped payload, or begun after it, is not touched, and the stream goes on.
import {
  restoreAccumulator,
  snapshotAccumulator,
  streamToolCalls,
  ToolCallAccumulator,
  type ProviderDelta,
  type ToolCallEvent,
} from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk, collect, fromChunks } from "../support/streams.ts";

const data = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;
const fragment = (index: number, args: string, id?: string, name?: string): string =>
  data(
    chatChunk({
      tool_calls: [
        { index, ...(id && { id, type: "function" }), function: { ...(name && { name }), arguments: args } },
      ],
    }),
  );
/** What a call ended as: `name args` for a complete call, `invalid name code` for an invalid one. */
const calls = (events: readonly ToolCallEvent[]): string[] =>
  events.flatMap((e) =>
    e.type === "tool-call"
      ? [`${e.name} ${e.rawArguments}`]
      : e.type === "invalid-tool-call"
        ? [`invalid ${e.name} ${e.error.code}`]
        : [],
  );
const run = async (...parts: string[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(parts.join(""))]), { provider: "openai" }));

group("a payload skipped while a call streams", (test) => {
  test("OpenAI Chat: the call open when a payload was not JSON is invalid, not the call its other fragments make", async () => {
    const events = await run(
      fragment(0, '{"cmd":"rm -rf /tmp/x', "call_1", "shell"),
      'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"/y"}}]}}]\n\n',
      fragment(0, '"}'),
      data(chatChunk({}, "tool_calls")),
      "data: [DONE]\n\n",
    );
    assertEquals(calls(events), ["invalid shell malformed-payload"]);
    const finish = events.at(-1);
    // The turn failed: no protocol's client reads it as calls to run.
    assertEquals(
      finish?.type === "finish" && [finish.reason, finish.toolCalls.length, finish.invalidToolCalls.length],
      ["error", 0, 1],
    );
  });

  test("a call complete before it and a call begun after it are the model's, and the text goes on", async () => {
    const events = await run(
      data(chatChunk({ content: "Two calls. " })),
      fragment(0, '{"city":"Paris"}', "call_1", "get_weather"),
      "data: {not json\n\n",
      fragment(1, '{"city":"Oslo"}', "call_2", "get_weather"),
      data(chatChunk({ content: "Done." })),
      data(chatChunk({}, "tool_calls")),
      "data: [DONE]\n\n",
    );
    assertEquals(calls(events), ['get_weather {"city":"Paris"}', 'get_weather {"city":"Oslo"}']);
    assertEquals(
      events.filter((e) => e.type === "error").map((e) => e.type === "error" && e.error.code),
      ["malformed-payload"],
    );
    const finish = events.at(-1);
    assertEquals(finish?.type === "finish" && finish.reason, "tool-calls");
  });

  test("a provider's final text of the arguments settles the call: it completes with that text", () => {
    const events: ToolCallEvent[] = [];
    const accumulator = new ToolCallAccumulator((event) => events.push(event));
    const deltas: ProviderDelta[] = [
      { type: "tool-call-chunk", index: 0, id: "call_1", name: "shell", argumentsDelta: '{"cmd":"ls' },
      { type: "error", error: { code: "sequence-gap", message: "Events 3 to 3 never arrived." } },
      { type: "tool-call-end", index: 0, arguments: '{"cmd":"ls -la"}' },
      { type: "finish", reason: "tool-calls", rawReason: "completed" },
    ];
    for (const delta of deltas) accumulator.push(delta);
    assertEquals(calls(events), ['shell {"cmd":"ls -la"}']);
  });

  test("a snapshot keeps it: restored, the call still ends invalid", () => {
    const first = new ToolCallAccumulator(() => {});
    first.push({
      type: "tool-call-chunk",
      index: 0,
      id: "call_1",
      name: "shell",
      argumentsDelta: '{"cmd":"rm -rf /tmp/x',
    });
    first.push({ type: "error", error: { code: "malformed-payload", message: "A payload was skipped." } });
    const events: ToolCallEvent[] = [];
    const restored = restoreAccumulator(
      new ToolCallAccumulator((event) => events.push(event)),
      JSON.parse(JSON.stringify(snapshotAccumulator(first))),
    );
    restored.push({ type: "tool-call-chunk", index: 0, argumentsDelta: '"}' });
    restored.push({ type: "finish", reason: "tool-calls", rawReason: "tool_calls" });
    assertEquals(calls(events), ["invalid shell malformed-payload"]);
  });
});
