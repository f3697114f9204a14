// OpenAI Responses: a reasoning summary in several parts. With `reasoning.summary: "detailed"`,
// gpt-5.x streams a reasoning item's summary as parts: `response.reasoning_summary_part.added`
// with `summary_index` 0, 1, 2, ..., each part's text in `response.reasoning_summary_text.delta`
// events, and the item's `summary` lists them apart. Each part is a section that opens with its
// own bold title ("**Checking the harbour**"), written with no blank line before it: Codex, which
// shows these summaries, puts a blank line between two parts at each `reasoning_summary_part.added`
// (its reasoning section break). Joined without one, a part's last sentence ran into the next
// title ("...tide table.**Reading the table**"). The parts of one reasoning item are joined with a
// blank line; a part numbered 0 (a summary's first) gets none.
//
// Provenance: BUILT BY HAND in the shape of vercel/ai's recording of Azure's gpt-5.4 with a
// detailed summary (packages/openai/src/responses/__fixtures__/
// azure-gpt5-reasoning-multi-summary-no-encryption.chunks.txt at e76dafc: `delta` before
// `item_id`, `obfuscation` on each delta, three summary parts), with this project's own text, ids
// and values; OpenAI's own key order (which the decoder reads without a full parse) is checked too.
import fc from "fast-check";
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";

const RS = "rs_harbour";
const PARTS = [
  "**Checking the harbour**\n\nThe user asks when the tide is high at Roscoff; I should call the tide table.",
  "**Reading the table**\n\nThe table gives two high waters; the afternoon one suits a sailing trip.",
];

/** One reasoning item whose summary streams in `parts`, each in two deltas, in Azure's key order or OpenAI's. */
function reasoningEvents(id: string, index: number, parts: readonly string[], azure: boolean): object[] {
  const delta = (summary_index: number, text: string) =>
    azure
      ? {
          type: "response.reasoning_summary_text.delta",
          delta: text,
          item_id: id,
          obfuscation: "xxxx",
          output_index: index,
          summary_index,
        }
      : { type: "response.reasoning_summary_text.delta", item_id: id, output_index: index, summary_index, delta: text };
  return [
    { type: "response.output_item.added", item: { id, type: "reasoning", summary: [] }, output_index: index },
    ...parts.flatMap((text, summary_index) => [
      {
        type: "response.reasoning_summary_part.added",
        item_id: id,
        output_index: index,
        part: { type: "summary_text", text: "" },
        summary_index,
      },
      delta(summary_index, text.slice(0, 20)),
      delta(summary_index, text.slice(20)),
      { type: "response.reasoning_summary_text.done", item_id: id, output_index: index, summary_index, text },
      {
        type: "response.reasoning_summary_part.done",
        item_id: id,
        output_index: index,
        part: { type: "summary_text", text },
        summary_index,
      },
    ]),
    {
      type: "response.output_item.done",
      item: { id, type: "reasoning", summary: parts.map((text) => ({ type: "summary_text", text })) },
      output_index: index,
    },
  ];
}

/** The SSE body: OpenAI writes `type` then `sequence_number` first; `JSON.stringify` keeps each event's own order after them. */
const sse = (events: readonly object[]): string =>
  events
    .map((event, sequence_number) => {
      const { type, ...rest } = event as { type: string };
      return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number, ...rest })}\n\n`;
    })
    .join("");

const body = (azure: boolean, parts: readonly string[] = PARTS) =>
  sse([
    { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } },
    ...reasoningEvents(RS, 0, parts, azure),
    { type: "response.completed", response: { id: "resp_1", status: "completed", output: [] } },
  ]);

async function run(chunks: Uint8Array[]): Promise<ToolCallEvent[]> {
  const events = await collect(streamToolCalls(fromChunks(chunks), { provider: "openai-responses" }));
  assertEventInvariants(events);
  return events;
}

group("OpenAI Responses: a reasoning summary in several parts", (test) => {
  test("the parts of a summary are joined with a blank line, in Azure's key order and in OpenAI's", async () => {
    for (const azure of [true, false]) {
      const finish = assertFinished(await run([bytes(body(azure))]));
      assertEquals(finish.reasoning, PARTS.join("\n\n"));
      // The item keeps its parts apart for the next turn.
      assertEquals(
        finish.reasoningParts?.map((part) => part.type === "item" && part.summary?.length),
        [PARTS.length],
      );
    }
  });

  test("a summary's first part gets no separator before it", async () => {
    const finish = assertFinished(await run([bytes(body(false, PARTS.slice(0, 1)))]));
    assertEquals(finish.reasoning, PARTS[0]);
  });

  test("any split of the bytes gives the same events", async () => {
    const data = bytes(body(true));
    const whole = await run([data]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 40 }), async (cuts) => {
        assertEquals(await run(splitAt(data, cuts)), whole);
      }),
      { seed: 2026, numRuns: 12 },
    );
  });
});
