// OpenAI Responses: the items of tools OpenAI runs itself (`web_search_call`,
// `code_interpreter_call`, `image_generation_call`, `file_search_call`) go back on the next turn
// in their place (issue 34). A reasoning model's turn sent back whole (`store: false`) is refused
// when a reasoning item lacks the item that followed it ("Item 'rs_...' of type 'reasoning' was
// provided without its required following item"), and a search's results are the model's context.
//
// Provenance: the stream is BUILT BY HAND, in this project's own ids and data, from the `openai`
// SDK 6's types (`ResponseFunctionWebSearch`, `ResponseCodeInterpreterToolCall`,
// `ResponseOutputItem.ImageGenerationCall`, `ResponseFileSearchToolCall`, and their streaming
// events `response.web_search_call.*`, `response.code_interpreter_call_code.*`,
// `response.image_generation_call.partial_image`, `response.file_search_call.*`); vercel/ai reads
// the same items as provider-executed calls. The next turn is typed by the SDK's `ResponseInputItem`.
import fc from "fast-check";
import type {
  ResponseCodeInterpreterToolCall,
  ResponseFileSearchToolCall,
  ResponseInputItem,
} from "openai/resources/responses/responses";
import { assistantMessage, providerKit, streamToolCalls, type FinishEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { responsesSse } from "./built-in-calls-recordings.ts";

const reasoning = (id: string) => ({ id, type: "reasoning", summary: [], encrypted_content: `enc-${id}` });
const search = {
  id: "ws_2",
  type: "web_search_call",
  status: "completed",
  action: { type: "search", query: "tide times Lisbon" },
} as const;
const code: ResponseCodeInterpreterToolCall = {
  id: "ci_4",
  type: "code_interpreter_call",
  status: "completed",
  code: "print(2 + 2)",
  container_id: "cntr_9",
  outputs: [{ type: "logs", logs: "4\n" }],
};
const image = { id: "ig_5", type: "image_generation_call", status: "completed", result: "iVBORw0KGgo=" } as const;
const files: ResponseFileSearchToolCall = {
  id: "fs_6",
  type: "file_search_call",
  status: "completed",
  queries: ["tides"],
  results: null,
};
const TEXT = "High tide is at 14:05.";
const message = {
  id: "msg_7",
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: TEXT, annotations: [] }],
};

const added = (output_index: number, item: object) => ({
  type: "response.output_item.added",
  output_index,
  item: { ...item, status: "in_progress" },
});
const done = (output_index: number, item: object) => ({
  type: "response.output_item.done",
  output_index,
  item,
});

/** Reasoning, a web search, reasoning, code, an image, a file search, then the answer (store: false). */
const stream = responsesSse([
  { type: "response.created", response: { id: "resp_srv", object: "response", status: "in_progress", output: [] } },
  added(0, reasoning("rs_1")),
  done(0, reasoning("rs_1")),
  added(1, { id: "ws_2", type: "web_search_call", action: { type: "search" } }),
  { type: "response.web_search_call.in_progress", output_index: 1, item_id: "ws_2" },
  { type: "response.web_search_call.searching", output_index: 1, item_id: "ws_2" },
  { type: "response.web_search_call.completed", output_index: 1, item_id: "ws_2" },
  done(1, search),
  added(2, reasoning("rs_3")),
  done(2, reasoning("rs_3")),
  added(3, { ...code, code: "", outputs: null }),
  { type: "response.code_interpreter_call_code.delta", output_index: 3, item_id: "ci_4", delta: "print(2 + 2)" },
  { type: "response.code_interpreter_call_code.done", output_index: 3, item_id: "ci_4", code: "print(2 + 2)" },
  { type: "response.code_interpreter_call.completed", output_index: 3, item_id: "ci_4" },
  done(3, code),
  added(4, { id: "ig_5", type: "image_generation_call", result: null }),
  {
    type: "response.image_generation_call.partial_image",
    output_index: 4,
    item_id: "ig_5",
    partial_image_index: 0,
    partial_image_b64: "iVBO",
  },
  done(4, image),
  added(5, { ...files, results: null }),
  { type: "response.file_search_call.searching", output_index: 5, item_id: "fs_6" },
  done(5, files),
  added(6, { ...message, content: [] }),
  { type: "response.output_text.delta", output_index: 6, item_id: "msg_7", content_index: 0, delta: TEXT },
  done(6, message),
  {
    type: "response.completed",
    response: { id: "resp_srv", object: "response", status: "completed", output: [], usage: null },
  },
]);

const finishOf = async (chunks: Uint8Array[]): Promise<FinishEvent> => {
  const events = await collect(streamToolCalls(fromChunks(chunks), { provider: "openai-responses" }));
  assertEventInvariants(events);
  return assertFinished(events);
};

const reasoningInput = (id: string): ResponseInputItem => ({
  type: "reasoning",
  id,
  summary: [],
  encrypted_content: `enc-${id}`,
});
/** The turn as it came: each server tool's item right after the reasoning item before it. */
const expected: ResponseInputItem[] = [
  reasoningInput("rs_1"),
  search,
  reasoningInput("rs_3"),
  code,
  image,
  files,
  { type: "message", role: "assistant", content: TEXT },
];

group("OpenAI Responses: the items of tools OpenAI ran go back in place", (test) => {
  test("at any split: no call for the client, finish stop, the next turn holds every item in order", async () => {
    const data = bytes(stream);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 8 }), async (cuts) => {
        const finish = await finishOf(splitAt(data, cuts));
        assertEquals([finish.reason, finish.text, finish.toolCalls.length], ["stop", TEXT, 0]);
        assertEquals(assistantMessage("openai-responses", finish), expected);
      }),
      { numRuns: 25 },
    );
  });

  test("the request kit sends them back in place too (a server's next turn)", async () => {
    const finish = await finishOf([bytes(stream)]);
    const body = providerKit("openai-responses").requestBody({
      model: "gpt-5",
      messages: [
        { role: "user", content: "When is high tide?" },
        { role: "assistant", content: finish.text ?? "", toolCalls: [], reasoningParts: finish.reasoningParts },
        { role: "user", content: "And tomorrow?" },
      ],
      tools: [],
    });
    assertEquals(body["input"], [
      { role: "user", content: "When is high tide?" },
      ...expected.slice(0, -1),
      { role: "assistant", content: TEXT },
      { role: "user", content: "And tomorrow?" },
    ]);
  });
});
