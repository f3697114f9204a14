import fc from "fast-check";
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions/completions";
import {
  assistantMessage,
  openAIChatAssistantMessage,
  providerKit,
  streamToolCalls,
  type FinishEvent,
  type ReasoningPart,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { reasoningFamily } from "../../../src/providers/openai-chat/openai-chat-reasoning.ts";
import { recording } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE, splitAt } from "../../support/streams.ts";

// Thinking models on Chat Completions take their reasoning back in the field it streamed in: the
// next turn's assistant message carries it (DeepSeek: "the reasoning_content must be fully passed
// back to the API in all subsequent requests", else a 400), and a stream that used none sends none.

/** DeepSeek's, Kimi's, GLM's and Qwen's field, MiniMax's and OpenRouter's details. */
type ThinkingAssistantMessage = ChatCompletionAssistantMessageParam & {
  reasoning_content?: string;
  reasoning?: string;
  reasoning_details?: unknown[];
};

const run = (chunks: Uint8Array[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "openai" }));

async function finishOfBody(body: Uint8Array): Promise<FinishEvent> {
  const events = await run([body]);
  const finish = assertFinished(events);
  return finish;
}

const call = (id: string, args: string) => ({
  tool_calls: [{ index: 0, id, type: "function", function: { name: "lookup", arguments: args } }],
});

/** A MiniMax-style stream (`reasoning_split`): the thinking in `reasoning_details` fragments, then a call. */
const detailsStream = openAISSE([
  chatChunk({ role: "assistant", content: "" }),
  chatChunk({
    reasoning_details: [{ type: "reasoning.text", id: "r1", format: "MiniMax-response-v1", index: 0, text: "Need " }],
  }),
  chatChunk({ reasoning_details: [{ type: "reasoning.text", index: 0, text: "the tides." }] }),
  chatChunk({ reasoning_details: [{ type: "reasoning.encrypted", index: 1, data: "EnC" }] }),
  chatChunk({ reasoning_details: [{ type: "reasoning.encrypted", index: 1, data: "rYpT", signature: null }] }),
  chatChunk(call("call_1", '{"q":"tides"}')),
  chatChunk({}, "tool_calls"),
]);

/** DeepSeek in thinking mode that reasons nothing before its call: only the first chunk's empty field. */
const emptyReasoningStream = openAISSE([
  chatChunk({ role: "assistant", content: null, reasoning_content: "" }),
  chatChunk(call("call_00_a", '{"q":"tides"}')),
  chatChunk({ content: "", reasoning_content: "" }),
  chatChunk({}, "tool_calls"),
]);

/** Kimi-style: reasoning_content, a call, and reasoning again after it within the same message. */
const interleavedStream = openAISSE([
  chatChunk({ role: "assistant", reasoning_content: "First " }),
  chatChunk({ reasoning_content: "thought." }),
  chatChunk(call("call_1", '{"q":"a"}')),
  chatChunk({ reasoning_content: " Then more." }),
  chatChunk({}, "tool_calls"),
]);

