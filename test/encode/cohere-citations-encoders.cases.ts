// Cohere v2 citations (`citation-start` events of a RAG answer, in the shape of Cohere's "RAG
// streaming" docs: `delta.message.citations` { start, end, text, sources, type, content_index })
// through streamToolCalls and the encoders whose protocol has a place for them: Chat Completions as
// `url_citation` annotations over the cited text (a document with a `url`), OpenAI Responses too,
// Anthropic Messages as the text alone (no Anthropic citation names a Cohere source), the AI SDK UI
// stream as `source-url` / `source-document` parts. A non-BMP emoji comes before the cited spans
// (Cohere's offsets here count code points, JavaScript's UTF-16 units) and the cited "Antarctica"
// is the first of two: the spans are the cited text's first place from Cohere's offset on, in UTF-16.
import fc from "fast-check";
import { assistantMessage, streamToolCalls, type EncodableEvent } from "../../src/index.ts";
import { readMessagesEvents, readResponsesEvents } from "../support/agent-protocol-readers.ts";
import { ENCODERS, encodeAll } from "../support/encoders.ts";
import { assertEquals, group } from "../support/harness.ts";
import { readChatChunks, uiSourceChunks } from "../support/protocol-readers.ts";
import { resplitText } from "../support/splits.ts";
import { bytes, collect, fromChunks, splitAt } from "../support/streams.ts";

const TEXT = "Emperor penguins 🐧 are the tallest. They live in Antarctica. Forecast: −40 °C in Antarctica.";
const PAGE = { url: "https://example.com/habitats", title: "Penguin habitats" };
const TALL = { type: "document", id: "doc:0", document: { id: "doc:0", title: "Tall penguins", snippet: "Emperor…" } };
const HABITAT = { type: "document", id: "doc:1", document: { id: "doc:1", ...PAGE, snippet: "Antarctica" } };
const TOOL = { type: "tool", id: "weather_1:0", tool_output: { temperature: -40 } };

/** A Cohere citation-start's citation of `text` (`start`, `end` in code points, as a Python server counts). */
const citation = (text: string, sources: unknown[], type = "TEXT_CONTENT") => {
  const start = [...TEXT.slice(0, TEXT.indexOf(text))].length;
  return { start, end: start + [...text].length, text, sources, type, content_index: 0 };
};

/** A citation's span as Cohere gave it (its `start` and `end`, in characters). */
const span = (text: string) => {
  const { start, end } = citation(text, []);
  return { start, end };
};

const events = [
  { type: "message-start", id: "c0", delta: { message: { role: "assistant", content: [], citations: [] } } },
  { type: "content-start", index: 0, delta: { message: { content: { type: "text", text: "" } } } },
  ...TEXT.split(/(?<= )/).map((text) => ({
    type: "content-delta",
    index: 0,
    delta: { message: { content: { text } } },
  })),
  { type: "citation-start", index: 0, delta: { message: { citations: citation("the tallest", [TALL]) } } },
  { type: "citation-end", index: 0 },
  { type: "citation-start", index: 1, delta: { message: { citations: citation("Antarctica", [HABITAT]) } } },
  { type: "citation-end", index: 1 },
  { type: "citation-start", index: 2, delta: { message: { citations: citation("−40 °C", [TOOL]) } } },
  { type: "citation-end", index: 2 },
  {
    type: "citation-start",
    index: 3,
    delta: { message: { citations: citation("penguins", [TALL], "THINKING_CONTENT") } },
  },
  { type: "citation-end", index: 3 },
  { type: "content-end", index: 0 },
  {
    type: "message-end",
    delta: { finish_reason: "COMPLETE", usage: { tokens: { input_tokens: 90, output_tokens: 20 } } },
  },
];
const sse = bytes(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""));

const eventsOf = (chunks: Uint8Array[]): Promise<EncodableEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "cohere" }));
const chatAnnotations = (encodable: readonly EncodableEvent[]) =>
  readChatChunks(encodeAll(ENCODERS.openai(), encodable)).choices.get(0)!.annotations;

const at = (text: string) => ({ start_index: TEXT.indexOf(text), end_index: TEXT.indexOf(text) + text.length });

