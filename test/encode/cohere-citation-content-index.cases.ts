// Cohere v2 citations name the content block they cite (`content_index`, cohere-ai 8.1.0's `Citation.contentIndex`:
// "Index of the content block in which this citation appears", `content_index` on the wire), and their `start` counts
// in that block's text, as RubyLLM's Cohere chat reads them (the joined text "along with the offset each content block
// starts at, so citation spans resolve against the content string"). Before, `content_index` was ignored: a citation
// of the second text block was placed from its offset in the first, on the first place its text had there, and a
// citation of a thinking block without a `type` was taken for one of the text.
// Provenance: BUILT BY HAND in the SDK's shapes (no recording of an answer of several text blocks exists).
import { streamToolCalls, type EncodableEvent } from "../../src/index.ts";
import { ENCODERS, encodeAll } from "../support/encoders.ts";
import { assertEquals, group } from "../support/harness.ts";
import { readChatChunks } from "../support/protocol-readers.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

const FIRST = "Emperor penguins live in Antarctica. ";
const SECOND = "Antarctica is the coldest continent.";
const PAGE = { url: "https://example.com/antarctica", title: "Antarctica" };
const SOURCE = { type: "document", id: "doc:0", document: { id: "doc:0", ...PAGE } };

const block = (index: number, type: string, text: string) => [
  { type: "content-start", index, delta: { message: { content: { type, [type]: "" } } } },
  { type: "content-delta", index, delta: { message: { content: { [type]: text } } } },
  { type: "content-end", index },
];
const cite = (content_index: number, start: number, text: string, type?: string) => ({
  type: "citation-start",
  index: 0,
  delta: { message: { citations: { start, end: start + text.length, text, sources: [SOURCE], content_index, type } } },
});
const end = { type: "message-end", delta: { finish_reason: "COMPLETE" } };

const annotationsOf = async (events: Record<string, unknown>[]) => {
  const sse = bytes(events.map((e) => `event: ${String(e["type"])}\ndata: ${JSON.stringify(e)}\n\n`).join(""));
  const encodable: EncodableEvent[] = await collect(streamToolCalls(fromChunks([sse]), { provider: "cohere" }));
  return readChatChunks(encodeAll(ENCODERS.openai(), encodable)).choices.get(0)!.annotations;
};
const over = (from: number, text: string) => [
  { type: "url_citation", url_citation: { ...PAGE, start_index: from, end_index: from + text.length } },
];

group("Cohere citations: the content block a citation names", (test) => {
  test("a citation of the second text block is placed in that block, by its offset there", async () => {
    const annotations = await annotationsOf([
      ...block(0, "text", FIRST),
      ...block(1, "text", SECOND),
      cite(1, 0, "Antarctica", "TEXT_CONTENT"),
      end,
    ]);
    assertEquals(annotations, over(FIRST.length, "Antarctica"));
  });

  test("after a thinking block, the text's citation is placed in the text", async () => {
    const annotations = await annotationsOf([
      ...block(0, "thinking", "Antarctica, I think."),
      ...block(1, "text", FIRST),
      cite(1, FIRST.indexOf("Antarctica"), "Antarctica", "TEXT_CONTENT"),
      end,
    ]);
    assertEquals(annotations, over(FIRST.indexOf("Antarctica"), "Antarctica"));
  });

  test("a citation of a thinking block cites no text shown, though it names no type", async () => {
    const annotations = await annotationsOf([
      ...block(0, "thinking", "Antarctica, I think."),
      ...block(1, "text", FIRST),
      cite(0, 0, "Antarctica"),
      end,
    ]);
    assertEquals(annotations ?? [], []);
  });
});
