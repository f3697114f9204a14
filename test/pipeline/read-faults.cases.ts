import fc from "fast-check";
import { streamToolCalls, type Provider, type ToolCallEvent } from "../../src/index.ts";
import { REFUSAL, refused } from "../providers/openai-chat/refusal-recordings.ts";
import { RESPONSES_REFUSAL, responsesRefusal } from "../providers/openai-responses/refusal-recordings.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { recordingSource } from "../support/sources.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE, STOP_AFTER_EACH_FRAGMENT } from "../support/streams.ts";

/**
 * A body whose reader fails (a network error: the read rejects, as opposed to the body ending)
 * gives what the same body cut there gives, then the failure's `error` and an `abort`: what the
 * decoder holds until a later event (a refusal, reasoning fields, a finish held back, events held
 * for their order) is not lost to the kind of fault.
 */

/** The events of `body`'s first `at` bytes, the body ending there (`cut`) or its reader failing there (`failed`). */
async function cutAndFailed(
  provider: Provider | undefined,
  body: Uint8Array,
  at: number,
): Promise<{ cut: ToolCallEvent[]; failed: ToolCallEvent[] }> {
  const head = body.slice(0, at);
  const cut = await collect(streamToolCalls(fromChunks([head]), { provider }));
  const source = recordingSource([head], new TypeError("network connection lost"));
  return { cut, failed: await collect(streamToolCalls(source.stream, { provider })) };
}

const callKey = (event: { index: number; choice?: number | undefined }): string =>
  `${event.choice ?? 0}:${event.index}`;

/**
 * The failed run gives the cut run's events, then `error` and `abort` (`stream-failed`) instead of
 * its end: a call the cut run's `finish` completed (the provider's finish came, its `[DONE]` did
 * not) is listed as discarded instead. A run whose provider ended before the fault (its end, or
 * its in-stream error) is the same.
 */
function assertCutThenError(cut: ToolCallEvent[], failed: ToolCallEvent[], where: string): void {
  const last = failed.at(-1);
  // The provider's end (its finish, or its in-stream error, which ends the response) came before the fault.
  if (last?.type === "finish" || (last?.type === "abort" && last.reason === "provider-error"))
    return assertEquals(failed, cut, `${where}: the provider ended before the fault`);
  assert(
    last?.type === "abort" && last.reason === "stream-failed",
    `${where}: ends with an abort of reason stream-failed`,
  );
  const error = failed.at(-2);
  assert(error?.type === "error" && error.error.code === "stream-failed", `${where}: the failure's error before it`);
  const discarded = new Set(last.discarded.map(callKey));
  const completedAtFinish = (e: ToolCallEvent): boolean =>
    (e.type === "tool-call" || e.type === "invalid-tool-call") && discarded.has(callKey(e));
  const end = cut.at(-1);
  const given = cut.slice(0, -1).filter((e) => end?.type === "abort" || !completedAtFinish(e));
  assertEquals(failed.slice(0, -2), given, `${where}: the cut body's events come first, all of them`);
  if (end?.type === "abort") assertEquals(last.discarded, end.discarded, `${where}: the same calls discarded`);
}

group("Read faults (every recorded stream, every provider): what a cut body gives, then the error", (test) => {
  for (const fixture of allFixtures) {
    const provider = supportedProvider(fixture);
    if (!provider) continue;
    test(`${fixture.provider}/${fixture.name}: the reader fails after any byte`, async () => {
      const data = fixture.body;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: data.length }), async (at) => {
          const { cut, failed } = await cutAndFailed(provider, data, at);
          assertCutThenError(cut, failed, `byte ${at}`);
        }),
        { seed: 34, numRuns: 16 },
      );
    });
  }
});

/** The byte offsets of a body's SSE event ends (after each blank line). */
const eventEnds = (text: string): number[] =>
  [...text.matchAll(/\n\n/g)].map((m) => bytes(text.slice(0, m.index + 2)).length);

/** The `refusal` field parts of a run's events. */
const refusals = (events: readonly ToolCallEvent[]): unknown[] =>
  events.flatMap((e) =>
    e.type === "reasoning-part" && e.part.type === "field" && e.part.field === "refusal" ? [e.part] : [],
  );

/** At any byte, a failed read gives the cut body's events then the error, and at most one refusal part: `whole` as far as it came. */
const refusalAtAnyByte = (provider: Provider, body: Uint8Array, whole: string): Promise<void> =>
  fc.assert(
    fc.asyncProperty(fc.integer({ min: 0, max: body.length }), async (at) => {
      const { cut, failed } = await cutAndFailed(provider, body, at);
      assertCutThenError(cut, failed, `byte ${at}`);
      const parts = refusals(failed) as { value: string }[];
      assert(
        parts.length <= 1 && parts.every((p) => whole.startsWith(p.value)),
        `byte ${at}: one refusal, as far as it came`,
      );
    }),
    { seed: 34, numRuns: 24 },
  );

