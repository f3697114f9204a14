// OpenAI Responses' annotations (an OpenAI Responses upstream's, kept as a `text` block part with
// `annotations`) through the client-protocol encoders: Responses passes them on as they came, each
// announced by `response.output_text.annotation.added` with its `annotation_index`, their positions
// moved to where the annotated text sits in the text shown; Chat Completions takes the
// `url_citation`s; the AI SDK UI stream shows the page as a `source-url` and the file as a
// `source-document` (as the AI SDK's own OpenAI provider gives both as sources); Anthropic Messages has no
// citation that says as much and shows the text alone. The stream:
// test/providers/openai-responses/citations-recordings.ts (built from openai-node's types).
import fc from "fast-check";
import { streamToolCalls, type EncodableEvent } from "../../src/index.ts";
import { ANNOTATIONS, CITED_TEXT, responsesCited } from "../providers/openai-responses/citations-recordings.ts";
import { readMessagesEvents, readResponsesEvents } from "../support/agent-protocol-readers.ts";
import { ENCODERS, encodeAll } from "../support/encoders.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { readChatChunks, uiSourceChunks } from "../support/protocol-readers.ts";
import { resplitText } from "../support/splits.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

const PREFIX = "Here is what I found. ";
/** The Responses upstream's events, with `PREFIX` shown before the annotated text, its deltas split at `cuts`. */
async function eventsOf(cuts: readonly number[] = []): Promise<EncodableEvent[]> {
  const events: EncodableEvent[] = await collect(
    streamToolCalls(fromChunks([bytes(responsesCited())]), { provider: "openai-responses" }),
  );
  const text = events.findIndex((event) => event.type === "text-delta");
  events.splice(text, 0, { type: "text-delta", text: PREFIX });
  return resplitText(events, cuts);
}

const [PAGE, FILE] = ANNOTATIONS;
/** The annotations, their positions moved by the prefix. */
const MOVED: typeof ANNOTATIONS = [
  { ...PAGE, start_index: PAGE.start_index + PREFIX.length, end_index: PAGE.end_index + PREFIX.length },
  { ...FILE, index: FILE.index + PREFIX.length },
];

const responses = (events: readonly EncodableEvent[]) => {
  const body = encodeAll(ENCODERS.responses(), events);
  const reading = readResponsesEvents(body);
  const frames = body.split("\n").flatMap((line) => (line.startsWith("data: {") ? [JSON.parse(line.slice(6))] : []));
  return { reading, frames, parts: reading.items.flatMap((item) => (item["content"] as unknown[] | undefined) ?? []) };
};

group("OpenAI Responses annotations through the client-protocol encoders", (test) => {
  test("Responses: the output_text carries them, each announced with its annotation_index before the text is done", async () => {
    const { reading, frames, parts } = responses(await eventsOf());
    assertEquals(parts, [{ type: "output_text", text: PREFIX + CITED_TEXT, annotations: MOVED, logprobs: [] }]);
    assertEquals(
      reading.text.slice(MOVED[0].start_index, MOVED[0].end_index),
      CITED_TEXT.slice(PAGE.start_index, PAGE.end_index),
    );
    const added = frames.filter((frame) => frame.type === "response.output_text.annotation.added");
    assertEquals(
      added.map((frame) => [frame.annotation_index, frame.annotation]),
      MOVED.map((annotation, i) => [i, annotation]),
    );
    const types = frames.map((frame) => frame.type);
    assert(
      types.lastIndexOf("response.output_text.annotation.added") < types.indexOf("response.output_text.done"),
      "announced before output_text.done",
    );
  });

  test("Chat Completions: the url_citation, over the same text; UI: the page as a source-url, the file as a source-document; Messages: the text alone", async () => {
    const events = await eventsOf();
    const choice = readChatChunks(encodeAll(ENCODERS.openai(), events)).choices.get(0)!;
    const { type: _type, ...page } = MOVED[0];
    assertEquals(choice.annotations, [{ type: "url_citation", url_citation: page }]);
    const sources = uiSourceChunks(encodeAll(ENCODERS.ui(), events));
    assertEquals(sources, [
      { type: "source-url", sourceId: "source-1", url: page.url, title: page.title },
      {
        type: "source-document",
        sourceId: "source-2",
        mediaType: "text/plain",
        title: FILE.filename,
        filename: FILE.filename,
      },
    ]);
    const messages = readMessagesEvents(encodeAll(ENCODERS.anthropic(), events)).content;
    const texts = messages.filter((block) => block.type === "text");
    assertEquals(texts.map((block) => block.text).join(""), PREFIX + CITED_TEXT);
    assertEquals(
      texts.flatMap((block) => block.citations ?? []),
      [],
      "no Anthropic citation made up",
    );
  });

  test("however the text was split, the annotations are the same", async () => {
    const whole = responses(await eventsOf()).parts;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 90 }), { maxLength: 8 }), async (cuts) => {
        assertEquals(responses(await eventsOf(cuts)).parts, whole);
      }),
      { seed: 34, numRuns: 25 },
    );
  });
});