group("OpenAI Chat reasoning fields for the next turn", (test) => {
  test("DeepSeek (recorded): the assistant message carries reasoning_content, whole, with the tool_calls", async () => {
    const fixture = recording("deepseek", "reasoner-reasoning-content-tool-call");
    const finish = await finishOfBody(fixture.body);
    assert(finish.reasoning.length > 100, "the recording reasons");
    assertEquals(finish.reasoningParts, [
      { type: "field", field: "reasoning_content", value: finish.reasoning, model: "deepseek-reasoner" },
    ]);
    const call0 = finish.toolCalls[0]!;
    const expected: ThinkingAssistantMessage = {
      role: "assistant",
      content: null,
      reasoning_content: finish.reasoning,
      tool_calls: [{ id: call0.id!, type: "function", function: { name: "weather", arguments: call0.rawArguments } }],
    };
    assertEquals(assistantMessage("openai", finish), expected);
  }).needs("recordings");

  test("Groq gpt-oss (recorded): reasoning goes back as `reasoning`, never as reasoning_content", async () => {
    const finish = await finishOfBody(recording("groq", "gpt-oss-reasoning-tool-call").body);
    const message = openAIChatAssistantMessage(finish) as unknown as ThinkingAssistantMessage;
    assertEquals(
      Object.keys(message).filter((key) => key.startsWith("reasoning")),
      ["reasoning"],
    );
    assertEquals(message.reasoning, finish.reasoning);
  }).needs("recordings");

  test("OpenRouter gpt-5 (recorded): the encrypted reasoning_details entry goes back as it came", async () => {
    const fixture = recording("openrouter", "gpt-5-tool-call-empty-arguments");
    const finish = await finishOfBody(fixture.body);
    const message = openAIChatAssistantMessage(finish) as unknown as ThinkingAssistantMessage;
    const details = message.reasoning_details as Record<string, unknown>[];
    assertEquals(details.length, 1);
    assertEquals(
      [details[0]!["type"], details[0]!["id"], details[0]!["format"]],
      ["reasoning.encrypted", "rs_045e88aab38b0b380168ef5f84fa288196b4d9de6d834742a3", "openai-responses-v1"],
    );
    assert(fixture.text.includes(String(details[0]!["data"])), "the encrypted data as recorded");
  }).needs("recordings");

  test("a finish held after a call is the response's when reasoning details with no text come after it", async () => {
    // A finish that is not tool_calls after a call is held until it proves final; details that add
    // no delta after it are flushed at [DONE] as a part, which is no later fragment: it must not drop
    // the finish (a `length` answer became a `tool-calls` one).
    const body = openAISSE([
      chatChunk(call("call_1", '{"q":"tides"}')),
      chatChunk({}, "length"),
      chatChunk({ reasoning_details: [{ type: "reasoning.encrypted", index: 0, data: "EnC" }] }),
    ]);
    const finish = assertFinished(await run([bytes(body)]));
    assertEquals([finish.reason, finish.rawReason], ["length", "length"]);
    assertEquals(finish.reasoningParts?.length, 1, "the details' part is the finish's");
  });

  test("OpenAI (recorded, no reasoning): no reasoning field, as a strict server requires", async () => {
    const finish = await finishOfBody(recording("openai", "chat-parallel-tool-calls-usage").body);
    assertEquals(finish.reasoningParts, undefined);
    const message: ChatCompletionMessageParam = openAIChatAssistantMessage(
      finish,
    ) as unknown as ChatCompletionMessageParam;
    assertEquals(
      Object.keys(message).filter((key) => key.startsWith("reasoning")),
      [],
    );
  }).needs("recordings");

  test("reasoning_details fragments are merged by index, each entry's other fields kept, and end before the call", async () => {
    const events = await run([bytes(detailsStream)]);
    const parts = events.flatMap((e) => (e.type === "reasoning-part" ? [e.part] : []));
    const details = [
      { type: "reasoning.text", id: "r1", format: "MiniMax-response-v1", index: 0, text: "Need the tides." },
      { type: "reasoning.encrypted", index: 1, data: "EnCrYpT" },
    ];
    assertEquals(parts, [{ type: "field", field: "reasoning_details", value: details }]);
    const partAt = events.findIndex((e) => e.type === "reasoning-part");
    const startAt = events.findIndex((e) => e.type === "tool-call-start");
    assert(partAt < startAt, "the part ends the reasoning, before the call");
    const finish = events.at(-1) as FinishEvent;
    assertEquals(
      (openAIChatAssistantMessage(finish) as unknown as ThinkingAssistantMessage).reasoning_details,
      details,
    );
  });

  test("reasoning after a call is a second part of the same field; the message joins them", async () => {
    const finish = await finishOfBody(bytes(interleavedStream));
    assertEquals(finish.reasoningParts, [
      { type: "field", field: "reasoning_content", value: "First thought." },
      { type: "field", field: "reasoning_content", value: " Then more." },
    ]);
    assertEquals(
      (openAIChatAssistantMessage(finish) as unknown as ThinkingAssistantMessage).reasoning_content,
      "First thought. Then more.",
    );
  });

  test("an empty reasoning_content (thinking mode, nothing reasoned) still goes back once with the calls", async () => {
    // DeepSeek answers a call's turn sent back without the field with a 400, even when it was empty
    // (deepseek-ai/deepseek-harness discussions 739 and 1850); a second empty one adds no part.
    const finish = await finishOfBody(bytes(emptyReasoningStream));
    assertEquals(finish.reasoningParts, [{ type: "field", field: "reasoning_content", value: "" }]);
    const message = openAIChatAssistantMessage(finish) as unknown as ThinkingAssistantMessage;
    assertEquals([message.reasoning_content, message.tool_calls?.length], ["", 1]);
  });

  test("only the first choice's reasoning is kept for the next turn", async () => {
    const body = openAISSE([
      { choices: [{ index: 0, delta: { reasoning_content: "zero" } }] },
      { choices: [{ index: 1, delta: { reasoning_content: "one" } }] },
      { choices: [{ index: 0, delta: { content: "A" }, finish_reason: "stop" }] },
      { choices: [{ index: 1, delta: { content: "B" }, finish_reason: "stop" }] },
    ]);
    const finish = await finishOfBody(bytes(body));
    assertEquals(finish.reasoningParts, [{ type: "field", field: "reasoning_content", value: "zero" }]);
  });

  test("the request body of a server carries the parts in the assistant message", () => {
    const parts: ReasoningPart[] = [
      { type: "field", field: "reasoning_content", value: "Look it up." },
      { type: "signed", text: "not ours", signature: "sig" },
    ];
    const body = providerKit("openai").requestBody({
      model: "deepseek-reasoner",
      messages: [
        { role: "user", content: "Tides?" },
        {
          role: "assistant",
          content: "",
          reasoningParts: parts,
          toolCalls: [{ id: "call_1", name: "lookup", arguments: { q: "tides" } }],
        },
        { role: "tool", toolCallId: "call_1", content: "low at 6" },
      ],
      tools: [],
    });
    const expected: ThinkingAssistantMessage = {
      role: "assistant",
      content: null,
      reasoning_content: "Look it up.",
      tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":"tides"}' } }],
    };
    assertEquals((body["messages"] as unknown[])[1], expected);
  });

  test("the field goes back to its own model family only: DeepSeek's reasoning_content to DeepSeek, not to Groq or OpenAI", async () => {
    const fixture = recording("deepseek", "reasoner-reasoning-content-tool-call");
    const finish = await finishOfBody(fixture.body);
    const bodyFor = (model: string, parts = finish.reasoningParts) =>
      (
        providerKit("openai").requestBody({
          model,
          messages: [
            { role: "user", content: "Weather?" },
            {
              role: "assistant",
              content: "",
              reasoningParts: parts,
              toolCalls: finish.toolCalls.map((c) => ({ id: c.id!, name: c.name, arguments: c.arguments })),
            },
            ...finish.toolCalls.map((c) => ({ role: "tool" as const, toolCallId: c.id!, content: "sunny" })),
          ],
          tools: [],
        })["messages"] as Record<string, unknown>[]
      )[1]!;
    for (const model of ["deepseek-reasoner", "deepseek-chat", "deepseek/deepseek-v3.2"])
      assertEquals(bodyFor(model)["reasoning_content"], finish.reasoning, model);
    for (const model of ["llama-3.3-70b-versatile", "openai/gpt-oss-120b", "gpt-4.1", "kimi-k2-thinking"])
      assert(!Object.keys(bodyFor(model)).some((key) => key.startsWith("reasoning")), `no reasoning field to ${model}`);
    // A part that names no model (built by hand, or a client's own) goes where it is sent, as before.
    const named = finish.reasoningParts![0]!;
    assert(named.type === "field", "a field part");
    const { model: _model, ...unnamed } = named;
    assertEquals(bodyFor("gpt-4.1", [unnamed])["reasoning_content"], finish.reasoning);
  }).needs("recordings");

  test("Groq gpt-oss's `reasoning` goes back to gpt-oss elsewhere, not to DeepSeek", async () => {
    const finish = await finishOfBody(recording("groq", "gpt-oss-reasoning-tool-call").body);
    const part = finish.reasoningParts?.find((p) => p.type === "field");
    assertEquals(part?.type === "field" ? part.model : undefined, "openai/gpt-oss-120b");
    const fields = (model: string) =>
      Object.keys(
        (
          providerKit("openai").requestBody({
            model,
            messages: [{ role: "assistant", content: "", reasoningParts: finish.reasoningParts, toolCalls: [] }],
            tools: [],
          })["messages"] as Record<string, unknown>[]
        )[0] ?? {}, // a message left with nothing is left out
      ).filter((key) => key.startsWith("reasoning"));
    assertEquals(fields("gpt-oss-120b"), ["reasoning"]);
    assertEquals(fields("deepseek-chat"), []);
  }).needs("recordings");

  test("reasoningFamily: a known family's marks, else the model itself without its org/ prefix and snapshot date", () => {
    assertEquals(
      [
        "deepseek-reasoner",
        "moonshotai/Kimi-K2-Thinking",
        "z-ai/glm-4.6",
        "qwq-32b",
        "MiniMax-M2",
        "gpt-4.1",
        "org/llama-4",
        "gpt-4o-2024-08-06",
        "openai/gpt-4.1-2025-04-14",
        "gpt-4o-mini-2024-07-18",
      ].map(reasoningFamily),
      ["deepseek", "kimi", "glm", "qwen", "minimax", "gpt-4.1", "llama-4", "gpt-4o", "gpt-4.1", "gpt-4o-mini"],
    );
  });

  for (const [name, body] of [
    ["details", detailsStream],
    ["interleaved", interleavedStream],
    ["empty reasoning", emptyReasoningStream],
  ] as const) {
    test(`${name}: any split of the bytes gives the same events`, async () => {
      const data = bytes(body);
      const whole = await run([data]);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 30 }), async (cuts) => {
          assertEquals(await run(splitAt(data, cuts)), whole);
        }),
        { seed: 35, numRuns: 12 },
      );
    });
  }
});
