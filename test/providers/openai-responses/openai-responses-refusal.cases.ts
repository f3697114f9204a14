import fc from "fast-check";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import {
  assistantMessage,
  providerKit,
  type ReasoningPart,
  runToolLoop,
  streamToolCalls,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { REFUSAL, refused } from "../openai-chat/refusal-recordings.ts";
import { responsesSse } from "./built-in-calls-recordings.ts";
import { RESPONSES_REFUSAL, responsesRefusal, responsesRefused } from "./refusal-recordings.ts";

// The refusal stream and where its shape comes from: refusal-recordings.ts.
const run = async (cuts: number[] = [], body = responsesRefused): Promise<ToolCallEvent[]> => {
  const data = bytes(body);
  const events = await collect(streamToolCalls(fromChunks(splitAt(data, cuts)), { provider: "openai-responses" }));
  assertEventInvariants(events, true);
  return events;
};
/** The request kit's input for a refused turn (its `reasoningParts`) between two user messages. */
const nextInput = (parts: ReasoningPart[] | undefined): unknown[] =>
  providerKit("openai-responses").requestBody({
    model: "gpt-4o",
    messages: [
      { role: "user", content: "Do the forbidden thing." },
      { role: "assistant", content: "", toolCalls: [], reasoningParts: parts },
      { role: "user", content: "Something else, then." },
    ],
    tools: [],
  })["input"] as unknown[];
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

  test("a stream cut before the refusal's .done keeps what its deltas streamed, with the item's id, before the abort", async () => {
    // Cut after the first delta (5 events), after the second (6): as the text streamed before a cut is delivered.
    for (const [upTo, value] of [
      [5, "I'm sorry, "],
      [6, RESPONSES_REFUSAL],
    ] as const) {
      const events = await run([], responsesRefusal(upTo));
      assertEquals(
        events.filter((event) => event.type === "reasoning-part" || event.type === "abort").map((event) => event.type),
        ["reasoning-part", "abort"],
      );
      assertEquals(
        events.find((event) => event.type === "reasoning-part"),
        { type: "reasoning-part", part: { ...PART, value } },
        `cut after ${upTo} events`,
      );
    }
  });

  test("a refusal whose .done never came is kept whole at its item's end, or at the response's, at any split", async () => {
    const withoutDone = responsesRefusal(undefined, ["response.refusal.done"]);
    const completedOnly = responsesRefusal(undefined, ["response.refusal.done", "response.output_item.done"]);
    for (const body of [withoutDone, completedOnly])
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 1, max: bytes(body).length - 1 }), { maxLength: 5 }),
          async (cuts) => {
            const finish = assertFinished(await run(cuts, body));
            assertEquals([finish.text, finish.reason], ["", "stop"]);
            assertEquals(finish.reasoningParts, [PART]);
          },
        ),
        { numRuns: 10 },
      );
  });

  test("a refusal whose .done never came is given at its item's end, in its place before a later item", async () => {
    // The message item ends before a function_call item: the refusal goes back first, where it came.
    const at = { item_id: "msg_refusal_1", output_index: 0, content_index: 0 };
    const message = { type: "message", id: "msg_refusal_1", role: "assistant", status: "completed" };
    const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "lookup", arguments: "{}" };
    const body = responsesSse([
      { type: "response.created", response: { id: "r1", object: "response", status: "in_progress", output: [] } },
      { type: "response.output_item.added", output_index: 0, item: { ...message, content: [] } },
      { type: "response.refusal.delta", ...at, delta: RESPONSES_REFUSAL },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { ...message, content: [{ type: "refusal", refusal: RESPONSES_REFUSAL }] },
      },
      { type: "response.output_item.added", output_index: 1, item: { ...call, arguments: "" } },
      { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 1, delta: "{}" },
      { type: "response.output_item.done", output_index: 1, item: call },
      { type: "response.completed", response: { id: "r1", object: "response", status: "completed", output: [] } },
    ]);
    const finish = assertFinished(await run([], body));
    const items = assistantMessage("openai-responses", finish) as { type: string }[];
    assertEquals(
      items.map((item) => item.type),
      ["message", "function_call"],
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
    assertEquals(nextInput(finish.reasoningParts)[1], expected);
  });

  test("a refusal that came on OpenAI Chat (no item, no id) goes back to Responses as an assistant message's refusal part", async () => {
    const chat = assertFinished(await collect(streamToolCalls(fromChunks([bytes(refused)]), { provider: "openai" })));
    // No id, no status: Open Responses' AssistantMessageItemParam has both optional, and an id
    // made up would be one OpenAI never gave (it checks the ids it is given). openai-node types a
    // `refusal` part only in ResponseOutputMessage, whose `id` it requires: no SDK type here.
    const expected = { type: "message", role: "assistant", content: [{ type: "refusal", refusal: REFUSAL }] };
    assertEquals(assistantMessage("openai-responses", chat), [expected]);
    assertEquals(nextInput(chat.reasoningParts), [
      { role: "user", content: "Do the forbidden thing." },
      expected,
      { role: "user", content: "Something else, then." },
    ]);
  });

  test("refusals past maxTextLength (with their items' ids) end the stream with text-too-large, the call before them given", async () => {
    // A complete call, then message items whose refusals never end: one item's deltas, or one delta each of new items.
    const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "lookup", arguments: '{"q":"x"}' };
    const message = (id: string) => ({ type: "message", id, role: "assistant", status: "in_progress", content: [] });
    const endless = (deltas: { id: string; delta: string }[]) =>
      responsesSse([
        { type: "response.created", response: { id: "r1", object: "response", status: "in_progress", output: [] } },
        { type: "response.output_item.added", output_index: 0, item: { ...call, arguments: "" } },
        { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: call.arguments },
        { type: "response.output_item.done", output_index: 0, item: call },
        { type: "response.output_item.added", output_index: 1, item: message("msg_1") },
        ...deltas.map(({ id, delta }) => ({
          type: "response.refusal.delta",
          item_id: id,
          output_index: 1,
          content_index: 0,
          delta,
        })),
      ]);
    const check = (events: ToolCallEvent[], limit: number) => {
      assertEventInvariants(events, true);
      assertEquals(
        events.filter((event) => event.type !== "tool-call-delta").map((event) => event.type),
        ["tool-call-start", "tool-call", "error", "abort"],
      );
      const abort = events.at(-1);
      assert(abort?.type === "abort", "the stream aborted");
      assertEquals([abort.reason, abort.discarded], ["limit-exceeded", []]);
      assertEquals(abort.error, {
        code: "text-too-large",
        message: `The refusal held exceeded the limit of ${limit} characters (maxTextLength).`,
      });
    };
    const run = async (body: string, cuts: number[], maxTextLength?: number) =>
      collect(
        streamToolCalls(fromChunks(splitAt(bytes(body), cuts)), {
          provider: "openai-responses",
          ...(maxTextLength && { maxTextLength }),
        }),
      );
    // One item's 100 deltas of 10 characters, or 100 items' of one (each id of 5 or 6 counted once), past 64, at any split.
    const oneItem = endless(Array.from({ length: 100 }, () => ({ id: "msg_1", delta: "I'm sorry." })));
    const manyItems = endless(Array.from({ length: 100 }, (_, i) => ({ id: `msg_${i}`, delta: "." })));
    for (const body of [oneItem, manyItems])
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 1, max: bytes(body).length - 1 }), { maxLength: 5 }),
          async (cuts) => check(await run(body, cuts, 64), 64),
        ),
        { numRuns: 10 },
      );
    // By default, past 4 Mi characters (1,100 deltas of 4,000).
    check(
      await run(endless(Array.from({ length: 1100 }, () => ({ id: "msg_1", delta: "x".repeat(4000) }))), []),
      4194304,
    );
  });

  test("message items with a refusal count against maxToolCalls, at their first delta (each .done looks among them)", async () => {
    // Refusals of 20 new items that never end, then a .done of another: the ninth item ends the stream, not the response's end.
    const body = responsesSse([
      { type: "response.created", response: { id: "r1", object: "response", status: "in_progress", output: [] } },
      ...Array.from({ length: 20 }, (_, i) => ({
        type: "response.refusal.delta",
        item_id: `msg_${i}`,
        output_index: i,
        content_index: 0,
        delta: "No.",
      })),
      { type: "response.refusal.done", item_id: "msg_x", output_index: 20, content_index: 0, refusal: "No." },
    ]);
    const events = await collect(
      streamToolCalls(fromChunks([bytes(body)]), { provider: "openai-responses", maxToolCalls: 8 }),
    );
    const abort = events.at(-1);
    assert(abort?.type === "abort", "the stream aborted");
    assertEquals(
      [abort.reason, abort.error],
      [
        "limit-exceeded",
        {
          code: "too-many-tool-calls",
          message: "The response has more refusals than the limit of 8 (maxToolCalls) allows.",
        },
      ],
    );
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
