// Where a cited text sits in the text the OpenAI Chat and Responses encoders show (citedSpans): a
// provider's cited text part comes at the stop of the text it cites (Anthropic's cited block,
// Bedrock's, OpenAI's annotated output_text, Chat's annotated message), so its text ends what was
// shown; that is checked, not assumed: a part that comes after more text is found where its text
// is, one whose text was not shown gets no annotation. Positions are UTF-16 code units, as
// JavaScript (openai-node's reader, `text.slice(start_index, end_index)`) indexes the text: a text
// before the cited one with emoji (two units each) and Japanese (one unit, three UTF-8 bytes) moves
// them by its UTF-16 length. Built from Anthropic's web search citation (anthropic/citations-recordings.ts).
import type { EncodableEvent } from "../../src/index.ts";
import { WEB } from "../providers/anthropic/citations-recordings.ts";
import { readResponsesEvents } from "../support/agent-protocol-readers.ts";
import { ENCODERS, encodeAll } from "../support/encoders.ts";
import { assertEquals, group } from "../support/harness.ts";
import { readChatChunks } from "../support/protocol-readers.ts";

const LEAD = "🗼 東京タワーは、";
const CITED = "高さ333メートル 📡";
const TAIL = "。赤と白です。";
const citedPart = (text: string): EncodableEvent => ({
  type: "reasoning-part",
  part: { type: "block", block: { type: "text", text, citations: [WEB] } },
});
const finish: EncodableEvent = {
  type: "finish",
  reason: "stop",
  rawReason: "end_turn",
  toolCalls: [],
  invalidToolCalls: [],
  text: LEAD + CITED + TAIL,
  reasoning: "",
};
const text = (value: string): EncodableEvent => ({ type: "text-delta", text: value });

/** The url_citations (Responses' flat shape) the Chat and Responses encoders write, and their texts. */
function spansOf(events: readonly EncodableEvent[]) {
  const chat = readChatChunks(encodeAll(ENCODERS.openai(), events)).choices.get(0)!;
  const responses = readResponsesEvents(encodeAll(ENCODERS.responses(), events));
  const annotations = responses.items.flatMap(
    (item) => (item["content"] as { annotations?: Record<string, unknown>[] }[] | undefined) ?? [],
  );
  return {
    chat: (chat.annotations ?? []).map((a) => a["url_citation"] as Record<string, unknown>),
    chatText: chat.content,
    responses: annotations.flatMap((part) => part.annotations ?? []),
    responsesText: responses.text,
  };
}

const sliced = (text: string, annotation: Record<string, unknown>) =>
  text.slice(annotation["start_index"] as number, annotation["end_index"] as number);

group("Cited spans through the Chat and Responses encoders", (test) => {
  test("a cited text after emoji and Japanese: its positions count UTF-16 code units", () => {
    const { chat, chatText, responses, responsesText } = spansOf([
      text(LEAD),
      text(CITED),
      citedPart(CITED),
      text(TAIL),
      finish,
    ]);
    const start = LEAD.length; // 10 UTF-16 units: 9 code points (the emoji is two units), 26 UTF-8 bytes
    assertEquals([start, new TextEncoder().encode(LEAD).length, [...LEAD].length], [10, 26, 9]);
    const expected = { url: WEB.url, title: WEB.title, start_index: start, end_index: start + CITED.length };
    assertEquals(chat, [expected]);
    assertEquals(responses, [{ type: "url_citation", ...expected }]);
    assertEquals([sliced(chatText, chat[0]!), sliced(responsesText, responses[0]!)], [CITED, CITED]);
  });

  test("a cited text part that comes after more text is placed where its text is, not at the end", () => {
    const { chat, chatText, responses, responsesText } = spansOf([
      text(LEAD),
      text(CITED),
      text(TAIL),
      citedPart(CITED),
      finish,
    ]);
    assertEquals(
      [chat.map((a) => sliced(chatText, a)), responses.map((a) => sliced(responsesText, a))],
      [[CITED], [CITED]],
    );
    assertEquals(chat[0]!["start_index"], LEAD.length);
  });

  test("a cited text part whose text was not shown gets no annotation", () => {
    const { chat, responses } = spansOf([text(LEAD), text(TAIL), citedPart(CITED), finish]);
    assertEquals([chat, responses], [[], []]);
  });
});
