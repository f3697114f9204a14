// The turn's text and reasoning, which the main entry's streamToolCalls holds for the finish (and
// so for the next turn's assistant message), are bounded by `maxTextLength` (4 Mi characters by
// default, as the encoders' answers are): past it, an `error` of code `text-too-large`, an `abort`
// of reason `limit-exceeded` listing the open calls as discarded, and the body cancelled, every
// delta before it delivered. They grew without a bound of their own: a provider streaming text
// without end grew them until the process ran out of memory. The streams are OpenAI Chat chunks
// in the shapes of test/providers/openai-chat's cases (a DeepSeek-style `reasoning_content`).
import fc from "fast-check";
import { DEFAULT_MAX_TEXT_LENGTH, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../support/invariants.ts";
import { bytes, chatChunk, collect, openAISSE, splitAt } from "../support/streams.ts";

const call = { index: 0, id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":' } };
/** "Hello " (6), reasoning "abc" (3), a call begun, "world" (5): 14 characters of text and reasoning. */
const BODY = openAISSE([
  chatChunk({ role: "assistant", content: "Hello " }),
  chatChunk({ reasoning_content: "abc" }),
  chatChunk({ tool_calls: [call] }),
  // A second choice's text is not the turn's: not held, not counted.
  { id: "chatcmpl-test", choices: [{ index: 1, delta: { content: "x".repeat(40) }, finish_reason: null }] },
  chatChunk({ content: "world" }),
  chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"tides"}' } }] }, "tool_calls"),
]);

/**
 * `chunks`, then a keep-alive, as a body read by the main entry's streamToolCalls; why the body was
 * cancelled, if it was (read on demand alone, so it is still open when the chain stops before its
 * end, or after the provider's end, `[DONE]`).
 */
async function run(chunks: Uint8Array[], maxTextLength?: number): Promise<[ToolCallEvent[], unknown]> {
  let cancelled: unknown;
  let i = 0;
  const all = [...chunks, bytes(": keep-alive\n\n")];
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (i < all.length) controller.enqueue(all[i++]!);
        else controller.close();
      },
      cancel: (reason) => void (cancelled = reason ?? true),
    },
    { highWaterMark: 0 },
  );
  const events = await collect(streamToolCalls(body, { provider: "openai", maxTextLength }));
  assertEventInvariants(events, false);
  return [events, cancelled];
}

group("the turn's text bounded by maxTextLength", (test) => {
  test("past it: text-too-large and an abort, everything before delivered, the open call discarded, the body cancelled (any split)", async () => {
    const data = bytes(BODY);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 6 }), async (cuts) => {
        const [events, cancelled] = await run(splitAt(data, cuts), 13);
        const said = events.flatMap((e) => (e.type === "text-delta" && !e.choice ? [e.text] : []));
        const thought = events.flatMap((e) => (e.type === "reasoning-delta" ? [e.text] : []));
        assertEquals([said.join(""), thought.join("")], ["Hello ", "abc"]);
        const [error, abort] = events.slice(-2);
        assert(error?.type === "error" && error.error.code === "text-too-large", JSON.stringify(error));
        assertEquals(
          error.error.message,
          "The turn's text and reasoning exceeded the limit of 13 characters (maxTextLength).",
        );
        assert(abort?.type === "abort" && abort.reason === "limit-exceeded", JSON.stringify(abort));
        assertEquals(
          abort.discarded.map((c) => c.id),
          ["call_1"],
        );
        // The rest of the body is not read: the provider stops generating.
        assert(cancelled !== undefined && !String(cancelled).includes("response ended"), String(cancelled));
      }),
    );
  });

  test("at it: the turn finishes whole", async () => {
    const [events, cancelled] = await run([bytes(BODY)], 14);
    // Read to the provider's end (`[DONE]`): only what the body holds after it is not read.
    assert(String(cancelled).includes("response ended"), String(cancelled));
    const finish = assertFinished(events);
    assertEquals(
      [finish.text, finish.reasoning, finish.toolCalls.map((c) => c.arguments)],
      ["Hello world", "abc", [{ q: "tides" }]],
    );
  });

  test("by default DEFAULT_MAX_TEXT_LENGTH (4 Mi characters)", async () => {
    const half = "y".repeat(DEFAULT_MAX_TEXT_LENGTH / 2);
    const body = bytes(
      openAISSE([chatChunk({ content: half }), chatChunk({ content: `${half}z` }), chatChunk({}, "stop")]),
    );
    const [events] = await run([body]);
    const error = events.find((e) => e.type === "error");
    assertEquals(error?.type === "error" ? error.error.code : undefined, "text-too-large");
    assertEquals(events.filter((e) => e.type === "text-delta").length, 1);
    const [atLimit] = await run([
      bytes(openAISSE([chatChunk({ content: half }), chatChunk({ content: half }), chatChunk({}, "stop")])),
    ]);
    assertEquals(assertFinished(atLimit).text.length, DEFAULT_MAX_TEXT_LENGTH);
  });
});
