// Cohere v2 reasoning models (command-a-reasoning) stream their thinking as content items
// (`content-start` of `{ type: "thinking", thinking: "" }`, `content-delta`s of
// `delta.message.content.thinking`, `content-end`: cohere-ai's ChatContentStartEventDeltaMessageContent),
// apart from the `tool_plan` (`tool-plan-delta`). Both stream as reasoning text, which every client
// protocol shows; the thinking is kept as a `thinking` part, which goes back to Cohere as a
// `{ type: "thinking", thinking }` item of the assistant message's `content` (cohere-ai's
// AssistantMessageV2ContentOneItem.Thinking), never inside its `tool_plan`.
import fc from "fast-check";
import {
  assistantMessage,
  providerKit,
  streamToolCalls,
  type EncodableEvent,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { readMessagesEvents, readResponsesEvents } from "../../support/agent-protocol-readers.ts";
import { ENCODERS, encodeAll } from "../../support/encoders.ts";
import { externalBodies, externalFixtures } from "../../support/external-fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { readAGUIEvents, readChatChunks, readUIChunks } from "../../support/protocol-readers.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";

const THINKING = "The user wants the weather in Paris. I should call get_weather.";
const PLAN = "I will look up the weather in Paris.";

/** A tool turn of a reasoning model: its thinking (index 0), a tool plan, then one call. */
const toolTurn = [
  { type: "message-start", id: "c1", delta: { message: { role: "assistant", content: [], tool_plan: "" } } },
  { type: "content-start", index: 0, delta: { message: { content: { type: "thinking", thinking: "" } } } },
  ...THINKING.split(/(?<= )/).map((thinking) => ({
    type: "content-delta",
    index: 0,
    delta: { message: { content: { thinking } } },
  })),
  { type: "content-end", index: 0 },
  { type: "tool-plan-delta", delta: { message: { tool_plan: PLAN } } },
  {
    type: "tool-call-start",
    index: 0,
    delta: {
      message: {
        tool_calls: { id: "get_weather_1", type: "function", function: { name: "get_weather", arguments: "" } },
      },
    },
  },
  {
    type: "tool-call-delta",
    index: 0,
    delta: { message: { tool_calls: { function: { arguments: '{"city":"Paris"}' } } } },
  },
  { type: "tool-call-end", index: 0 },
  {
    type: "message-end",
    delta: { finish_reason: "TOOL_CALL", usage: { tokens: { input_tokens: 9, output_tokens: 30 } } },
  },
];
const sse = bytes(toolTurn.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""));

const run = async (chunks: Uint8Array[]): Promise<ToolCallEvent[]> => {
  const events = await collect(streamToolCalls(fromChunks(chunks), { provider: "cohere" }));
  assertEventInvariants(events);
  return events;
};
const finishOf = (events: readonly ToolCallEvent[]) => {
  const last = events.at(-1);
  assert(last?.type === "finish", "finish");
  return last;
};
const CALL = {
  id: "get_weather_1",
  type: "function",
  function: { name: "get_weather", arguments: '{"city":"Paris"}' },
};

