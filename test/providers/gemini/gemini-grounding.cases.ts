// Gemini grounding and citations (issue 34): a candidate's `groundingMetadata` (search queries,
// the search entry point, grounding chunks and supports) and `citationMetadata`, as the last chunk
// that had them gave them, are kept on the first candidate's turn as `block` parts for the app;
// Gemini's next-turn Content has no field for them, so nothing of them goes back. The stream is
// built from @google/genai's types (grounding-recordings.ts says which).
import fc from "fast-check";
import {
  GeminiDeltaStream,
  SSEDecoderStream,
  streamToolCalls as geminiToolCalls,
  ToolCallAccumulatorStream,
} from "../../../src/gemini.ts";
import { assistantMessage, providerKit, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { asRequestMessage, assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import {
  CITATIONS,
  GROUNDED_TEXT,
  GROUNDING,
  grounded,
  URL_CONTEXT,
  URL_CONTEXT_TEXT,
  urlContext,
} from "./grounding-recordings.ts";

const run = async (cuts: number[] = [], sse = grounded): Promise<ToolCallEvent[]> => {
  const events = await collect(streamToolCalls(fromChunks(splitAt(bytes(sse), cuts)), { provider: "gemini" }));
  assertEventInvariants(events, true);
  return events;
};
const PARTS = [
  { type: "block", block: { groundingMetadata: GROUNDING } },
  { type: "block", block: { citationMetadata: CITATIONS } },
];

group("Gemini groundingMetadata and citationMetadata", (test) => {
  test("the first candidate's grounding and citations are kept whole, as its last chunk with them gave them, at any split", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes(grounded).length - 1 }), { maxLength: 6 }),
        async (cuts) => {
          const finish = assertFinished(await run(cuts));
          assertEquals([finish.text, finish.reason], [GROUNDED_TEXT, "stop"]);
          assertEquals(finish.reasoningParts, PARTS);
        },
      ),
      { numRuns: 15 },
    );
  });

  test("nothing of them goes back: the next turn is the text alone, from assistantMessage and the request kit", async () => {
    const finish = assertFinished(await run());
    const bare = { ...finish, reasoningParts: undefined, order: undefined };
    assertEquals(assistantMessage("gemini", finish), assistantMessage("gemini", bare));
    assertEquals(assistantMessage("gemini", finish), { role: "model", parts: [{ text: GROUNDED_TEXT }] });
    const body = providerKit("gemini").requestBody({
      model: "gemini-2.5-flash",
      messages: [
        { role: "user", content: "Who won Euro 2024?" },
        asRequestMessage(finish),
        { role: "user", content: "And the top scorer?" },
      ],
      tools: [],
    });
    assertEquals((body["contents"] as unknown[])[1], { role: "model", parts: [{ text: GROUNDED_TEXT }] });
  });

  test("another candidate's grounding is not the turn's", async () => {
    const second = grounded.replaceAll('{"candidates":[{', '{"candidates":[{"index":1,');
    const finish = (await run([], second)).find((event) => event.type === "finish");
    assertEquals(finish?.type === "finish" ? finish.reasoningParts : "no finish", undefined);
  });

  test("the stage keeps them (GeminiGrounding); tool-call-stream/gemini's streamToolCalls reads without them", async () => {
    const staged = await collect(
      fromChunks([bytes(grounded)])
        .pipeThrough(new SSEDecoderStream())
        .pipeThrough(new GeminiDeltaStream())
        .pipeThrough(new ToolCallAccumulatorStream()),
    );
    assertEquals(assertFinished(staged).reasoningParts, PARTS);
    const subpath = await collect(geminiToolCalls(fromChunks([bytes(grounded)])));
    assertEquals(assertFinished(subpath).reasoningParts, undefined);
  });

  test("the URL context tool's urlContextMetadata is kept for the app as the last chunk gave it; nothing of it goes back", async () => {
    const finish = assertFinished(await run([], urlContext));
    assertEquals(
      [finish.text, finish.reasoningParts],
      [URL_CONTEXT_TEXT, [{ type: "block", block: { urlContextMetadata: URL_CONTEXT } }]],
    );
    assertEquals(assistantMessage("gemini", finish), { role: "model", parts: [{ text: URL_CONTEXT_TEXT }] });
  });
});
