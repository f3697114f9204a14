// Some Responses servers send a message's text only in the events that end it, no
// `response.output_text.delta`: gemini-web2api streamed `response.created`, `response.output_text.done`,
// `response.completed` (its PR 57), and TanStack/ai (PR 937) recovers text that OpenAI or OpenRouter
// carry only in `response.completed`'s output. The text is the answer: it is read from the first of
// those events, once, and never when deltas streamed it.
import { OpenAIResponsesDecoder, type ProviderDelta } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";

const PART = { type: "output_text", text: "It is 4.", annotations: [] };
const MESSAGE = { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [PART] };
const CREATED = { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } };
const ADDED = {
  type: "response.output_item.added",
  output_index: 0,
  item: { ...MESSAGE, status: "in_progress", content: [] },
};
const TEXT_DONE = {
  type: "response.output_text.done",
  output_index: 0,
  content_index: 0,
  item_id: "msg_1",
  text: "It is 4.",
};
const ITEM_DONE = { type: "response.output_item.done", output_index: 0, item: MESSAGE };
const COMPLETED = { type: "response.completed", response: { id: "resp_1", status: "completed", output: [MESSAGE] } };
const DELTA = (delta: string) => ({
  type: "response.output_text.delta",
  output_index: 0,
  content_index: 0,
  item_id: "msg_1",
  delta,
});

/** The text deltas a decoder gives for the events (numbered in order). */
function texts(events: Record<string, unknown>[]): string[] {
  const out: ProviderDelta[] = [];
  const decoder = new OpenAIResponsesDecoder((delta) => out.push(delta));
  events.forEach((event, i) => decoder.decode({ data: JSON.stringify({ ...event, sequence_number: i }) }));
  decoder.end();
  return out.flatMap((delta) => (delta.type === "text-delta" ? [delta.text] : []));
}

group("OpenAI Responses: a message's text that no delta streamed", (test) => {
  test("only in `response.output_text.done` (gemini-web2api): the text, once", () => {
    assertEquals(texts([CREATED, TEXT_DONE, COMPLETED]), ["It is 4."]);
    assertEquals(texts([CREATED, ADDED, TEXT_DONE, ITEM_DONE, COMPLETED]), ["It is 4."]);
  });

  test("only in the message's `output_item.done`, or only in `response.completed`: the text, once", () => {
    assertEquals(texts([CREATED, ADDED, ITEM_DONE, COMPLETED]), ["It is 4."]);
    assertEquals(texts([CREATED, ADDED, COMPLETED]), ["It is 4."]);
  });

  test("streamed as deltas: the events that end it add nothing", () => {
    const streamed = [CREATED, ADDED, DELTA("It is "), DELTA("4."), TEXT_DONE, ITEM_DONE, COMPLETED];
    assertEquals(texts(streamed), ["It is ", "4."]);
  });
});

// Review 77 (whole77): the text read from `output_text.done` is given once even when `response.completed`
// names the message anew (vLLM and mistral.rs rename an item's ids between its events) or not at all.
group("OpenAI Responses: a message's final text under another name", (test) => {
  const completed = (message: Record<string, unknown>) => ({
    type: "response.completed",
    response: { id: "resp_1", status: "completed", output: [message] },
  });
  test("`output_text.done` then `response.completed` naming the message anew: the text, once", () => {
    assertEquals(texts([CREATED, TEXT_DONE, completed({ ...MESSAGE, id: "msg_renamed" })]), ["It is 4."]);
  });

  test("`output_text.done` then `response.completed` whose message has no id: the text, once", () => {
    const { id: _, ...unnamed } = MESSAGE;
    assertEquals(texts([CREATED, TEXT_DONE, completed(unnamed)]), ["It is 4."]);
  });
});
