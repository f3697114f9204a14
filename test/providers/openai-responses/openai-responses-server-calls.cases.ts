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
// the same items as provider-executed calls, and so does this library: each a `providerExecuted`
// call named after its tool, its input the item's, the item itself (kept) its result. The next
// turn is typed by the SDK's `ResponseInputItem`.
import fc from "fast-check";
import type {
  ResponseCodeInterpreterToolCall,
  ResponseFileSearchToolCall,
  ResponseInputItem,
} from "openai/resources/responses/responses";
import { assistantMessage, providerKit, streamToolCalls, type FinishEvent } from "../../../src/index.ts";
import { streamToolCalls as responsesStreamToolCalls } from "../../../src/openai-responses.ts";
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

/** Each tool OpenAI ran as the call it reports: id, name, input; every one provider-executed. */
const SERVER_CALLS = [
  ["ws_2", "web_search", { action: search.action }],
  ["ci_4", "code_interpreter", { code: "print(2 + 2)", container_id: "cntr_9" }],
  ["ig_5", "image_generation", {}],
  ["fs_6", "file_search", { queries: ["tides"] }],
];
const callsOf = (finish: FinishEvent) =>
  finish.toolCalls.map((call) => [call.id, call.name, call.arguments, call.providerExecuted]);

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
  test("at any split: provider-executed calls only, finish stop, the next turn holds every item in order", async () => {
    const data = bytes(stream);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 8 }), async (cuts) => {
        const finish = await finishOf(splitAt(data, cuts));
        assertEquals([finish.reason, finish.text], ["stop", TEXT]);
        assertEquals(
          callsOf(finish),
          SERVER_CALLS.map((call) => [...call, true]),
        );
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
        {
          role: "assistant",
          content: finish.text ?? "",
          toolCalls: finish.toolCalls,
          reasoningParts: finish.reasoningParts,
        },
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

  test("each call starts with its item, the code streams as its input, the rest at its end, then its item (its result)", async () => {
    const events = await collect(streamToolCalls(fromChunks([bytes(stream)]), { provider: "openai-responses" }));
    const seen = events.flatMap((event) =>
      event.type === "tool-call-start" || event.type === "tool-call"
        ? [`${event.type}:${event.id}`]
        : event.type === "tool-call-delta"
          ? [`delta:${event.argumentsDelta}`]
          : event.type === "reasoning-part" && event.part.type === "block"
            ? [`block:${String(event.part.block["id"])}`]
            : [],
    );
    assertEquals(seen, [
      "tool-call-start:ws_2",
      'delta:{"action":{"type":"search","query":"tide times Lisbon"}}',
      "tool-call:ws_2",
      "block:ws_2",
      "tool-call-start:ci_4",
      'delta:{"code":"print(2 + 2)',
      'delta:","container_id":"cntr_9"}',
      "tool-call:ci_4",
      "block:ci_4",
      "tool-call-start:ig_5",
      "delta:{}",
      "tool-call:ig_5",
      "block:ig_5",
      "tool-call-start:fs_6",
      'delta:{"queries":["tides"]}',
      "tool-call:fs_6",
      "block:fs_6",
    ]);
  });

  test("without the builtInCalls plug-in they are kept blocks alone, sent back the same", async () => {
    const events = await collect(responsesStreamToolCalls(fromChunks([bytes(stream)])));
    assertEventInvariants(events);
    const finish = assertFinished(events);
    assertEquals([finish.reason, finish.toolCalls.length], ["stop", 0]);
    assertEquals(assistantMessage("openai-responses", finish), expected);
  });
});
