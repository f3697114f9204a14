// A call's id names one call in a response: a tool result answers a call by it, so two calls of one
// id cannot both be answered. Servers have given parallel calls one id (DeepSeek and GLM on OpenAI
// Chat: HKUDS/nanobot 3932, 3943; Kimi's Anthropic endpoint: 4473). A second, different call under
// an id an earlier call of the response had (OpenAI Chat's id on another index, Responses'
// `call_id`, Gemini's `functionCall.id`, Bedrock's `toolUseId`, Cohere's and Ollama's call ids,
// Anthropic's `tool_use` id: anthropic-repeated-tool-id.cases.ts) is delivered under that id with
// the first free suffix (`call_1_2`), whichever the provider: nothing is lost, and each call can be
// answered. Before, OpenAI Chat merged it into the first call (its name lost) and the others gave two
// calls one id. The same call's id given again (on its later fragments, or a whole call resent at its
// index) is no second call. Built by hand in each provider's wire shapes.
import { streamToolCalls, ToolCallAccumulator, type Provider, type ToolCallEvent } from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { assertEventInvariants } from "../support/invariants.ts";
import { converse } from "../support/event-stream.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

async function read(provider: Provider, body: Uint8Array): Promise<unknown[]> {
  const events: ToolCallEvent[] = await collect(streamToolCalls(fromChunks([body]), { provider }));
  assertEventInvariants(events);
  return events.flatMap((event) => {
    if (event.type === "tool-call") return [["call", event.id, event.name, event.arguments]];
    if (event.type === "invalid-tool-call") return [["invalid", event.id, event.name]];
    if (event.type === "error") return [["error", event.error.code, event.error.message]];
    if (event.type === "abort") return [["abort", event.reason, event.discarded.map((call) => call.name)]];
    if (event.type === "finish") return [["finish", event.toolCalls.map((call) => call.name)]];
    return [];
  });
}

const sse = (payloads: unknown[], done = false): Uint8Array =>
  bytes(payloads.map((p) => `data: ${JSON.stringify(p)}\n\n`).join("") + (done ? "data: [DONE]\n\n" : ""));
const first = ["call", "call_1", "weather", { city: "Oslo" }];
const second = ["call", "call_1_2", "time", { zone: "CET" }];
const both = [first, second, ["finish", ["weather", "time"]]];

const chat = (calls: unknown[], finish?: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  choices: [{ index: 0, delta: calls.length ? { tool_calls: calls } : {}, finish_reason: finish ?? null }],
});
const chatStart = (index: number, name: string) => ({
  index,
  id: "call_1",
  type: "function",
  function: { name, arguments: "" },
});
const chatArgs = (index: number, json: string) => ({ index, function: { arguments: json } });

const responsesCall = (index: number, name: string, json: string) => [
  {
    type: "response.output_item.added",
    output_index: index,
    item: { type: "function_call", id: `fc_${index}`, call_id: "call_1", name, arguments: "" },
  },
  { type: "response.function_call_arguments.delta", output_index: index, item_id: `fc_${index}`, delta: json },
  {
    type: "response.output_item.done",
    output_index: index,
    item: { type: "function_call", id: `fc_${index}`, call_id: "call_1", name, arguments: json, status: "completed" },
  },
];

