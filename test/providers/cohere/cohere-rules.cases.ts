import {
  assistantMessage,
  cohereToolMessages,
  providerKit,
  streamToolCalls,
  toolDefinitions,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { recording } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

/** Cohere v2 events as the API sends them: `event: <type>` and the payload with the same `type`. */
const sse = (events: readonly Record<string, unknown>[]): Uint8Array =>
  bytes(events.map((e) => `event: ${String(e["type"])}\ndata: ${JSON.stringify(e)}\n\n`).join(""));
const run = async (events: readonly Record<string, unknown>[]): Promise<ToolCallEvent[]> => {
  const out = await collect(streamToolCalls(fromChunks([sse(events)]), { provider: "cohere" }));
  assertEventInvariants(out);
  return out;
};
const start = (index: number, id: string, name: string, args = ""): Record<string, unknown> => ({
  type: "tool-call-start",
  index,
  delta: { message: { tool_calls: { id, type: "function", function: { name, arguments: args } } } },
});
const delta = (index: number, args: string): Record<string, unknown> => ({
  type: "tool-call-delta",
  index,
  delta: { message: { tool_calls: { function: { arguments: args } } } },
});
const end = (index: number): Record<string, unknown> => ({ type: "tool-call-end", index });
const messageEnd = (finish: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: "message-end",
  delta: {
    finish_reason: finish,
    usage: { billed_units: { input_tokens: 3, output_tokens: 4 }, tokens: { input_tokens: 30, output_tokens: 40 } },
    ...extra,
  },
});
const finishOf = (events: ToolCallEvent[]) => {
  const last = events.at(-1);
  assert(last?.type === "finish", "finish");
  return last;
};

