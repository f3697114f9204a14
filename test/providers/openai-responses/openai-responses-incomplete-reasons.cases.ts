// OpenAI Responses' `incomplete_details.reason` (openai-node 7.60.0, src/resources/responses/
// responses.ts `Response.IncompleteDetails`: `'max_output_tokens' | 'max_messages' |
// 'content_filter' | 'steered'`; "`steered` means the response stopped at a safe output boundary
// after a WebSocket `response.steer` event. The server can then create a successor response
// automatically with the queued input."). Each is the finish's raw reason; `max_messages`, a limit
// that cut the response as `max_output_tokens` does, is `length`; `steered`, an answer ended early
// by the user's steering (neither cut by a limit nor finished), is `other`. A Responses client gets
// the reason as OpenAI sent it; Chat, Messages and the AI SDK UI stream each their own nearest.
//
// Provenance: the terminal events are built by hand in the shape openai-node types them
// (`ResponseIncompleteEvent`: `{type: "response.incomplete", response, sequence_number}`, the
// response `status: "incomplete"` with its `incomplete_details`); the ids are made up.
import type { ResponseIncompleteEvent } from "openai/resources/responses/responses";
import { readOpenAIResponse, streamToolCalls } from "../../../src/index.ts";
import type { FinishEvent, ToolCallEvent } from "../../../src/index.ts";
import { readMessagesEvents, readResponsesEvents } from "../../support/agent-protocol-readers.ts";
import { AGENT_OPTIONS, ENCODERS, encodeAll } from "../../support/encoders.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { readChatChunks, readUIChunks } from "../../support/protocol-readers.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

const TEXT = { type: "output_text", text: "Looking at the", annotations: [] };
const MESSAGE = { id: "msg_1", type: "message", role: "assistant", status: "completed", content: [TEXT] };

/** A text answer that ended `incomplete` for `reason`, as the Responses stream sends it. */
function incomplete(reason: string): string {
  const terminal = {
    type: "response.incomplete",
    sequence_number: 5,
    response: {
      id: "resp_1",
      object: "response",
      status: "incomplete",
      incomplete_details: { reason },
      output: [MESSAGE],
      usage: { input_tokens: 20, output_tokens: 4, total_tokens: 24 },
    },
  };
  const events: Record<string, unknown>[] = [
    { type: "response.created", sequence_number: 0, response: { id: "resp_1", status: "in_progress", output: [] } },
    { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { ...MESSAGE, content: [] } },
    {
      type: "response.output_text.delta",
      sequence_number: 2,
      output_index: 0,
      item_id: "msg_1",
      content_index: 0,
      delta: "Looking at the",
    },
    { type: "response.output_item.done", sequence_number: 3, output_index: 0, item: MESSAGE },
    terminal as unknown as ResponseIncompleteEvent as unknown as Record<string, unknown>,
  ];
  return events.map((event) => `event: ${String(event["type"])}\ndata: ${JSON.stringify(event)}\n\n`).join("");
}

const eventsOf = (reason: string): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(incomplete(reason))]), { provider: "openai-responses" }));
const finishOf = async (reason: string): Promise<FinishEvent> => assertFinished(await eventsOf(reason));

group("OpenAI Responses: every incomplete_details.reason", (test) => {
  test("each reason is the raw reason, normalized to what it says", async () => {
    const read: [string | null, string][] = [];
    for (const reason of ["max_output_tokens", "max_messages", "content_filter", "steered"]) {
      const finish = await finishOf(reason);
      read.push([finish.rawReason, finish.reason]);
    }
    assertEquals(read, [
      ["max_output_tokens", "length"],
      ["max_messages", "length"],
      ["content_filter", "content-filter"],
      ["steered", "other"],
    ]);
  });

  test("an incomplete response without a reason stays incomplete, a length stop", async () => {
    const body = incomplete("x").replace('"incomplete_details":{"reason":"x"}', '"incomplete_details":null');
    const finish = assertFinished(
      await collect(streamToolCalls(fromChunks([bytes(body)]), { provider: "openai-responses" })),
    );
    assertEquals([finish.rawReason, finish.reason], ["incomplete", "length"]);
  });

  test("a Responses client gets each reason as OpenAI sent it", async () => {
    for (const reason of ["max_output_tokens", "max_messages", "content_filter", "steered"]) {
      const events = await eventsOf(reason);
      const reading = readResponsesEvents(encodeAll(ENCODERS.responses(), events));
      assertEquals(
        [reading.terminal, reading.response["incomplete_details"], reading.text],
        ["response.incomplete", { reason }, "Looking at the"],
        reason,
      );
      const whole = await readOpenAIResponse(fromChunks(events), AGENT_OPTIONS.responses());
      assert(whole.type === "response", "a response");
      assertEquals([whole.response.status, whole.response.incomplete_details], ["incomplete", { reason }], reason);
    }
  });

  test("a steered answer is whole: its message item completed, not cut", async () => {
    const reading = readResponsesEvents(encodeAll(ENCODERS.responses(), await eventsOf("steered")));
    assertEquals(
      reading.items.map((item) => item["status"]),
      ["completed"],
    );
  });

  test("Chat, Messages and the UI stream: max_messages a length stop, steered a plain one", async () => {
    const stops: string[][] = [];
    for (const reason of ["max_messages", "steered"]) {
      const events = await eventsOf(reason);
      const chat = readChatChunks(encodeAll(ENCODERS.openai(), events)).choices.get(0)?.finishReason;
      const messages = readMessagesEvents(encodeAll(ENCODERS.anthropic(), events)).stopReason;
      const ui = readUIChunks(encodeAll(ENCODERS.ui(), events)).finishReason;
      stops.push([String(chat), String(messages), String(ui)]);
    }
    assertEquals(stops, [
      ["length", "max_tokens", "length"],
      ["stop", "end_turn", "other"],
    ]);
  });
});
