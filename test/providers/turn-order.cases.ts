// The next turn in the stream's true order (issue 34). A provider whose turn is a list of blocks,
// items, parts or steps takes it back as it came: OpenAI Responses refuses a reasoning item sent
// without the item that followed it ("Item 'rs_...' of type 'reasoning' was provided without its
// required following item"), Gemini asks every thought signature back "in its original part",
// Anthropic and Bedrock's Claude ask the thinking blocks back unchanged in the turn's block order.
// `finish.order` records where the turn's text runs, calls and reasoning parts came, and both the
// library's next turn (`assistantMessage`) and the request kit (`requestBody`) follow it.
//
// Provenance: the streams are BUILT BY HAND from each API's documented event shapes (Responses'
// `response.output_item.added/done`, `response.output_text.delta`, `response.function_call_arguments.*`;
// Gemini's `candidates[].content.parts` with `thoughtSignature`; ConverseStream's
// `contentBlockDelta`/`contentBlockStop`; Interactions' `step.start/delta/stop`). Ids, signatures
// and texts are made up. Responses' next turns are typed by the `openai` SDK's ResponseInputItem.
import fc from "fast-check";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import {
  assistantMessage,
  providerKit,
  snapshotAccumulator,
  streamToolCalls,
  type FinishEvent,
  type Provider,
} from "../../src/index.ts";
import { feed, providerDeltas } from "../support/accumulator-runs.ts";
import { converse } from "../support/event-stream.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { asRequestMessage, assertFinished } from "../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../support/streams.ts";
import { responsesSse } from "./openai-responses/built-in-calls-recordings.ts";

const finishOf = async (provider: Provider, chunks: Uint8Array[]): Promise<FinishEvent> =>
  assertFinished(await collect(streamToolCalls(fromChunks(chunks), { provider })));

const reasoningItem = (id: string, output_index: number): Record<string, unknown>[] => {
  const item = { id, type: "reasoning", summary: [], encrypted_content: `enc-${id}` };
  return [
    { type: "response.output_item.added", output_index, item: { ...item, encrypted_content: null } },
    { type: "response.output_item.done", output_index, item },
  ];
};
const messageItem = (id: string, output_index: number, text: string): Record<string, unknown>[] => {
  const content = [{ type: "output_text", text, annotations: [] }];
  return [
    {
      type: "response.output_item.added",
      output_index,
      item: { id, type: "message", role: "assistant", status: "in_progress", content: [] },
    },
    { type: "response.output_text.delta", item_id: id, output_index, content_index: 0, delta: text },
    { type: "response.output_text.done", item_id: id, output_index, content_index: 0, text },
    {
      type: "response.output_item.done",
      output_index,
      item: { id, type: "message", role: "assistant", status: "completed", content },
    },
  ];
};
const functionCallItem = (
  id: string,
  callId: string,
  output_index: number,
  args: string,
): Record<string, unknown>[] => {
  const item = {
    id,
    type: "function_call",
    call_id: callId,
    name: "get_weather",
    arguments: "",
    status: "in_progress",
  };
  return [
    { type: "response.output_item.added", output_index, item },
    { type: "response.function_call_arguments.delta", item_id: id, output_index, delta: args },
    { type: "response.function_call_arguments.done", item_id: id, output_index, arguments: args },
    { type: "response.output_item.done", output_index, item: { ...item, arguments: args, status: "completed" } },
  ];
};
const webSearchItem = (id: string, output_index: number): Record<string, unknown>[] => {
  const item = { id, type: "web_search_call", status: "completed", action: { type: "search", query: "tides Brest" } };
  return [
    { type: "response.output_item.added", output_index, item: { ...item, status: "in_progress" } },
    { type: "response.output_item.done", output_index, item },
  ];
};
const responseEvents = (output: Record<string, unknown>[][], status = "completed"): string =>
  responsesSse([
    { type: "response.created", response: { id: "resp_order", object: "response", status: "in_progress", output: [] } },
    ...output.flat(),
    {
      type: `response.${status}`,
      response: {
        id: "resp_order",
        object: "response",
        status,
        ...(status === "incomplete" ? { incomplete_details: { reason: "max_output_tokens" } } : {}),
        output: [],
        usage: { input_tokens: 30, output_tokens: 20, total_tokens: 50 },
      },
    },
  ]);

