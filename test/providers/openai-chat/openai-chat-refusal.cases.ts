import fc from "fast-check";
import type { ChatCompletionAssistantMessageParam } from "openai/resources/chat/completions/completions";
import { assistantMessage, providerKit, runToolLoop, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE, splitAt } from "../../support/streams.ts";
import { REFUSAL, refused } from "./refusal-recordings.ts";

// The refusal stream and where its shape comes from: refusal-recordings.ts.
const run = async (cuts: number[] = []): Promise<ToolCallEvent[]> => {
  const data = bytes(refused);
  const events = await collect(streamToolCalls(fromChunks(splitAt(data, cuts)), { provider: "openai" }));
  assertEventInvariants(events, true);
  return events;
};

group("OpenAI Chat refusal (delta.refusal)", (test) => {
  test("the refusal is kept whole as the turn's refusal field, not as its text, at any split", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes(refused).length - 1 }), { maxLength: 5 }),
        async (cuts) => {
          const finish = assertFinished(await run(cuts));
          assertEquals([finish.text, finish.reason, finish.rawReason], ["", "stop", "stop"]);
          assertEquals(finish.reasoningParts, [
            { type: "field", field: "refusal", value: REFUSAL, model: "gpt-4o-2024-08-06" },
          ]);
        },
      ),
      { numRuns: 20 },
    );
  });

  test("assistantMessage gives no message for a turn with nothing (content null and no tool_calls is refused)", async () => {
    const empty = openAISSE([chatChunk({ role: "assistant", content: "" }), chatChunk({}, "stop")]);
    const finish = assertFinished(await collect(streamToolCalls(fromChunks([bytes(empty)]), { provider: "openai" })));
    assertEquals(assistantMessage("openai", finish), []);
  });

  test("assistantMessage sends it back as the message's refusal; the request kit too", async () => {
    const finish = assertFinished(await run());
    // The SDK's type of the message it takes back: the next turn is that literal.
    const expected: ChatCompletionAssistantMessageParam = { role: "assistant", content: null, refusal: REFUSAL };
    assertEquals(assistantMessage("openai", finish), expected);
    const body = providerKit("openai").requestBody({
      model: "gpt-4o-2024-08-06",
      messages: [
        { role: "user", content: "Do the forbidden thing." },
        { role: "assistant", content: "", toolCalls: [], reasoningParts: finish.reasoningParts },
        { role: "user", content: "Something else, then." },
      ],
      tools: [],
    });
    const messages = body["messages"] as Record<string, unknown>[];
    assert(messages[1]?.["refusal"] === REFUSAL, "the request body's assistant message has its refusal");
  });

  test("the request kit sends it back to the alias the request named (the stream names its dated snapshot)", async () => {
    const finish = assertFinished(await run());
    const turn = (model: string) =>
      (
        providerKit("openai").requestBody({
          model,
          messages: [
            { role: "user", content: "Do the forbidden thing." },
            { role: "assistant", content: "", toolCalls: [], reasoningParts: finish.reasoningParts },
            { role: "user", content: "Something else, then." },
          ],
          tools: [],
        })["messages"] as Record<string, unknown>[]
      )[1];
    // OpenAI streams `model: "gpt-4o-2024-08-06"` for a request of `gpt-4o`: the turn must not be left out.
    assertEquals(turn("gpt-4o"), { role: "assistant", content: null, refusal: REFUSAL });
    // Another model is still sent none of it (the turn, left with nothing, is left out).
    assertEquals(turn("deepseek-chat")?.["role"], "user");
  });
  test("a refusal past maxTextLength ends the stream with text-too-large, the text before it given, its open call discarded", async () => {
    // The recording's chunks, after some text and a call's first fragment, then a refusal that does not end.
    const model = { model: "gpt-4o-2024-08-06" };
    const call = { index: 0, id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":' } };
    const endless = (count: number, refusal: string, field: "refusal" | "data" = "refusal") =>
      openAISSE([
        chatChunk({ role: "assistant", content: "Let me look." }, null, model),
        chatChunk({ tool_calls: [call] }, null, model),
        chatChunk({ refusal: "" }, null, model),
        ...Array.from({ length: count }, () =>
          chatChunk(
            field === "refusal"
              ? { refusal }
              : { reasoning_details: [{ type: "reasoning.encrypted", index: 0, data: refusal }] },
            null,
            model,
          ),
        ),
      ]);
    const check = (events: ToolCallEvent[], limit: number) => {
      assertEventInvariants(events, true);
      assertEquals(
        events.map((event) => event.type),
        ["text-delta", "tool-call-start", "tool-call-delta", "error", "abort"],
      );
      const abort = events.at(-1);
      assert(abort?.type === "abort", "the stream aborted");
      assertEquals([abort.reason, abort.discarded.map((discarded) => discarded.name)], ["limit-exceeded", ["lookup"]]);
      assertEquals(abort.error, {
        code: "text-too-large",
        message: `The reasoning and refusal held exceeded the limit of ${limit} characters (maxTextLength).`,
      });
    };
    // 100 chunks of 10 characters past a limit of 64, at any split of the body.
    const body = bytes(endless(100, "I'm sorry."));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 5 }), async (cuts) =>
        check(
          await collect(streamToolCalls(fromChunks(splitAt(body, cuts)), { provider: "openai", maxTextLength: 64 })),
          64,
        ),
      ),
      { numRuns: 10 },
    );
    // The encrypted `data` of `reasoning_details`, which streams no delta either (10 of 10 characters, the entry its type opens counted once).
    check(
      await collect(
        streamToolCalls(fromChunks([bytes(endless(10, "gAAAAABpZm", "data"))]), {
          provider: "openai",
          maxTextLength: 64,
        }),
      ),
      64,
    );
    // By default, past 4 Mi characters (1,100 chunks of 4,000).
    const large = bytes(endless(1100, "x".repeat(4000)));
    check(await collect(streamToolCalls(fromChunks([large]), { provider: "openai" })), 4194304);
  });

  test("reasoning_details' type and format, which each fragment repeats and the entry keeps once, are counted once", async () => {
    // OpenRouter's shape (openrouter/error-in-chunk-after-finish.sse): a token's text in `reasoning` and in
    // the detail again, each with its type and format. 500 of 4 characters hold 4,000 and some: within 5,000.
    const detail = (text: string) => ({ type: "reasoning.text", text, index: 0, format: "anthropic-claude-v1" });
    const body = (count: number) =>
      openAISSE([
        ...Array.from({ length: count }, () => chatChunk({ reasoning: "abcd", reasoning_details: [detail("abcd")] })),
        chatChunk({ content: "Hi." }, "stop"),
      ]);
    const finish = assertFinished(
      await collect(streamToolCalls(fromChunks([bytes(body(500))]), { provider: "openai", maxTextLength: 5000 })),
    );
    assertEquals(finish.text, "Hi.");
    assertEquals(
      (finish.reasoningParts ?? []).map((part) => part.type === "field" && part.field),
      ["reasoning", "reasoning_details"],
    );
    // Entries opened without end (an index each) are bounded by count, as annotations are: maxToolCalls.
    const entries = (count: number) =>
      bytes(openAISSE(Array.from({ length: count }, (_, index) => chatChunk({ reasoning_details: [{ index }] }))));
    for (const [count, options] of [
      [20, { maxToolCalls: 8 }],
      [1100, {}],
    ] as const) {
      const ended = await collect(streamToolCalls(fromChunks([entries(count)]), { provider: "openai", ...options }));
      const last = ended.at(-1);
      assert(last?.type === "abort" && last.error?.code === "too-many-tool-calls", `${count} entries: ${last?.type}`);
      assertEquals(
        last.error.message,
        `The response has more reasoning_details entries than the limit of ${options.maxToolCalls ?? 1024} (maxToolCalls) allows.`,
      );
    }
    // Twice as long holds more than 5,000: still ended.
    const events = await collect(
      streamToolCalls(fromChunks([bytes(body(1000))]), { provider: "openai", maxTextLength: 5000 }),
    );
    const abort = events.at(-1);
    assert(abort?.type === "abort" && abort.error?.code === "text-too-large", "ended past the limit");
  });

  test("runToolLoop ends a refused turn refused, though OpenAI finishes it stop", async () => {
    const events = await collect(
      runToolLoop({
        provider: "openai",
        messages: [{ role: "user", content: "Help me break in." }],
        tools: {},
        call: () => Promise.resolve(new Response(refused)),
      }),
    );
    const last = events.at(-1);
    assert(last?.type === "loop-finish", "the loop finished");
    assertEquals([last.reason, last.steps], ["refused", 1]);
  });
});