group("Cohere citations through streamToolCalls and the client-protocol encoders", (test) => {
  test("each citation of the text is a cited text part with Cohere's sources; a thinking's is left out", async () => {
    const parts = (await eventsOf([sse])).flatMap((event) => (event.type === "reasoning-part" ? [event.part] : []));
    assertEquals(parts, [
      {
        type: "block",
        block: { type: "text", text: "the tallest", citations: [TALL], ...span("the tallest") },
      },
      {
        type: "block",
        block: { type: "text", text: "Antarctica", citations: [HABITAT], ...span("Antarctica") },
      },
      {
        type: "block",
        block: { type: "text", text: "−40 °C", citations: [TOOL], ...span("−40 °C") },
      },
    ]);
    // Cohere takes them back beside the text (cohere-ai 8.1.0's `AssistantMessage.citations`), the thinking's left out.
    const finish = (await eventsOf([sse])).find((event) => event.type === "finish");
    const back = (text: string, source: unknown) => ({ ...span(text), text, sources: [source], type: "TEXT_CONTENT" });
    assertEquals(finish && assistantMessage("cohere", finish), {
      role: "assistant",
      content: TEXT,
      citations: [back("the tallest", TALL), back("Antarctica", HABITAT), back("−40 °C", TOOL)],
    });
  });

  test("a whole response (no `stream: true`) gives the same cited text parts", async () => {
    const cited = (encodable: readonly EncodableEvent[]) =>
      encodable.filter((event) => event.type === "reasoning-part");
    const message = {
      role: "assistant",
      content: [{ type: "text", text: TEXT }],
      citations: [citation("the tallest", [TALL]), citation("Antarctica", [HABITAT]), citation("−40 °C", [TOOL])],
    };
    const body = bytes(JSON.stringify({ id: "c0", message, finish_reason: "COMPLETE" }));
    assertEquals(cited(await eventsOf([body])), cited(await eventsOf([sse])));
  });

  test("Chat Completions and Responses: a document's page is a url_citation over its text, in UTF-16 units", async () => {
    const encodable = await eventsOf([sse]);
    assertEquals(chatAnnotations(encodable), [
      { type: "url_citation", url_citation: { ...PAGE, ...at("Antarctica") } },
    ]);
    const reading = readResponsesEvents(encodeAll(ENCODERS.responses(), encodable));
    const annotations = reading.items.flatMap(
      (item) => (item["content"] as { annotations: unknown[] }[] | undefined) ?? [],
    );
    assertEquals(
      annotations.flatMap((content) => content.annotations),
      [{ type: "url_citation", ...PAGE, ...at("Antarctica") }],
    );
  });

  test("Messages: the text is whole, and Cohere's sources are no Anthropic citations", async () => {
    const reading = readMessagesEvents(encodeAll(ENCODERS.anthropic(), await eventsOf([sse])));
    const texts = reading.content.filter((block) => block.type === "text");
    assertEquals(
      [texts.map((block) => block.text).join(""), texts.flatMap((block) => block.citations ?? [])],
      [TEXT, []],
    );
  });

  test("AI SDK UI: a titled document, a page and a tool's result are sources, each once", async () => {
    assertEquals(uiSourceChunks(encodeAll(ENCODERS.ui(), await eventsOf([sse]))), [
      { type: "source-document", sourceId: "source-1", mediaType: "text/plain", title: "Tall penguins" },
      { type: "source-url", sourceId: "source-2", ...PAGE },
      { type: "source-document", sourceId: "source-3", mediaType: "application/json", title: "weather_1:0" },
    ]);
  });

  test("however the bytes or the text were split, the annotations are the same", async () => {
    const whole = chatAnnotations(await eventsOf([sse]));
    assertEquals(whole?.length, 1, "the page's annotation");
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: sse.length - 1 }), { maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 6 }),
        async (byteCuts, textCuts) => {
          assertEquals(chatAnnotations(resplitText(await eventsOf(splitAt(sse, byteCuts)), textCuts)), whole);
        },
      ),
      { seed: 34, numRuns: 20 },
    );
  });
});
