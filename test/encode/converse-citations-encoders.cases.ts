// Bedrock Converse citations (a `citationsContent` block part, kept by ConverseCitations at the
// cited text block's stop) through the encoders whose protocol has a place for them, as Anthropic's
// and OpenAI's are passed on: Chat Completions as the message's `url_citation` annotations over the
// cited text when the citation names a web page (`location.web`; a document has no Chat
// annotation), the AI SDK UI stream as `source-url` / `source-document` parts. The streams are
// test/providers/bedrock/citations-recordings.ts and server-tools-recordings.ts (built from the AWS
// SDK's shapes: each says which).
import fc from "fast-check";
import { readOpenAIChatCompletion, streamToolCalls, type EncodableEvent } from "../../src/index.ts";
import { documentCitedTurn, HANDBOOK } from "../providers/bedrock/citations-recordings.ts";
import { serverToolTurn } from "../providers/bedrock/server-tools-recordings.ts";
import { ENCODERS, encodeAll } from "../support/encoders.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { readChatChunks, uiSourceChunks } from "../support/protocol-readers.ts";
import { resplitText } from "../support/splits.ts";
import { collect, fromChunks } from "../support/streams.ts";

const eventsOf = (bytes: Uint8Array): Promise<EncodableEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes]), { provider: "bedrock" }));

/** The web search answer's cited text block (the whole text shown), and the page it cites. */
const CITED_ANSWER = "High tide is at 14:05. Low tide at 20:17.";
const PAGE = { url: "https://example.com/tides", title: "Tides" };

const chatAnnotations = (events: readonly EncodableEvent[]) =>
  readChatChunks(encodeAll(ENCODERS.openai(), events)).choices.get(0)!.annotations;

group("Bedrock Converse citations through the client-protocol encoders", (test) => {
  test("Chat Completions: a web page is a url_citation over the cited text, streamed and in the completion", async () => {
    const events = await eventsOf(serverToolTurn);
    const choice = readChatChunks(encodeAll(ENCODERS.openai(), events)).choices.get(0)!;
    const annotation = {
      type: "url_citation",
      url_citation: { ...PAGE, start_index: 0, end_index: CITED_ANSWER.length },
    };
    assertEquals([choice.content, choice.annotations], [CITED_ANSWER, [annotation]]);
    const result = await readOpenAIChatCompletion(fromChunks(events), {
      model: "m",
      created: 1,
      generateId: () => "x",
    });
    assert(result.type === "completion", "a completion");
    assertEquals(result.completion.choices[0]!.message.annotations, [annotation]);
    assertEquals(chatAnnotations(await eventsOf(documentCitedTurn)), undefined, "Chat has no document annotation");
  });

  test("AI SDK UI: a web page is a source-url, a document a source-document", async () => {
    const sources = async (bytes: Uint8Array) => uiSourceChunks(encodeAll(ENCODERS.ui(), await eventsOf(bytes)));
    assertEquals(await sources(serverToolTurn), [{ type: "source-url", sourceId: "source-1", ...PAGE }]);
    assertEquals(await sources(documentCitedTurn), [
      { type: "source-document", sourceId: "source-1", mediaType: "text/plain", title: HANDBOOK.title },
    ]);
  });

  test("however the text was split, the Chat annotations are the same", async () => {
    const events = await eventsOf(serverToolTurn);
    const whole = chatAnnotations(events);
    assertEquals(whole?.length, 1, "the page's annotation");
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 8 }), async (cuts) => {
        assertEquals(chatAnnotations(resplitText(events, cuts)), whole);
      }),
      { seed: 34, numRuns: 25 },
    );
  });
});
