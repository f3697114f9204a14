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

/** The text deltas a decoder gives for the events (numbered in order from `first`). */
function texts(events: Record<string, unknown>[], first = 0): string[] {
  const out: ProviderDelta[] = [];
  const decoder = new OpenAIResponsesDecoder((delta) => out.push(delta));
  events.forEach((event, i) => decoder.decode({ data: JSON.stringify({ ...event, sequence_number: first + i }) }));
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

// The end names the message anew or not at all (vLLM and mistral.rs rename an item's id between its
// events), or the done event has no `item_id`: a message is known by its id and by its place.
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

  test("`output_text.done` with no `item_id`, then `response.completed`: the text once", () => {
    const { item_id: _, ...unnamed } = TEXT_DONE;
    assertEquals(texts([CREATED, unnamed, COMPLETED]), ["It is 4."]);
  });

  test("`output_text.done` of one id, the completed message of another at its place (an id renamed, as vLLM does): the text once", () => {
    assertEquals(texts([CREATED, { ...TEXT_DONE, item_id: "msg_stream_1" }, COMPLETED]), ["It is 4."]);
  });
});

// A background response's stream resumed with `starting_after` (OpenAI's `GET /v1/responses/{id}?
// stream=true&starting_after=N`, which the library's detection reads, keepalive first) opens after
// event N: one cut after the text's last delta opens at its `output_text.done`. The client has the
// text from the stream before; the resumed part holds none. No `response.created` opens it, which
// every stream that sends its text only at the end (gemini-web2api, the completed-only gateways)
// does send.
group("OpenAI Responses: a stream resumed after its last text delta", (test) => {
  test("adds no second copy of the text it streamed before the cut", () => {
    const resumed = [{ type: "keepalive" }, TEXT_DONE, ITEM_DONE, COMPLETED];
    assertEquals(texts(resumed, 40), []);
  });
});

// A message without an id is known by its place alone, never by a key such messages share.
group("OpenAI Responses: two messages without ids, their text only at their end", (test) => {
  const { id: _, ...message } = MESSAGE;
  const unnamed = (text: string) => ({ ...message, content: [{ ...PART, text }] });
  test("in `response.completed`: both texts", () => {
    const completed = {
      type: "response.completed",
      response: { id: "resp_1", status: "completed", output: [unnamed("First."), unnamed("Second.")] },
    };
    assertEquals(texts([CREATED, completed]), ["First.", "Second."]);
  });

  test("in `output_text.done` events without `item_id`, each at its place: both texts", () => {
    const { item_id: _, ...unnamed } = TEXT_DONE;
    const done = (output_index: number, text: string) => ({ ...unnamed, output_index, text });
    assertEquals(texts([CREATED, done(0, "First."), done(1, "Second.")]), ["First.", "Second."]);
  });
});
