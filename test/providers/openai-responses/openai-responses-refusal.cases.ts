import fc from "fast-check";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { assistantMessage, providerKit, runToolLoop, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { RESPONSES_REFUSAL, responsesRefused } from "./refusal-recordings.ts";

// The refusal stream and where its shape comes from: refusal-recordings.ts.
const run = async (cuts: number[] = []): Promise<ToolCallEvent[]> => {
  const data = bytes(responsesRefused);
  const events = await collect(streamToolCalls(fromChunks(splitAt(data, cuts)), { provider: "openai-responses" }));
  assertEventInvariants(events, true);
  return events;
};
const PART = { type: "field", field: "refusal", value: RESPONSES_REFUSAL, id: "msg_refusal_1" } as const;

group("OpenAI Responses refusal (response.refusal.delta / .done)", (test) => {
  test("the refusal is kept whole as the turn's refusal field, not as its text, at any split", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes(responsesRefused).length - 1 }), { maxLength: 5 }),
        async (cuts) => {
          const finish = assertFinished(await run(cuts));
          assertEquals([finish.text, finish.reason], ["", "stop"]);
          assertEquals(finish.reasoningParts, [PART]);
        },
      ),
      { numRuns: 20 },
    );
  });

  test("assistantMessage and the request kit send it back as the message item's refusal part", async () => {
    const finish = assertFinished(await run());
    // The SDK's type of the item it takes back: the next turn is that literal.
    const expected: ResponseInputItem = {
      type: "message",
      id: "msg_refusal_1",
      role: "assistant",
      status: "completed",
      content: [{ type: "refusal", refusal: RESPONSES_REFUSAL }],
    };
    assertEquals(assistantMessage("openai-responses", finish), [expected]);
    const body = providerKit("openai-responses").requestBody({
      model: "gpt-4o",
      messages: [
        { role: "user", content: "Do the forbidden thing." },
        { role: "assistant", content: "", toolCalls: [], reasoningParts: finish.reasoningParts },
        { role: "user", content: "Something else, then." },
      ],
      tools: [],
    });
    assertEquals((body["input"] as unknown[])[1], expected);
  });

  test("runToolLoop ends the refused turn refused, though it finishes stop", async () => {
    const events = await collect(
      runToolLoop({
        provider: "openai-responses",
        messages: [{ role: "user", content: "Do the forbidden thing." }],
        tools: {},
        call: () => Promise.resolve(new Response(responsesRefused)),
      }),
    );
    const last = events.at(-1);
    assert(last?.type === "loop-finish", "the loop finished");
    assertEquals([last.reason, last.steps], ["refused", 1]);
  });
});