/** A reasoning model that says something, reasons again, then calls a tool. */
const reasonSayReasonCall = responseEvents([
  reasoningItem("rs_1", 0),
  messageItem("msg_1", 1, "Let me check the weather."),
  reasoningItem("rs_2", 2),
  functionCallItem("fc_1", "call_1", 3, '{"city":"Brest"}'),
]);
const REASON_SAY_REASON_CALL: ResponseInputItem[] = [
  { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc-rs_1" },
  { type: "message", role: "assistant", content: "Let me check the weather." },
  { type: "reasoning", id: "rs_2", summary: [], encrypted_content: "enc-rs_2" },
  { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Brest"}' },
];

/** A turn cut off by its token limit after a web search: reasoning, the search, reasoning; no text, no call. */
const searchedThenCut = responseEvents(
  [reasoningItem("rs_1", 0), webSearchItem("ws_1", 1), reasoningItem("rs_2", 2)],
  "incomplete",
);

group("The next turn in the stream's order", (test) => {
  test("Responses: each reasoning item goes back right before the item that followed it, at any split", async () => {
    const data = bytes(reasonSayReasonCall);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 8 }), async (cuts) => {
        const finish = await finishOf("openai-responses", splitAt(data, cuts));
        assertEquals(finish.order, [
          { type: "reasoning-parts", count: 1 },
          { type: "text", length: 25 },
          { type: "reasoning-parts", count: 1 },
          { type: "tool-call", index: 3 },
        ]);
        assertEquals(assistantMessage("openai-responses", finish), REASON_SAY_REASON_CALL);
      }),
      { seed: 34, numRuns: 30 },
    );
  });

  test("Responses: the request kit sends the same order", async () => {
    const finish = await finishOf("openai-responses", [bytes(reasonSayReasonCall)]);
    const body = providerKit("openai-responses").requestBody({
      model: "gpt-5",
      messages: [{ role: "user", content: "Weather in Brest?" }, asRequestMessage(finish)],
      tools: [{ name: "get_weather", parameters: { type: "object" } }],
    });
    const input = body["input"] as Record<string, unknown>[];
    assertEquals(
      input.slice(1).map((item) => item["type"] ?? item["role"]),
      ["reasoning", "assistant", "reasoning", "function_call"],
    );
  });

  test("Responses: a turn of no text and no call still sends back its search and the reasoning before it; the reasoning after nothing is left out", async () => {
    const finish = await finishOf("openai-responses", [bytes(searchedThenCut)]);
    assertEquals(
      [finish.reason, finish.text, finish.toolCalls.map((call) => [call.name, call.providerExecuted])],
      ["length", "", [["web_search", true]]],
    );
    const expected: ResponseInputItem[] = [
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc-rs_1" },
      {
        id: "ws_1",
        type: "web_search_call",
        status: "completed",
        action: { type: "search", query: "tides Brest" },
      } as ResponseInputItem,
    ];
    assertEquals(assistantMessage("openai-responses", finish), expected);
    const body = providerKit("openai-responses").requestBody({
      model: "gpt-5",
      messages: [
        { role: "user", content: "Tides in Brest?" },
        asRequestMessage(finish),
        { role: "user", content: "Go on." },
      ],
      tools: [],
    });
    assertEquals((body["input"] as unknown[]).slice(1, 3), expected);
    // A turn of reasoning alone sends nothing back: OpenAI refuses a reasoning item with nothing after it.
    const alone = await finishOf("openai-responses", [bytes(responseEvents([reasoningItem("rs_9", 0)], "incomplete"))]);
    assertEquals(assistantMessage("openai-responses", alone), []);
  });

  test("a turn given in the order every next turn used (reasoning, text, calls) carries no `order`; one changed by hand goes back in that order", async () => {
    const plain = await finishOf("openai-responses", [
      bytes(
        responseEvents([
          reasoningItem("rs_1", 0),
          messageItem("msg_1", 1, "Hi."),
          functionCallItem("fc_1", "call_1", 2, "{}"),
        ]),
      ),
    ]);
    assertEquals(plain.order, undefined);
    const finish = await finishOf("openai-responses", [bytes(reasonSayReasonCall)]);
    const changed = { ...finish, text: "Checking." };
    assertEquals(
      (assistantMessage("openai-responses", changed) as Record<string, unknown>[]).map((item) => item["type"]),
      ["reasoning", "reasoning", "message", "function_call"],
    );
  });

  test("Gemini: text after a signed call goes back after it, the signature that came after the text on its part", async () => {
    const chunk = (parts: unknown[], finishReason?: string): string =>
      `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, index: 0, ...(finishReason ? { finishReason } : {}) }] })}\n\n`;
    const body =
      chunk([{ functionCall: { name: "get_weather", args: { city: "Brest" } }, thoughtSignature: "sig-call" }]) +
      chunk([{ text: "I asked for " }]) +
      chunk([{ text: "the weather.", thoughtSignature: "sig-text" }], "STOP");
    const finish = await finishOf("gemini", [bytes(body)]);
    const parts = [
      { functionCall: { name: "get_weather", args: { city: "Brest" } }, thoughtSignature: "sig-call" },
      { text: "I asked for the weather.", thoughtSignature: "sig-text" },
    ];
    assertEquals(assistantMessage("gemini", finish), { role: "model", parts });
    const request = providerKit("gemini").requestBody({
      model: "gemini-3-pro",
      messages: [{ role: "user", content: "Weather in Brest?" }, asRequestMessage(finish)],
      tools: [{ name: "get_weather", parameters: { type: "object" } }],
    });
    assertEquals((request["contents"] as Record<string, unknown>[])[1], { role: "model", parts });
  });

  test("Bedrock: a signed reasoning block between the text and the call stays there, in the next turn and the request kit", async () => {
    const delta = (index: number, value: Record<string, unknown>): [string, Record<string, unknown>] => [
      "contentBlockDelta",
      { contentBlockIndex: index, delta: value },
    ];
    const stop = (index: number): [string, Record<string, unknown>] => [
      "contentBlockStop",
      { contentBlockIndex: index },
    ];
    const body = converse([
      ["messageStart", { role: "assistant" }],
      delta(0, { text: "Checking." }),
      stop(0),
      delta(1, { reasoningContent: { text: "Brest it is." } }),
      delta(1, { reasoningContent: { signature: "sig-1" } }),
      stop(1),
      ["contentBlockStart", { contentBlockIndex: 2, start: { toolUse: { toolUseId: "tu_1", name: "get_weather" } } }],
      delta(2, { toolUse: { input: '{"city":"Brest"}' } }),
      stop(2),
      ["messageStop", { stopReason: "tool_use" }],
    ]);
    const finish = await finishOf("bedrock", [body]);
    const content = [
      { text: "Checking." },
      { reasoningContent: { reasoningText: { text: "Brest it is.", signature: "sig-1" } } },
      { toolUse: { toolUseId: "tu_1", name: "get_weather", input: { city: "Brest" } } },
    ];
    assertEquals(assistantMessage("bedrock", finish), { role: "assistant", content });
    const request = providerKit("bedrock").requestBody({
      model: "anthropic.claude-sonnet-4-5",
      messages: [{ role: "user", content: "Weather in Brest?" }, asRequestMessage(finish)],
      tools: [{ name: "get_weather", parameters: { type: "object" } }],
    });
    assertEquals((request["messages"] as Record<string, unknown>[])[1], { role: "assistant", content });
  });

  test("Gemini Interactions: a call, then a thought, then text: the steps in that order", async () => {
    const sse = (payloads: Record<string, unknown>[]): string =>
      payloads.map((p) => `event: ${String(p["event_type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("");
    const body = sse([
      { event_type: "interaction.created", interaction: { id: "v1_o", status: "in_progress" } },
      {
        event_type: "step.start",
        index: 0,
        step: {
          type: "function_call",
          id: "c1",
          name: "get_weather",
          arguments: { city: "Brest" },
          signature: "sig-c",
        },
      },
      { event_type: "step.stop", index: 0 },
      { event_type: "step.start", index: 1, step: { type: "thought", signature: "sig-t" } },
      { event_type: "step.stop", index: 1 },
      { event_type: "step.start", index: 2, step: { type: "model_output" } },
      { event_type: "step.delta", index: 2, delta: { type: "text", text: "Asked." } },
      { event_type: "step.stop", index: 2 },
      { event_type: "interaction.completed", interaction: { id: "v1_o", status: "requires_action" } },
    ]);
    const finish = await finishOf("gemini-interactions", [bytes(body)]);
    const steps = [
      { type: "function_call", id: "c1", name: "get_weather", arguments: { city: "Brest" }, signature: "sig-c" },
      { type: "thought", signature: "sig-t" },
      { type: "model_output", content: [{ type: "text", text: "Asked." }] },
    ];
    assertEquals(assistantMessage("gemini-interactions", finish), steps);
    const request = providerKit("gemini-interactions").requestBody({
      model: "gemini-3-pro",
      store: false,
      messages: [{ role: "user", content: "Weather in Brest?" }, asRequestMessage(finish)],
      tools: [{ name: "get_weather", parameters: { type: "object" } }],
    });
    assertEquals((request["input"] as unknown[]).slice(1), steps);
  });

  test("a snapshot taken at any delta and restored from JSON gives the same order", async () => {
    const deltas = await providerDeltas(reasonSayReasonCall, "openai-responses");
    const whole = feed(deltas, true).events.at(-1);
    assert(whole?.type === "finish" && whole.order !== undefined, "an order");
    for (let cut = 0; cut <= deltas.length; cut++) {
      const first = feed(deltas.slice(0, cut), false);
      const rest = feed(deltas.slice(cut), true, snapshotAccumulator(first.accumulator));
      assertEquals([...first.events, ...rest.events].at(-1), whole, `cut at ${cut}`);
    }
  });
});
