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