group("Cohere v2 rules", (test) => {
  test("deltas are correlated by index, never by position: interleaved calls stay apart", async () => {
    const events = await run([
      { type: "message-start", id: "m1", delta: { message: { role: "assistant" } } },
      start(0, "a_1", "weather"),
      start(1, "b_2", "attractions"),
      delta(1, '{"city":'),
      delta(0, '{"location":'),
      delta(0, '"Paris"}'),
      end(0),
      delta(1, '"Rome"}'),
      end(1),
      messageEnd("TOOL_CALL"),
    ]);
    const finish = finishOf(events);
    assertEquals(
      finish.toolCalls.map((c) => [c.index, c.id, c.name, c.arguments]),
      [
        [0, "a_1", "weather", { location: "Paris" }],
        [1, "b_2", "attractions", { city: "Rome" }],
      ],
    );
    // The first call completes at its own tool-call-end, before the second one's last delta.
    const order = events.flatMap((e) =>
      e.type === "tool-call" ? [`call ${e.index}`] : e.type === "tool-call-delta" && e.index === 1 ? ["delta 1"] : [],
    );
    assertEquals(order, ["delta 1", "call 0", "delta 1", "call 1"]);
    assertEquals(
      [finish.reason, finish.rawReason, finish.usage?.inputTokens, finish.usage?.outputTokens],
      ["tool-calls", "TOOL_CALL", 30, 40],
    );
    assertEquals((finish.usage!.raw as { billed_units: unknown }).billed_units, { input_tokens: 3, output_tokens: 4 });
  });

  // The shape of a Cohere answer vercel/ai recorded (packages/cohere/src/__fixtures__/
  // issue-22070-cached-usage.chunks.txt, commit 4f0ab874): `cached_tokens` beside `tokens`, the
  // prompt tokens read from the cache, a part of `tokens.input_tokens`. It was not read.
  test("the prompt tokens served from the cache (usage.cached_tokens) are the usage's cacheReadTokens", async () => {
    const usage = {
      billed_units: { input_tokens: 7, output_tokens: 3 },
      tokens: { input_tokens: 640, output_tokens: 9 },
      cached_tokens: 576,
    };
    const events = await run([
      { type: "message-start", id: "m2", delta: { message: { role: "assistant" } } },
      { type: "content-start", index: 0, delta: { message: { content: { type: "text", text: "" } } } },
      { type: "content-delta", index: 0, delta: { message: { content: { text: "Done." } } } },
      { type: "content-end", index: 0 },
      { type: "message-end", delta: { finish_reason: "COMPLETE", usage } },
    ]);
    const finish = finishOf(events);
    assertEquals(
      [finish.usage?.inputTokens, finish.usage?.cacheReadTokens, finish.usage?.outputTokens, finish.usage?.totalTokens],
      [640, 576, 9, 649],
    );
    // Without the field, no cache count is made up.
    const plain = finishOf(await run([messageEnd("COMPLETE")]));
    assertEquals(plain.usage?.cacheReadTokens, undefined);
  });

  test("the tool plan is reasoning, not visible text, and goes back as tool_plan with the calls", async () => {
    const events = await run([
      { type: "tool-plan-delta", delta: { message: { tool_plan: "I will " } } },
      { type: "tool-plan-delta", delta: { message: { tool_plan: "look it up." } } },
      start(0, "c_1", "now"),
      end(0),
      messageEnd("TOOL_CALL"),
    ]);
    const finish = finishOf(events);
    assertEquals([finish.text, finish.reasoning, finish.toolCalls[0]!.arguments], ["", "I will look it up.", {}]);
    assertEquals(assistantMessage("cohere", finish), {
      role: "assistant",
      tool_plan: "I will look it up.",
      tool_calls: [{ id: "c_1", type: "function", function: { name: "now", arguments: "{}" } }],
    });
  });

  // The recorded turn (../shared/fixtures/cohere, command-a-03-2025: a tool plan, then two calls) through the request
  // kit, as the Worker sends its next turn, is the message assistantMessage builds, the plan as its tool_plan (cohere-ai
  // 8.1.0's AssistantMessage.toolPlan, which Cohere's tool use docs send back with the calls). Before, the kit sent the
  // calls without it: it read the turn's reasoning, where the plan streamed, for Ollama alone.
  test("the request kit sends a recorded turn's tool plan back, as assistantMessage does", async () => {
    const fixture = recording("cohere", "tool-plan-then-parallel-tool-calls");
    const finish = finishOf(await collect(streamToolCalls(fromChunks([fixture.body]), { provider: "cohere" })));
    const body = providerKit("cohere").requestBody({
      model: "command-a-03-2025",
      tools: [],
      messages: [
        { role: "user", content: "Weather and attractions in San Francisco?" },
        { role: "assistant", content: finish.text, reasoning: finish.reasoning, toolCalls: finish.toolCalls },
      ],
    });
    const sent = (body["messages"] as Record<string, unknown>[])[1];
    assertEquals(sent, assistantMessage("cohere", finish));
    assert(
      typeof sent?.["tool_plan"] === "string" && sent["tool_plan"].startsWith("I will use the weather tool"),
      "the plan",
    );
  }).needs("recordings");

  test("assistantMessage gives no message for a turn with nothing (Cohere refuses an assistant message without content, tool_calls or tool_plan)", async () => {
    const thinkingOnly = finishOf(
      await run([
        { type: "message-start", id: "m2", delta: { message: { role: "assistant" } } },
        { type: "content-start", index: 0, delta: { message: { content: { type: "thinking", thinking: "" } } } },
        { type: "content-delta", index: 0, delta: { message: { content: { thinking: "Hmm." } } } },
        { type: "content-end", index: 0 },
        messageEnd("COMPLETE"),
      ]),
    );
    const empty = finishOf(await run([messageEnd("COMPLETE")]));
    assertEquals([assistantMessage("cohere", thinkingOnly), assistantMessage("cohere", empty)], [[], []]);
  });

  test("thinking content is reasoning; text content is visible text", async () => {
    const finish = finishOf(
      await run([
        { type: "content-start", index: 0, delta: { message: { content: { type: "thinking", thinking: "" } } } },
        { type: "content-delta", index: 0, delta: { message: { content: { thinking: "Hmm." } } } },
        { type: "content-end", index: 0 },
        { type: "content-start", index: 1, delta: { message: { content: { type: "text", text: "" } } } },
        { type: "content-delta", index: 1, delta: { message: { content: { text: "Paris." } } } },
        { type: "citation-start", index: 0, delta: { message: { citations: {} } } },
        { type: "content-end", index: 1 },
        messageEnd("COMPLETE"),
      ]),
    );
    assertEquals([finish.reasoning, finish.text, finish.reason], ["Hmm.", "Paris.", "stop"]);
  });

  test("finish reasons are normalized; MAX_TOKENS leaves an open call invalid; ERROR with a message is a provider error", async () => {
    for (const [raw, reason] of [
      ["COMPLETE", "stop"],
      ["STOP_SEQUENCE", "stop"],
      ["MAX_TOKENS", "length"],
      ["ERROR", "error"],
      ["SOMETHING_NEW", "other"],
    ]) {
      assertEquals(finishOf(await run([messageEnd(raw!)])).reason, reason);
    }
    const cut = finishOf(await run([start(0, "c", "f"), delta(0, '{"a":'), messageEnd("MAX_TOKENS")]));
    assertEquals([cut.toolCalls.length, cut.invalidToolCalls.length], [0, 1]);
    const failed = await run([start(0, "c", "f"), delta(0, '{"a":'), messageEnd("ERROR", { error: "internal error" })]);
    const error = failed.find((e) => e.type === "error");
    assert(error?.type === "error" && error.error.code === "provider-error", "a provider error");
    assertEquals(error.error.data, { error: "internal error" });
  });

  test("a stream cut before message-end discards the open call", async () => {
    const events = await run([start(0, "c", "f"), delta(0, '{"a":1}')]);
    const last = events.at(-1);
    assert(
      last?.type === "abort" && last.reason === "input-ended" && last.discarded.length === 1,
      "abort with the open call discarded",
    );
  });

  test("an SDK's objects: its own keys are renamed, a cited document's and a tool output's kept", async () => {
    // cohere-ai yields camelCase envelopes (`toolCalls`, `finishReason`) but passes a document and
    // a tool output through as the application gave them.
    const document = { publishedAt: "2024-05-01", nested: { sourceUrl: "https://example.test" } };
    const toolOutput = { cityName: "Paris", readings: [{ tempC: 21 }] };
    const objects = [
      { type: "content-start", index: 0, delta: { message: { content: { type: "text", text: "" } } } },
      { type: "content-delta", index: 0, delta: { message: { content: { text: "Paris." } } } },
      {
        type: "citation-start",
        index: 0,
        delta: {
          message: {
            citations: {
              start: 0,
              end: 5,
              text: "Paris",
              sources: [
                { type: "document", id: "doc_0", document },
                { type: "tool", id: "t_0", toolOutput },
              ],
              type: "TEXT_CONTENT",
            },
          },
        },
      },
      { type: "content-end", index: 0 },
      {
        type: "tool-call-start",
        index: 1,
        delta: {
          message: {
            toolCalls: { id: "c", type: "function", function: { name: "f", arguments: '{"cityName":"Paris"}' } },
          },
        },
      },
      { type: "tool-call-end", index: 1 },
      {
        type: "message-end",
        delta: { finishReason: "TOOL_CALL", usage: { tokens: { inputTokens: 3, outputTokens: 4 } } },
      },
    ];
    const events = await collect(streamToolCalls(objects, { provider: "cohere" }));
    assertEventInvariants(events);
    const cited = events.find((event) => event.type === "reasoning-part");
    assert(cited?.type === "reasoning-part" && cited.part.type === "block", "the cited text");
    assertEquals((cited.part.block as { citations: unknown }).citations, [
      { type: "document", id: "doc_0", document },
      { type: "tool", id: "t_0", tool_output: toolOutput },
    ]);
    const finish = finishOf(events);
    assertEquals(
      [finish.reason, finish.usage?.outputTokens, finish.toolCalls[0]?.arguments],
      ["tool-calls", 4, { cityName: "Paris" }],
    );
  });

  // Cohere's error object is `{ "message": "..." }` (docs.cohere.com/reference/errors: "the response will be an error
  // object in the following shape"), which its gateway also writes as an event of no type inside a 200 stream.
  // Before, the decoder read no `type` and dropped it: the stream ended as `input-ended`, the message lost.
  test("an event of no type holding Cohere's error object is a provider-error; what came before is kept", async () => {
    const before = [
      { type: "message-start", id: "m1", delta: { message: { role: "assistant" } } },
      { type: "content-delta", index: 0, delta: { message: { content: { text: "Checking." } } } },
      start(0, "a_1", "weather", '{"city":"Oslo"}'),
      end(0),
      start(1, "b_2", "weather", '{"city":'),
    ];
    const body = `${new TextDecoder().decode(sse(before))}data: {"message":"internal server error"}\n\n`;
    const events = await collect(streamToolCalls(fromChunks([bytes(body)]), { provider: "cohere" }));
    assertEventInvariants(events);
    assertEquals(
      events.flatMap((e) =>
        e.type === "text-delta"
          ? [["text", e.text]]
          : e.type === "tool-call"
            ? [["call", e.id, e.arguments]]
            : e.type === "error"
              ? [["error", e.error.code, e.error.data]]
              : e.type === "abort"
                ? [["abort", e.reason, e.discarded.map((call) => call.id)]]
                : [],
      ),
      [
        ["text", "Checking."],
        ["call", "a_1", { city: "Oslo" }],
        ["error", "provider-error", { message: "internal server error" }],
        ["abort", "provider-error", ["b_2"]],
      ],
    );
  });

  test("tool results are tool messages; tools use the Chat Completions shape", () => {
    assertEquals(cohereToolMessages([{ call: { id: "c_1", name: "now" }, output: { time: "12:00" } }]), [
      { role: "tool", tool_call_id: "c_1", content: '{"time":"12:00"}' },
    ]);
    assertEquals(toolDefinitions("cohere", { now: { run: () => "" } }), [
      { type: "function", function: { name: "now", parameters: { type: "object", properties: {} } } },
    ]);
  });
});