group("Read faults: held refusals, reasoning and ordered events are given before the error", (test) => {
  test("OpenAI Responses: a refusal whose reader fails before its .done keeps what its deltas streamed, with its item's id", async () => {
    const body = bytes(responsesRefusal(6)); // the item, its content part, both deltas: no .done
    const { cut, failed } = await cutAndFailed("openai-responses", body, body.length);
    assertEquals(refusals(failed), [
      { type: "field", field: "refusal", value: RESPONSES_REFUSAL, id: "msg_refusal_1" },
    ]);
    assertCutThenError(cut, failed, "after the second delta");
    await refusalAtAnyByte("openai-responses", body, RESPONSES_REFUSAL);
  });

  test("OpenAI Responses: text held behind a sequence gap goes out (after the gap's report) before the failure", async () => {
    const text = (delta: string, sequence_number: number) => ({
      type: "response.output_text.delta",
      item_id: "msg_1",
      output_index: 0,
      content_index: 0,
      delta,
      sequence_number,
    });
    const body = bytes(openAISSE([text("Hello", 0), text(" world", 2)], false)); // 1 never comes
    const { cut, failed } = await cutAndFailed("openai-responses", body, body.length);
    assertEquals(
      failed.flatMap((e) => (e.type === "text-delta" ? [e.text] : e.type === "error" ? [e.error.code] : [])),
      ["Hello", "sequence-gap", " world", "stream-failed"],
    );
    assertCutThenError(cut, failed, "after the second delta");
  });

  test("OpenAI Chat: a refusal cut before its finish is given, by a cut body and by a failed read, at any byte", async () => {
    const body = bytes(refused);
    const [, , third] = eventEnds(refused); // the role chunk and both refusal chunks: no finish
    for (const make of [fromChunks, (chunks: Uint8Array[]) => recordingSource(chunks, new TypeError("lost")).stream]) {
      const events = await collect(streamToolCalls(make([body.slice(0, third)]), { provider: "openai" }));
      assertEquals(refusals(events), [{ type: "field", field: "refusal", value: REFUSAL, model: "gpt-4o-2024-08-06" }]);
      assert(events.at(-1)?.type === "abort", "the cut turn is reported as cut");
    }
    await refusalAtAnyByte("openai", body, REFUSAL);
  });

  test("OpenAI Chat: reasoning_content cut before the text keeps its field part, whose text its deltas gave", async () => {
    const sse = openAISSE(
      [
        chatChunk({ role: "assistant", content: null, reasoning_content: "The user " }, null, {
          model: "deepseek-reasoner",
        }),
        chatChunk({ reasoning_content: "wants the weather." }, null, { model: "deepseek-reasoner" }),
      ],
      false,
    );
    const body = bytes(sse);
    const { cut, failed } = await cutAndFailed("openai", body, body.length);
    const reasoning = failed.flatMap((e) => (e.type === "reasoning-delta" ? [e.text] : [])).join("");
    assertEquals(
      failed.filter((e) => e.type === "reasoning-part").map((e) => e.type === "reasoning-part" && e.part),
      [{ type: "field", field: "reasoning_content", value: reasoning, model: "deepseek-reasoner" }],
    );
    assertCutThenError(cut, failed, "after the reasoning");
  });

  test("OpenAI Chat: a finish held after a call (it may not be final) is dropped on a failed read: the call is discarded, never completed", async () => {
    // A gateway that sends `finish_reason: "stop"` after every chunk (OpenWebUI before vLLM): on a
    // cut body the held finish ends the turn; on a failed read nothing proved it final, so a call
    // half received (closed by repair after a normal finish: `rm -rf /tmp/fo` run) is not given.
    const body = bytes(STOP_AFTER_EACH_FRAGMENT);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: body.length }), async (at) => {
        // Named, and told from the stream (the main entry's detecting decoder passes the fault on).
        const { cut, failed } = await cutAndFailed(at % 2 ? "openai" : undefined, body, at);
        assertCutThenError(cut, failed, `byte ${at}`);
        const last = failed.at(-1);
        assert(
          !failed.some((e) => e.type === "tool-call" || e.type === "invalid-tool-call"),
          `byte ${at}: no call completed by a finish not proved final`,
        );
        const started = failed.some((e) => e.type === "tool-call-start");
        assert(
          last?.type === "abort" && last.discarded.length === (started ? 1 : 0),
          `byte ${at}: the call is listed as discarded`,
        );
      }),
      { seed: 34, numRuns: 40, examples: [[body.length]] },
    );
  });
});
