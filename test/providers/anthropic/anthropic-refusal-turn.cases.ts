// The next turn after an Anthropic refusal (issue 34). A refusal (`stop_reason: "refusal"`) may
// come before any output (`content: []`, the refusals-and-fallback guide's example) or cut the
// answer off after some text (the streaming-refusals guide's example). Anthropic refuses an
// assistant message with empty content unless it is the final one, so a turn with nothing to send
// back is left out; a turn with content goes back as it came (the guides ask the application to
// remove or rephrase the user's turn that was refused before it continues). The streams are built
// by hand from those two documented responses; the next turns are typed by the SDK's Param types.
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages/messages";
import fc from "fast-check";
import { assistantMessage, providerKit, runToolLoop, streamToolCalls } from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { anthropicSse } from "./turn-blocks-recordings.ts";

const message = (content: unknown[] = []): Record<string, unknown> => ({
  type: "message_start",
  message: { id: "msg_refused", type: "message", role: "assistant", model: "claude-fable-5", content, usage: {} },
});
const refusal = {
  type: "message_delta",
  delta: {
    stop_reason: "refusal",
    stop_sequence: null,
    stop_details: { type: "refusal", category: "cyber", explanation: "This request was declined." },
  },
  usage: { output_tokens: 0 },
};

/** A whole text block at `index`: its start, one delta, its stop. */
const textBlock = (index: number, text: string): Record<string, unknown>[] => [
  { type: "content_block_start", index, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index, delta: { type: "text_delta", text } },
  { type: "content_block_stop", index },
];
/** A whole `run_scan` tool_use block at `index`, its input in one fragment. */
const scanBlock = (index: number, id: string, json: string): Record<string, unknown>[] => [
  { type: "content_block_start", index, content_block: { type: "tool_use", id, name: "run_scan", input: {} } },
  { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json } },
  { type: "content_block_stop", index },
];

/** Refused before any output: no content block at all. */
const refusedBeforeOutput = anthropicSse(message(), refusal, { type: "message_stop" });
/** Refused after some text: the streaming-refusals guide's `"Hello.."`. */
const refusedAfterText = anthropicSse(message(), ...textBlock(0, "Hello.."), refusal, { type: "message_stop" });

/**
 * Refused right after a `tool_use` block stopped: the refusal may have cut it off. The SDK's tool
 * runner never runs it: its streaming runner releases a stopped call only at the next block or a
 * `message_delta` whose `stop_reason` is `tool_use` (lib/internal/BetaToolRunnerStream), and a
 * turn that stops for `refusal` runs no tool (BetaToolRunner's determineNextStepFromStopReason).
 * Built from the documented shapes.
 */
const refusedAfterCall = anthropicSse(
  message(),
  ...textBlock(0, "Scanning."),
  ...scanBlock(1, "toolu_scan", '{"host":"10.0.0.1"}'),
  refusal,
  { type: "message_stop" },
);

/**
 * Refused later in a turn whose call completed and was followed by text: the call ran (it was
 * complete before the refusal came), but the refused turn is not continued (the SDK's runner stops
 * at a `refusal` stop). Built from the documented shapes.
 */
const refusedAfterCallAndText = anthropicSse(
  message(),
  ...scanBlock(0, "toolu_list", '{"host":"10.0.0.2"}'),
  ...textBlock(1, "Now the exploit."),
  refusal,
  { type: "message_stop" },
);

const finishOf = async (chunks: Uint8Array[]) =>
  assertFinished(await collect(streamToolCalls(fromChunks(chunks), { provider: "anthropic" })));

group("Anthropic refusal: the next turn", (test) => {
  test("refused before any output: no assistant message goes back (empty content is refused)", async () => {
    const finish = await finishOf([bytes(refusedBeforeOutput)]);
    assertEquals([finish.reason, finish.rawReason], ["content-filter", "refusal"]);
    assertEquals(assistantMessage("anthropic", finish), []);
  });

  test("refused after some text, at any split: the text goes back, never an empty message", async () => {
    const data = bytes(refusedAfterText);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 6 }), async (cuts) => {
        const finish = await finishOf(splitAt(data, cuts));
        const expected: MessageParam = { role: "assistant", content: [{ type: "text", text: "Hello.." }] };
        assertEquals(assistantMessage("anthropic", finish), expected);
      }),
      { numRuns: 25 },
    );
  });

  test("the tool loop adds no empty assistant message, and the next request has none", async () => {
    const events = await collect(
      runToolLoop({
        provider: "anthropic",
        messages: [{ role: "user", content: "Scan my network." }],
        tools: { run_scan: { run: () => "scanned" } },
        call: () => Promise.resolve(new Response(refusedBeforeOutput)),
      }),
    );
    const last = events.at(-1);
    assert(last?.type === "loop-finish", "the loop finished");
    // Refused whether or not it had calls: an application tells a refusal from an answer by the reason.
    assertEquals(last.reason, "refused");
    assertEquals(last.messages, [{ role: "user", content: "Scan my network." }]);
    const step = events.find((e) => e.type === "step-finish");
    assert(step?.type === "step-finish", "the step finished");
    assertEquals(step.messages, []);
  });

  test("the request kit drops an assistant turn that would be empty", () => {
    const body = providerKit("anthropic").requestBody({
      model: "claude-fable-5",
      messages: [
        { role: "user", content: "Scan my network." },
        { role: "assistant", content: "", toolCalls: [] },
        { role: "user", content: "Then list my hosts." },
      ],
      tools: [],
    });
    const expected: MessageParam[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "Scan my network." },
          { type: "text", text: "Then list my hosts." },
        ],
      },
    ];
    assertEquals(body["messages"], expected);
  });

  test("refused right after a tool_use block: the call is withdrawn at any split, never run, and not sent back", async () => {
    const data = bytes(refusedAfterCall);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 6 }), async (cuts) => {
        const events = await collect(streamToolCalls(fromChunks(splitAt(data, cuts)), { provider: "anthropic" }));
        assert(!events.some((e) => e.type === "tool-call"), "the cut call is never a tool-call");
        const finish = assertFinished(events);
        assertEquals(
          [finish.reason, finish.toolCalls, finish.withdrawnToolCalls?.map((call) => call.id)],
          ["content-filter", [], ["toolu_scan"]],
        );
        const expected: MessageParam = { role: "assistant", content: [{ type: "text", text: "Scanning." }] };
        assertEquals(assistantMessage("anthropic", finish), expected);
      }),
      { numRuns: 25 },
    );
    let ran = 0;
    const events = await collect(
      runToolLoop({
        provider: "anthropic",
        messages: [{ role: "user", content: "Scan my network." }],
        tools: { run_scan: { run: () => String(++ran) } },
        call: () => Promise.resolve(new Response(refusedAfterCall)),
      }),
    );
    const last = events.at(-1);
    assert(last?.type === "loop-finish", "the loop finished");
    assertEquals([ran, last.reason, last.steps], [0, "refused", 1]);
  });
  test("a refused turn is not continued: the call completed before the refusal ran once, the loop ends refused", async () => {
    let ran = 0;
    const events = await collect(
      runToolLoop({
        provider: "anthropic",
        messages: [{ role: "user", content: "Scan my network." }],
        tools: { run_scan: { run: () => String(++ran) } },
        call: () => Promise.resolve(new Response(refusedAfterCallAndText)),
        maxSteps: 4,
      }),
    );
    const last = events.at(-1);
    assert(last?.type === "loop-finish", "the loop finished");
    assertEquals([ran, last.reason, last.steps], [1, "refused", 1]);
  });
});
