// Bedrock ConverseStream citations (issue 34): a text block's `citation` deltas keep the block, a
// `citationsContent` block part at its stop (its whole text, its citations), which the next turn
// sends back in place of that text, as Converse takes it; bounded by maxToolCalls. The stream is
// built from the SDK's shapes (citations-recordings.ts says which).
import fc from "fast-check";
import { assistantMessage, providerKit, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import {
  AwsEventStreamDecoderStream,
  BedrockDeltaStream,
  ConverseCitations,
  streamToolCalls as bedrockToolCalls,
  ToolCallAccumulatorStream,
} from "../../../src/bedrock.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { asRequestMessage, assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { converse } from "../../support/event-stream.ts";
import { collect, fromChunks, splitAt } from "../../support/streams.ts";
import { CITED, documentCitedTurn, HANDBOOK } from "./citations-recordings.ts";

const run = async (chunks: Uint8Array[], maxToolCalls?: number): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "bedrock", maxToolCalls }));
const PART = {
  type: "block",
  block: { citationsContent: { citations: [HANDBOOK], content: [{ text: CITED }] } },
} as const;
const TEXT = `According to the handbook, ${CITED}.`;

group("Bedrock ConverseStream citations (citation deltas, citationsContent)", (test) => {
  test("a cited text block is kept as its citationsContent block part, its whole text and citations, at any split", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: documentCitedTurn.length - 1 }), { maxLength: 6 }),
        async (cuts) => {
          const events = await run(splitAt(documentCitedTurn, cuts));
          assertEventInvariants(events);
          const finish = assertFinished(events);
          assertEquals([finish.text, finish.reason], [TEXT, "stop"]);
          assertEquals(finish.reasoningParts, [PART]);
        },
      ),
      { numRuns: 15 },
    );
  });

  test("assistantMessage and the request kit send it back as citationsContent in place of its text", async () => {
    const finish = assertFinished(await run([documentCitedTurn]));
    const content = [{ text: "According to the handbook, " }, PART.block, { text: "." }];
    assertEquals(assistantMessage("bedrock", finish), { role: "assistant", content });
    assertEquals(assistantMessage("bedrock", { ...finish, order: undefined }), { role: "assistant", content });
    const body = providerKit("bedrock").requestBody({
      model: "anthropic.claude-sonnet-4-5",
      messages: [
        { role: "user", content: "When does the office open?" },
        asRequestMessage(finish),
        { role: "user", content: "And on Saturdays?" },
      ],
      tools: [],
    });
    assertEquals((body["messages"] as { content: unknown }[])[1]!.content, content);
  });

  test("the citations count against maxToolCalls: past it the stream ends too-many-tool-calls", async () => {
    const events = await run([documentCitedTurn], 0);
    const error = events.find((event) => event.type === "error");
    assertEquals(error?.type === "error" ? error.error.code : undefined, "too-many-tool-calls");
    const last = events.at(-1);
    assert(last?.type === "abort" && last.reason === "limit-exceeded", "the stream aborts limit-exceeded");
    // Two citations in one block (one part) past a limit of 1: the citations are what is past it.
    const twice = converse([
      ["messageStart", { role: "assistant" }],
      ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: CITED } }],
      ["contentBlockDelta", { contentBlockIndex: 0, delta: { citation: HANDBOOK } }],
      ["contentBlockDelta", { contentBlockIndex: 0, delta: { citation: HANDBOOK } }],
      ["contentBlockStop", { contentBlockIndex: 0 }],
      ["messageStop", { stopReason: "end_turn" }],
    ]);
    const past = (await run([twice], 1)).find((event) => event.type === "error");
    assertEquals(past?.type === "error" ? [past.error.code, past.error.message.includes("citations")] : [], [
      "too-many-tool-calls",
      true,
    ]);
    assertEquals((await run([twice], 2)).at(-1)?.type, "finish", "two fit a limit of 2");
  });

  test("tool-call-stream/bedrock keeps them with converseCitations: ConverseCitations (streamToolCalls and BedrockDeltaStream), and not without it", async () => {
    const parts = async (options: Parameters<typeof bedrockToolCalls>[1]) =>
      assertFinished(await collect(bedrockToolCalls(fromChunks([documentCitedTurn]), options))).reasoningParts;
    assertEquals(await parts({ converseCitations: ConverseCitations }), [PART]);
    assertEquals(await parts({}), undefined);
    // The stage too: with the option, and not without it.
    const staged = async (converseCitations?: typeof ConverseCitations) =>
      assertFinished(
        await collect(
          fromChunks([documentCitedTurn])
            .pipeThrough(new AwsEventStreamDecoderStream())
            .pipeThrough(new BedrockDeltaStream({ converseCitations }))
            .pipeThrough(new ToolCallAccumulatorStream()),
        ),
      ).reasoningParts;
    assertEquals(await staged(ConverseCitations), [PART]);
    assertEquals(await staged(), undefined);
  });
});
