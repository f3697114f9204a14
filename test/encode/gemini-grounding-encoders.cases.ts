// Gemini's grounding (a `{ groundingMetadata }` part, kept by GeminiGrounding) through the
// client-protocol encoders: the AI SDK UI stream shows each web grounding chunk's page once as a
// `source-url`, as the AI SDK's own Google provider gives search grounding as sources; OpenAI Chat
// and Responses annotate the text each support's segment covers with a `url_citation` per page, as
// they do another provider's web citations, its UTF-8 byte offsets turned into UTF-16 code units;
// Anthropic Messages writes none (its citations carry what only Anthropic makes). The streams:
// test/providers/gemini/grounding-recordings.ts (built from @google/genai's types).
import fc from "fast-check";
import { AnthropicMessagesEncoder, OpenAIResponsesEncoder, streamToolCalls } from "../../src/index.ts";
import { gemini, parts } from "../providers/gemini/doc-shapes-recordings.ts";
import {
  GROUNDED_TEXT,
  GROUNDING,
  grounded,
  groundedWide,
  groundedWideWith,
  urlContext,
  WIDE_GROUNDING,
  WIDE_SEGMENTS,
  WIDE_TEXT,
} from "../providers/gemini/grounding-recordings.ts";
import { readMessagesEvents, readResponsesEvents } from "../support/agent-protocol-readers.ts";
import { AGENT_OPTIONS, ENCODERS, encodeAll } from "../support/encoders.ts";
import { assertEquals, group } from "../support/harness.ts";
import { dataFrames, readChatChunks, uiSourceChunks } from "../support/protocol-readers.ts";
import { bytes, collect, fromChunks, splitAt } from "../support/streams.ts";

/** The url_citations (Responses' flat shape) of each support's pages over its segment's text, found in `text` by JavaScript. */
const expectedCitations = (
  text: string,
  grounding: {
    groundingChunks: { web: { uri: string; title: string } }[];
    groundingSupports: { segment: { text: string }; groundingChunkIndices: number[] }[];
  },
) =>
  grounding.groundingSupports.flatMap(({ segment, groundingChunkIndices }) =>
    groundingChunkIndices.map((i) => ({
      type: "url_citation",
      url: grounding.groundingChunks[i]!.web.uri,
      title: grounding.groundingChunks[i]!.web.title,
      start_index: text.indexOf(segment.text),
      end_index: text.indexOf(segment.text) + segment.text.length,
    })),
  );

type Annotation = Record<string, unknown>;

/** The Responses output_text annotations and the Chat message's annotations (flattened) of a Gemini body. */
async function annotationsOf(body: string | Uint8Array[]) {
  const chunks = typeof body === "string" ? [bytes(body)] : body;
  const events = await collect(streamToolCalls(fromChunks(chunks), { provider: "gemini" }));
  const responses = readResponsesEvents(encodeAll(ENCODERS.responses(), events));
  const parts = responses.items.flatMap(
    (item) => (item["content"] as { annotations?: Annotation[] }[] | undefined) ?? [],
  );
  const chat = readChatChunks(encodeAll(ENCODERS.openai(), events)).choices.get(0)!;
  return {
    responsesText: responses.text,
    responses: parts.flatMap((part) => part.annotations ?? []),
    chatText: chat.content,
    chat: (chat.annotations ?? []).map(
      (annotation): Annotation => ({
        type: annotation["type"],
        ...(annotation["url_citation"] as Annotation),
      }),
    ),
  };
}