group("Cohere thinking (reasoning models) and its next turn", (test) => {
  test("the thinking is a thinking part, the tool plan is not; both are reasoning text", async () => {
    const finish = finishOf(await run([sse]));
    assertEquals(finish.reasoning, THINKING + PLAN);
    assertEquals(finish.reasoningParts, [{ type: "thinking", text: THINKING }]);
  });

  test("the next turn sends the thinking as a thinking content item and only the plan as tool_plan", async () => {
    const finish = finishOf(await run([sse]));
    assertEquals(assistantMessage("cohere", finish), {
      role: "assistant",
      content: [{ type: "thinking", thinking: THINKING }],
      tool_plan: PLAN,
      tool_calls: [CALL],
    });
  });

  // The request kit sends the turn as assistantMessage does: the plan too. Before, it sent no tool_plan (the plan
  // streamed as reasoning, which the kit read only for Ollama), so the Worker's Cohere upstream lost it.
  test("the request kit (the Worker's upstream body) sends the turn's thinking parts as thinking items, only the plan as tool_plan", async () => {
    const finish = finishOf(await run([sse]));
    const body = providerKit("cohere").requestBody({
      model: "command-a-reasoning-08-2025",
      tools: [],
      messages: [
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: finish.text,
          reasoning: finish.reasoning,
          reasoningParts: finish.reasoningParts,
          toolCalls: finish.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })),
        },
        { role: "tool", toolCallId: "get_weather_1", content: '{"temperature":21}' },
        {
          role: "assistant",
          content: "It is 21 °C.",
          toolCalls: [],
          reasoningParts: [{ type: "thinking", text: "21 °C." }],
        },
      ],
    });
    assertEquals((body["messages"] as unknown[]).slice(1), [
      { role: "assistant", content: [{ type: "thinking", thinking: THINKING }], tool_plan: PLAN, tool_calls: [CALL] },
      { role: "tool", tool_call_id: "get_weather_1", content: '{"temperature":21}' },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "21 °C." },
          { type: "text", text: "It is 21 °C." },
        ],
      },
    ]);
  });

  test("a turn with its thinking alone is still left out; a turn without thinking is sent as before", () => {
    const thinking = [{ type: "thinking" as const, text: THINKING }];
    assertEquals(
      assistantMessage("cohere", { text: "", toolCalls: [], reasoning: THINKING, reasoningParts: thinking }),
      [],
    );
    assertEquals(assistantMessage("cohere", { text: "Hi.", toolCalls: [], reasoning: "" }), {
      role: "assistant",
      content: "Hi.",
    });
    assertEquals(
      assistantMessage("cohere", {
        toolCalls: [
          { index: 0, id: "get_weather_1", name: "get_weather", arguments: { city: "Paris" }, rawArguments: "" },
        ],
        reasoning: PLAN,
      }),
      { role: "assistant", tool_plan: PLAN, tool_calls: [CALL] },
    );
  });

  test("any split of the bytes gives the same parts", async () => {
    const whole = finishOf(await run([sse])).reasoningParts;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: sse.length - 1 }), { maxLength: 8 }), async (cuts) => {
        assertEquals(finishOf(await run(splitAt(sse, cuts))).reasoningParts, whole);
      }),
      { seed: 0x0c0e, numRuns: 30 },
    );
  });

  test("every client protocol still shows the thinking (and the plan) as reasoning text", async () => {
    const events: EncodableEvent[] = await run([sse]);
    const encoded = (name: keyof typeof ENCODERS) => encodeAll(ENCODERS[name](), events);
    assertEquals(readChatChunks(encoded("openai")).choices.get(0)!.reasoning, THINKING + PLAN);
    assertEquals(readUIChunks(encoded("ui")).reasoning, THINKING + PLAN);
    const agui = readAGUIEvents(encoded("ag-ui")).messages.filter((message) => message.role === "reasoning");
    assertEquals(agui.map((message) => message.content).join(""), THINKING + PLAN);
    const thinking = readMessagesEvents(encoded("anthropic")).content.flatMap((block) =>
      block.type === "thinking" ? [block.thinking] : [],
    );
    assertEquals(thinking.join(""), THINKING + PLAN);
    const summaries = readResponsesEvents(encoded("responses")).items.flatMap((item) =>
      item.type === "reasoning" ? (item["summary"] as { text: string }[]).map((part) => part.text) : [],
    );
    assertEquals(summaries.join(""), THINKING + PLAN);
  });

  // vercel/ai's recording of command-a-reasoning (packages/cohere/src/__fixtures__/cohere-reasoning.chunks.txt).
  test("vercel/ai's recorded reasoning answer: its thinking goes back as a thinking item before the text", async () => {
    const fixture = externalFixtures.find((f) => f.provider === "cohere" && f.name === "cohere-reasoning");
    assert(fixture !== undefined, "vercel/ai's cohere-reasoning recording");
    const finish = finishOf(await run(externalBodies(fixture)));
    assertEquals(finish.reasoningParts, [{ type: "thinking", text: finish.reasoning }]);
    assert(finish.reasoning.startsWith("The user is asking for the sum of 2 and 2."), "the recorded thinking");
    assertEquals(assistantMessage("cohere", finish), {
      role: "assistant",
      content: [
        { type: "thinking", thinking: finish.reasoning },
        { type: "text", text: "The answer to 2 + 2 is 4." },
      ],
    });
  }).needs("external-fixtures");
});
