// OpenAI Responses stream events the decoder reads nothing from, as `openai` 7.60.0's
// ResponseStreamEvent types them: `response.compaction.compacting` (ResponseCompactionCompactingEvent:
// `item_id`, `output_index`, a status; the `compaction` item's `output_item.done` carries its
// `encrypted_content`, kept), `response.audio.delta` and `response.audio.transcript.delta` / `.done`
// (no `item_id`, no output item holds audio: ResponseOutputMessage's content is output_text or
// refusal), and an event type newer than the union. None carries text, a call or an error the
// decoder does not get from the items: each changes nothing, and the stream goes on.
// (`response.shell_call_output_content.*`, a hosted shell's output, whose `delta` is an object
// `{stdout, stderr}`, is in vercel/ai's recording openai-shell-container.1, with its expected result.)
//
// Provenance: BUILT BY HAND from those SDK types; ids, texts and the encrypted content are made up.
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";
import { responsesSse } from "./built-in-calls-recordings.ts";

const COMPACTION = { type: "compaction", id: "cmp_1", encrypted_content: "gAAAAABcompacted" };
const created = { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } };
const answer = [
  { type: "response.output_item.added", output_index: 1, item: { type: "message", id: "msg_1", content: [] } },
  { type: "response.output_text.delta", item_id: "msg_1", output_index: 1, content_index: 0, delta: "Done." },
  {
    type: "response.output_item.done",
    output_index: 1,
    item: { type: "message", id: "msg_1", content: [{ type: "output_text", text: "Done.", annotations: [] }] },
  },
  { type: "response.completed", response: { id: "resp_1", status: "completed", output: [] } },
];
/** A compaction item with its `compacting` status between its added and done, then an answer. */
const compacted = (between: Record<string, unknown>[]) => [
  created,
  { type: "response.output_item.added", output_index: 0, item: { type: "compaction", id: "cmp_1" } },
  ...between,
  { type: "response.output_item.done", output_index: 0, item: COMPACTION },
  ...answer,
];
const run = (payloads: Record<string, unknown>[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(responsesSse(payloads))]), { provider: "openai-responses" }));
/** A stream with some events more gives the same events as without them. */
const same = async (withEvents: Record<string, unknown>[], without: Record<string, unknown>[]) =>
  assertEquals(await run(withEvents), await run(without));

group("OpenAI Responses status events the decoder reads nothing from (openai 7.60.0)", (test) => {
  test("response.compaction.compacting changes nothing: the compaction item is kept once, the answer finishes", async () => {
    const events = await run(
      compacted([{ type: "response.compaction.compacting", item_id: "cmp_1", output_index: 0 }]),
    );
    assert(!events.some((e) => e.type === "error"), "no error");
    const finish = assertFinished(events);
    assertEquals([finish.reason, finish.text], ["stop", "Done."]);
    assertEquals(finish.reasoningParts, [{ type: "block", block: COMPACTION }]);
    await same(
      compacted([{ type: "response.compaction.compacting", item_id: "cmp_1", output_index: 0 }]),
      compacted([]),
    );
  });

  test("audio and transcript events add no text (no output item holds them) and never break the stream", async () => {
    const audio = [
      { type: "response.audio.delta", delta: "UklGRiQAAABXQVZF" },
      { type: "response.audio.transcript.delta", delta: "Done." },
      { type: "response.audio.transcript.done" },
      { type: "response.audio.done" },
    ];
    await same([created, ...audio, ...answer], [created, ...answer]);
    assertEquals(assertFinished(await run([created, ...audio, ...answer])).text, "Done.");
  });

  test("an event type newer than the SDK's union, with an object delta, changes nothing", async () => {
    const future = {
      type: "response.sandbox_call_output.delta",
      item_id: "sb_1",
      output_index: 0,
      delta: { bytes: 3 },
    };
    await same([created, future, ...answer], [created, ...answer]);
  });
});
