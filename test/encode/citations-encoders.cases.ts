// Anthropic's citations through the client-protocol encoders (issue 34), each as its protocol
// spells them: Messages as `citations_delta`s of the text block (as Anthropic streams them),
// OpenAI Responses as the `output_text`'s `annotations` (`url_citation` over the cited text, each
// announced by `response.output_text.annotation.added`), Chat Completions as the message's
// `annotations` (`url_citation`, streamed in a delta as OpenAI's search models do), the AI SDK UI
// stream as `source-url` / `source-document` parts; AG-UI has no citation event and shows the text.
// Every stream is read by the protocol's strict reader; the offsets hold however the text was split.
// The streams are test/providers/anthropic/citations-recordings.ts (built from Anthropic's docs).
import fc from "fast-check";
import { readAnthropicMessage, streamToolCalls, type EncodableEvent } from "../../src/index.ts";
import { CHAR, documentCited, WEB, webCited } from "../providers/anthropic/citations-recordings.ts";
import { readMessagesEvents, readResponsesEvents } from "../support/agent-protocol-readers.ts";
import { AGENT_OPTIONS, ENCODERS, encodeAll } from "../support/encoders.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { readChatChunks, uiSourceChunks } from "../support/protocol-readers.ts";
import { resplitText } from "../support/splits.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

const eventsOf = (sse: string): Promise<EncodableEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(sse)]), { provider: "anthropic" }));

/** The web answer's text: "I'll look it up." then the cited "There are three a day", then the rest. */
const WEB_SPAN = { start: 16, end: 37 };

const responsesAnnotations = (events: readonly EncodableEvent[]): unknown => {
  const reading = readResponsesEvents(encodeAll(ENCODERS.responses(), events));
  return reading.items.flatMap((item) => (item["content"] as { annotations: unknown[] }[] | undefined) ?? []);
};

group("Citations through the client-protocol encoders", (test) => {
  test("Messages: the text block carries Anthropic's citations as citations_deltas; readAnthropicMessage too", async () => {
    for (const [sse, citation, citedText, after] of [
      [documentCited, CHAR, "the grass is green", " and "],
      [webCited, WEB, "There are three a day", ", the first at 8:00."],
    ] as const) {
      const events = await eventsOf(sse);
      const reading = readMessagesEvents(encodeAll(ENCODERS.anthropic(), events));
      const texts = reading.content.filter((block) => block.type === "text");
      assertEquals(
        texts.flatMap((block) => block.citations ?? []),
        [citation],
      );
      // The uncited text after the cited one is a block of its own, as Anthropic sent it: the
      // citations cover their block's text, not what followed.
      assertEquals(
        texts.slice(-2).map((block) => [block.text, block.citations]),
        [
          [citedText, [citation]],
          [after, undefined],
        ],
        "the text after the cited one is its own block",
      );
      const result = await readAnthropicMessage(fromChunks(events), AGENT_OPTIONS.anthropic());
      assert(result.type === "message", "a message");
      assertEquals(result.message.content, reading.content, "the non-streaming message is the stream's");
    }
  });

  test("Responses: a web citation is a url_citation over the cited text, announced before output_text.done", async () => {
    const events = await eventsOf(webCited);
    const body = encodeAll(ENCODERS.responses(), events);
    const reading = readResponsesEvents(body);
    const annotation = { type: "url_citation", url: WEB.url, title: WEB.title, start_index: 16, end_index: 37 };
    assertEquals(responsesAnnotations(events), [
      { type: "output_text", text: reading.text, annotations: [annotation], logprobs: [] },
    ]);
    assertEquals(reading.text.slice(WEB_SPAN.start, WEB_SPAN.end), "There are three a day");
    const types = body
      .split("\n")
      .flatMap((line) => (line.startsWith("data: {") ? [JSON.parse(line.slice(6)).type] : []));
    assert(
      types.indexOf("response.output_text.annotation.added") < types.indexOf("response.output_text.done"),
      "the annotation is announced before the text is done",
    );
    // A document sent in the request has no Responses annotation (no file): the text alone.
    const document = responsesAnnotations(await eventsOf(documentCited)) as { annotations: unknown[] }[];
    assertEquals(
      document.map((part) => part.annotations),
      [[]],
    );
  });

  test("Chat Completions: a web citation is a url_citation annotation, streamed and in the completion", async () => {
    const events = await eventsOf(webCited);
    const choice = readChatChunks(encodeAll(ENCODERS.openai(), events)).choices.get(0)!;
    const cited = { url: WEB.url, title: WEB.title, start_index: 16, end_index: 37 };
    assertEquals(choice.annotations, [{ type: "url_citation", url_citation: cited }]);
    assertEquals(choice.content.slice(16, 37), "There are three a day");
    const documentChoice = readChatChunks(encodeAll(ENCODERS.openai(), await eventsOf(documentCited))).choices.get(0)!;
    assertEquals(documentChoice.annotations, undefined, "Chat has no document annotation");
  });

  test("AI SDK UI: a web page is a source-url, a document a source-document, each once", async () => {
    const sources = async (sse: string) => uiSourceChunks(encodeAll(ENCODERS.ui(), await eventsOf(sse)));
    assertEquals(await sources(webCited), [
      { type: "source-url", sourceId: "source-1", url: WEB.url, title: WEB.title },
    ]);
    assertEquals(await sources(documentCited), [
      { type: "source-document", sourceId: "source-1", mediaType: "text/plain", title: "My Document" },
    ]);
  });

  test("AG-UI: no citation event, the text shown once", async () => {
    const body = encodeAll(ENCODERS["ag-ui"](), await eventsOf(webCited));
    assertEquals([body.includes(WEB.url), body.split("There are three a day").length - 1], [false, 1]);
  });

  test("however the text was split, the annotations and citations are the same", async () => {
    const events = await eventsOf(webCited);
    const whole = [
      responsesAnnotations(events),
      readChatChunks(encodeAll(ENCODERS.openai(), events)).choices.get(0)!.annotations,
      readMessagesEvents(encodeAll(ENCODERS.anthropic(), events)).content,
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 8 }), async (cuts) => {
        const split = resplitText(events, cuts);
        assertEquals(
          [
            responsesAnnotations(split),
            readChatChunks(encodeAll(ENCODERS.openai(), split)).choices.get(0)!.annotations,
            readMessagesEvents(encodeAll(ENCODERS.anthropic(), split)).content,
          ],
          whole,
        );
      }),
      { seed: 34, numRuns: 25 },
    );
  });
});
