// Review 77: a message's text given by `response.output_text.done` is not given again by the
// events that end the message when the two name the message differently (the done event without
// an `item_id`, or a server that renames an item's id between its events, which the class's own
// comment names): the text once. `done` keys a message by its `item_id` else its `output_index`,
// `item` by its `id` else its place: when one event has the id and the other not, or another, the
// text is given twice.
import { OpenAIResponsesDecoder, type ProviderDelta } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";

const MESSAGE = {
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "It is 4.", annotations: [] }],
};
const CREATED = { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } };
const COMPLETED = { type: "response.completed", response: { id: "resp_1", status: "completed", output: [MESSAGE] } };

function texts(events: Record<string, unknown>[]): string[] {
  const out: ProviderDelta[] = [];
  const decoder = new OpenAIResponsesDecoder((delta) => out.push(delta));
  events.forEach((event, i) => decoder.decode({ data: JSON.stringify({ ...event, sequence_number: i }) }));
  decoder.end();
  return out.flatMap((delta) => (delta.type === "text-delta" ? [delta.text] : []));
}

group("OpenAI Responses: a message's text from its done event, once whatever names the message", (test) => {
  test("`output_text.done` with no `item_id`, then `response.completed`: the text once", () => {
    const done = { type: "response.output_text.done", output_index: 0, content_index: 0, text: "It is 4." };
    assertEquals(texts([CREATED, done, COMPLETED]), ["It is 4."]);
  });

  test("`output_text.done` of one id, the completed message of another at its place (an id renamed, as vLLM does): the text once", () => {
    const done = {
      type: "response.output_text.done",
      item_id: "msg_stream_1",
      output_index: 0,
      content_index: 0,
      text: "It is 4.",
    };
    assertEquals(texts([CREATED, done, COMPLETED]), ["It is 4."]);
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
    const done = {
      type: "response.output_text.done",
      item_id: "msg_1",
      output_index: 0,
      content_index: 0,
      text: "It is 4.",
    };
    const itemDone = { type: "response.output_item.done", output_index: 0, item: MESSAGE };
    const resumed = [{ type: "keepalive" }, done, itemDone, COMPLETED].map((event, i) => ({
      ...event,
      sequence_number: 40 + i,
    }));
    const out: ProviderDelta[] = [];
    const decoder = new OpenAIResponsesDecoder((delta) => out.push(delta));
    for (const event of resumed) decoder.decode({ data: JSON.stringify(event) });
    decoder.end();
    assertEquals(
      out.flatMap((delta) => (delta.type === "text-delta" ? [delta.text] : [])),
      [],
    );
  });
});

// A message without an id is known by its place alone: a key every such message shared (28c3597c's
// `#`) had the first one given hide the others (review 77).
group("OpenAI Responses: two messages without ids, their text only at their end", (test) => {
  const unnamed = (text: string) => ({
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  });
  test("in `response.completed`: both texts", () => {
    const completed = {
      type: "response.completed",
      response: { id: "resp_1", status: "completed", output: [unnamed("First."), unnamed("Second.")] },
    };
    assertEquals(texts([CREATED, completed]), ["First.", "Second."]);
  });

  test("in `output_text.done` events without `item_id`, each at its place: both texts", () => {
    const done = (output_index: number, text: string) => ({
      type: "response.output_text.done",
      output_index,
      content_index: 0,
      text,
    });
    assertEquals(texts([CREATED, done(0, "First."), done(1, "Second.")]), ["First.", "Second."]);
  });
});