group("Gemini grounding through the client-protocol encoders", (test) => {
  test("AI SDK UI: each web grounding chunk is a source-url, once", async () => {
    const events = await collect(streamToolCalls(fromChunks([bytes(grounded)]), { provider: "gemini" }));
    const sources = uiSourceChunks(encodeAll(ENCODERS.ui(), events));
    assertEquals(
      sources,
      GROUNDING.groundingChunks.map(({ web }, i) => ({
        type: "source-url",
        sourceId: `source-${i + 1}`,
        url: web.uri,
        title: web.title,
      })),
    );
  });

  test("Responses and Chat: each support's pages are url_citations over its segment's text", async () => {
    const { responses, responsesText, chat, chatText } = await annotationsOf(grounded);
    assertEquals(responsesText, GROUNDED_TEXT);
    assertEquals(chatText, GROUNDED_TEXT);
    const expected = expectedCitations(GROUNDED_TEXT, GROUNDING);
    assertEquals(expected.length, 3);
    assertEquals(responses, expected);
    assertEquals(chat, expected);
  });

  test("Responses and Chat: UTF-8 byte offsets over Japanese and emoji become UTF-16 positions of the same text", async () => {
    const { responses, chat } = await annotationsOf(groundedWide);
    const expected = expectedCitations(WIDE_TEXT, WIDE_GROUNDING);
    // The offsets differ in bytes: the test would pass on bytes alone otherwise.
    assertEquals(WIDE_GROUNDING.groundingSupports[1]!.segment.startIndex !== WIDE_TEXT.indexOf(WIDE_SEGMENTS[1]), true);
    for (const annotations of [responses, chat]) {
      assertEquals(annotations, expected);
      assertEquals(
        annotations.map((a) => WIDE_TEXT.slice(a["start_index"] as number, a["end_index"] as number)),
        expected.map((a) => WIDE_TEXT.slice(a.start_index, a.end_index)),
      );
    }
    assertEquals(
      [...new Set(responses.map((a) => WIDE_TEXT.slice(a["start_index"] as number, a["end_index"] as number)))],
      [...WIDE_SEGMENTS],
    );
    // Without the segments' text (Gemini may leave it out), the byte offsets alone place them.
    const bare = WIDE_GROUNDING.groundingSupports.slice(0, 3).map(({ segment: { text: _, ...segment }, ...rest }) => ({
      ...rest,
      segment,
    }));
    const untexted = await annotationsOf(groundedWideWith({ ...WIDE_GROUNDING, groundingSupports: bare }));
    assertEquals([untexted.responses, untexted.chat], [expected.slice(0, 4), expected.slice(0, 4)]);
  });

  test("however the body was split into reads (inside a character too), the annotations are the same", async () => {
    const data = bytes(groundedWide);
    const whole = await annotationsOf([data]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 24 }), async (cuts) => {
        assertEquals(await annotationsOf(splitAt(data, cuts)), whole);
      }),
      { seed: 34, numRuns: 12 },
    );
  });

  test("Responses: a support over text before a call is left out (that message went out whole); Chat annotates it", async () => {
    // Text, a call, then text: Responses shows two messages, and the grounding comes at the end.
    const before = "Spain won Euro 2024, ";
    const after = "defeating England 2-1 in the final.";
    const body = gemini(
      parts([{ text: before }]),
      parts([{ functionCall: { name: "lookup", args: { q: "euro" } } }]),
      parts([{ text: after }], { finishReason: "STOP", groundingMetadata: GROUNDING }),
    );
    const { responses, chat } = await annotationsOf(body);
    const [first, second] = GROUNDING.groundingSupports;
    // Chat's one message holds both texts: its positions count from its start.
    assertEquals(
      chat.map((a) => [a["start_index"], a["end_index"]]),
      [
        [0, 20],
        [21, 56],
        [21, 56],
      ],
    );
    assertEquals(first!.segment.text, before.trimEnd());
    // Responses: the second message's text alone, from its own start.
    assertEquals(
      responses.map((a) => [a["start_index"], a["end_index"]]),
      [
        [0, after.length],
        [0, after.length],
      ],
    );
    assertEquals(second!.segment.text, after);
  });

  test("Messages and Responses write no block for them (nor the URL context's), even with a signature / encrypted_content option: nothing goes back", async () => {
    for (const body of [grounded, urlContext]) await noBlocks(body);
  });
  const noBlocks = async (body: string): Promise<void> => {
    const events = await collect(streamToolCalls(fromChunks([bytes(body)]), { provider: "gemini" }));
    // The options the Worker gives to carry a kept block through a client (a seal of the part).
    const seal = (part: unknown) => JSON.stringify(part);
    const messages = new AnthropicMessagesEncoder({ ...AGENT_OPTIONS.anthropic(), signature: seal });
    const content = readMessagesEvents(encodeAll(messages, events)).content;
    assertEquals(
      content.map((block) => block.type),
      ["text"],
    );
    const responses = new OpenAIResponsesEncoder({ ...AGENT_OPTIONS.responses(), encryptedContent: seal });
    assertEquals(
      readResponsesEvents(encodeAll(responses, events)).items.map((item) => item["type"]),
      ["message"],
    );
  };
  test("AI SDK UI: a page that two grounding chunks name is one source-url", async () => {
    const events = await collect(streamToolCalls(fromChunks([bytes(grounded)]), { provider: "gemini" }));
    // The same page in two chunks (and in a second step's grounding): shown once.
    const doubled = events.flatMap((event) =>
      event.type === "reasoning-part" && event.part.type === "block" && "groundingMetadata" in event.part.block
        ? [0, 1].map(() => ({
            ...event,
            part: {
              ...event.part,
              block: {
                groundingMetadata: {
                  ...GROUNDING,
                  groundingChunks: [...GROUNDING.groundingChunks, ...GROUNDING.groundingChunks],
                },
              },
            },
          }))
        : [event],
    );
    const sources = dataFrames(encodeAll(ENCODERS.ui(), doubled))
      .flatMap((frame) => (frame.startsWith("{") ? [JSON.parse(frame) as { type: string; url?: string }] : []))
      .filter((chunk) => chunk.type === "source-url");
    assertEquals(
      sources.map((chunk) => chunk.url),
      GROUNDING.groundingChunks.map(({ web }) => web.uri),
    );
  });
});
