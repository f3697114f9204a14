// OpenAI Responses: a reasoning item's two texts. `ResponseReasoningItem` (openai-node) carries a
// `summary` of `summary_text` parts (`response.reasoning_summary_text.delta`) and a `content` of
// `reasoning_text` parts (`response.reasoning_text.delta`): the raw reasoning, which gpt-oss sends
// on vLLM, LM Studio and Ollama's Responses endpoints with no `encrypted_content`, and needs back
// in the next turn's input during a tool loop. The decoder marks which text each delta is, the
// accumulator keeps the mark, the finish's reasoning item keeps the `content`, and
// `responsesInputItems` sends it back (it was dropped). The Responses encoder writes both texts as
// summary: OpenAI streams raw reasoning as `response.reasoning_text.*`, Open Responses as
// `response.reasoning.*`, and `/v1/responses` serves clients of both.
//
// Provenance: BUILT BY HAND from the event and item types of openai-node's responses.d.ts
// (`ResponseReasoningTextDeltaEvent`, `ResponseReasoningItem`), OpenAI's key order.
import { OpenAIResponsesEncoderStream } from "../../../src/encode.ts";
import { responsesInputItems, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

const SUMMARY = [{ type: "summary_text", text: "Sum." }];
const CONTENT = [{ type: "reasoning_text", text: "Deep thought." }];

/**
 * A reasoning item (summary then raw reasoning, or raw reasoning alone as gpt-oss sends it), then a
 * call; `raw` names the raw reasoning's events: OpenAI's `reasoning_text`, or Open Responses'
 * `reasoning` (its spec's `ResponseReasoningDeltaStreamingEvent`, `type: "response.reasoning.delta"`,
 * ../shared/conformance/open-responses/openapi.json), which its servers (vLLM, Ollama, LM Studio) stream.
 */
function body(summary: boolean, raw: "reasoning_text" | "reasoning" = "reasoning_text"): string {
  const at = { item_id: "rs_1", output_index: 0 };
  const events = [
    { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } },
    { type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id: "rs_1", summary: [] } },
    ...(summary
      ? [
          { type: "response.reasoning_summary_part.added", ...at, summary_index: 0, part: { ...SUMMARY[0], text: "" } },
          { type: "response.reasoning_summary_text.delta", ...at, summary_index: 0, delta: "Sum." },
        ]
      : []),
    { type: "response.content_part.added", ...at, content_index: 0, part: { type: "reasoning_text", text: "" } },
    { type: `response.${raw}.delta`, ...at, content_index: 0, delta: "Deep " },
    { type: `response.${raw}.delta`, ...at, content_index: 0, delta: "thought." },
    { type: `response.${raw}.done`, ...at, content_index: 0, text: "Deep thought." },
    {
      type: "response.output_item.done",
      output_index: 0,
      item: { type: "reasoning", id: "rs_1", summary: summary ? SUMMARY : [], content: CONTENT },
    },
    {
      type: "response.output_item.done",
      output_index: 1,
      item: {
        type: "function_call",
        id: "fc_1",
        call_id: "call_1",
        name: "look",
        arguments: "{}",
        status: "completed",
      },
    },
    { type: "response.completed", response: { id: "resp_1", status: "completed", output: [] } },
  ];
  return events
    .map(
      ({ type, ...rest }, sequence_number) =>
        `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number, ...rest })}\n\n`,
    )
    .join("");
}

async function run(summary: boolean, raw?: "reasoning_text" | "reasoning"): Promise<ToolCallEvent[]> {
  const events = await collect(
    streamToolCalls(fromChunks([bytes(body(summary, raw))]), { provider: "openai-responses" }),
  );
  assertEventInvariants(events);
  return events;
}

/** The Responses encoder's events for `events` (`data:` payloads, parsed). */
async function encoded(events: readonly ToolCallEvent[]): Promise<{ type: string; [key: string]: unknown }[]> {
  const encoder = new OpenAIResponsesEncoderStream({ model: "gpt-oss-120b", generateId: () => "x" });
  const text = await new Response(fromChunks([...events]).pipeThrough(encoder)).text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: {"))
    .map((line) => JSON.parse(line.slice(6)));
}

group("OpenAI Responses: a reasoning item's summary and raw reasoning text", (test) => {
  test("each reasoning delta says which text it is", async () => {
    const deltas = (await run(true)).filter((event) => event.type === "reasoning-delta");
    assertEquals(
      deltas.map((event) => [event.text, event.field]),
      [
        ["Sum.", "summary"],
        ["Deep ", "content"],
        ["thought.", "content"],
      ],
    );
  });

  test("an Open Responses server's raw reasoning (response.reasoning.delta) streams as OpenAI's does", async () => {
    // It was dropped: no reasoning delta, the finish's `reasoning` empty, only the item's content kept.
    const events = await run(false, "reasoning");
    assertEquals(
      events.filter((event) => event.type === "reasoning-delta").map((event) => [event.text, event.field]),
      [
        ["Deep ", "content"],
        ["thought.", "content"],
      ],
    );
    assertEquals(assertFinished(events).reasoning, "Deep thought.");
    assertEquals(events, await run(false, "reasoning_text"));
  });

  test("the finish keeps the item's content, and responsesInputItems sends it back", async () => {
    for (const summary of [true, false]) {
      const finish = assertFinished(await run(summary));
      assertEquals(finish.reasoningParts, [
        { type: "item", id: "rs_1", summary: summary ? SUMMARY : [], content: CONTENT },
      ]);
      assertEquals(responsesInputItems(finish)[0], {
        type: "reasoning",
        id: "rs_1",
        summary: summary ? SUMMARY : [],
        content: CONTENT,
      });
    }
  });

  test("the Responses encoder writes the raw reasoning as summary, which OpenAI's and Open Responses' clients both read", async () => {
    const out = await encoded(await run(true));
    const types = out.map((event) => event.type).filter((type) => /reasoning|content_part/.test(type));
    assertEquals(types, [
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
    ]);
  });
});