group("A call id given to a second, different call: the second is delivered under the id with a suffix", (test) => {
  test("OpenAI Chat: a second index with the first call's id (the first still open, as Chat ends calls at the finish)", async () => {
    const body = sse(
      [
        chat([chatStart(0, "weather")]),
        chat([chatArgs(0, '{"city":"Oslo"}')]),
        chat([chatStart(1, "time")]),
        chat([chatArgs(1, '{"zone":"CET"}')]),
        chat([], "tool_calls"),
      ],
      true,
    );
    assertEquals(await read("openai", body), both);
  });

  test("OpenAI Chat: the second call's id and name on each of its fragments (DeepSeek repeats them) is one call", async () => {
    const again = (json: string) => ({ ...chatStart(1, "time"), function: { name: "time", arguments: json } });
    const body = sse(
      [
        chat([chatStart(0, "weather")]),
        chat([chatArgs(0, '{"city":"Oslo"}')]),
        chat([chatStart(1, "time")]),
        chat([again('{"zone":')]),
        chat([again('"CET"}')]),
        chat([], "tool_calls"),
      ],
      true,
    );
    assertEquals(await read("openai", body), both);
  });

  test("OpenAI Chat: the first call's id on its own later fragments is the same call", async () => {
    const again = { ...chatArgs(0, '{"city":"Oslo"}'), id: "call_1", type: "function" };
    const body = sse([chat([chatStart(0, "weather")]), chat([again]), chat([], "tool_calls")], true);
    assertEquals(await read("openai", body), [first, ["finish", ["weather"]]]);
  });

  test("OpenAI Responses: a second function_call item with the first one's call_id", async () => {
    const completed = { type: "response.completed", response: { id: "resp_1", status: "completed", output: [] } };
    const body = sse([
      ...responsesCall(0, "weather", '{"city":"Oslo"}'),
      ...responsesCall(1, "time", '{"zone":"CET"}'),
      completed,
    ]);
    assertEquals(await read("openai-responses", body), both);
  });

  test("Gemini: a second functionCall with the first one's id", async () => {
    const part = (name: string, args: unknown) => ({ functionCall: { id: "call_1", name, args } });
    const body = sse([
      { candidates: [{ content: { role: "model", parts: [part("weather", { city: "Oslo" })] } }] },
      { candidates: [{ content: { role: "model", parts: [part("time", { zone: "CET" })] }, finishReason: "STOP" }] },
    ]);
    assertEquals(await read("gemini", body), both);
  });

  test("Bedrock ConverseStream: a second toolUse block with the first one's toolUseId", async () => {
    const block = (index: number, name: string, json: string): [string, Record<string, unknown>][] => [
      ["contentBlockStart", { contentBlockIndex: index, start: { toolUse: { toolUseId: "call_1", name } } }],
      ["contentBlockDelta", { contentBlockIndex: index, delta: { toolUse: { input: json } } }],
      ["contentBlockStop", { contentBlockIndex: index }],
    ];
    const body = converse([
      ["messageStart", { role: "assistant" }],
      ...block(0, "weather", '{"city":"Oslo"}'),
      ...block(1, "time", '{"zone":"CET"}'),
      ["messageStop", { stopReason: "tool_use" }],
    ]);
    assertEquals(await read("bedrock", body), both);
  });

  test("Cohere: a second tool-call-start with the first one's id", async () => {
    const call = (index: number, name: string, json: string) => [
      {
        type: "tool-call-start",
        index,
        delta: { message: { tool_calls: { id: "call_1", type: "function", function: { name, arguments: "" } } } },
      },
      { type: "tool-call-delta", index, delta: { message: { tool_calls: { function: { arguments: json } } } } },
      { type: "tool-call-end", index },
    ];
    const body = sse([
      { type: "message-start", id: "m_1", delta: { message: { role: "assistant" } } },
      ...call(0, "weather", '{"city":"Oslo"}'),
      ...call(1, "time", '{"zone":"CET"}'),
      { type: "message-end", delta: { finish_reason: "TOOL_CALL" } },
    ]);
    assertEquals(await read("cohere", body), both);
  });

  test("Ollama: every call whole at index 0, the second with the first one's id; with ids of their own, two calls", async () => {
    const line = (calls: unknown[], done = false) =>
      `${JSON.stringify({ model: "m", message: { role: "assistant", content: "", tool_calls: calls }, done, ...(done && { done_reason: "stop" }) })}\n`;
    const call = (id: string, name: string, args: unknown) => ({ id, function: { index: 0, name, arguments: args } });
    const body = (second: string) =>
      bytes(
        line([call("call_1", "weather", { city: "Oslo" })]) +
          line([call(second, "time", { zone: "CET" })]) +
          line([], true),
      );
    assertEquals(await read("ollama", body("call_1")), both);
    assertEquals(await read("ollama", body("call_2")), [
      first,
      ["call", "call_2", "time", { zone: "CET" }],
      ["finish", ["weather", "time"]],
    ]);
  });

  test("every call of a response under one id: each its own suffix, in order (the maxToolCalls default's count)", () => {
    const ids: string[] = [];
    const accumulator = new ToolCallAccumulator((event) => {
      if (event.type === "tool-call") ids.push(event.id!);
    });
    for (let index = 0; index < 1024; index++) {
      accumulator.push({ type: "tool-call-chunk", index, id: "x", name: "f", argumentsDelta: "{}" });
      accumulator.push({ type: "tool-call-end", index });
    }
    accumulator.end();
    assertEquals(ids, ["x", ...Array.from({ length: 1023 }, (_, i) => `x_${i + 2}`)]);
  });

  test("a suffixed id a provider gave itself is taken: the next free one is given", () => {
    const ids: string[] = [];
    const accumulator = new ToolCallAccumulator((event) => {
      if (event.type === "tool-call") ids.push(event.id!);
    });
    for (const [index, id] of ["x", "x_2", "x", "x"].entries()) {
      accumulator.push({ type: "tool-call-chunk", index, id, name: "f", argumentsDelta: "{}" });
      accumulator.push({ type: "tool-call-end", index });
    }
    accumulator.end();
    assertEquals(ids, ["x", "x_2", "x_3", "x_4"]);
  });
});
