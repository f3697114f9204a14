import {
  anthropicAssistantMessage,
  assistantMessage,
  geminiModelContent,
  openAIChatAssistantMessage,
  responsesInputItems,
  runToolLoop,
  snapshotAccumulator,
  streamToolCalls,
  type ReasoningPart,
  type ToolLoopEvent,
} from "../../../src/index.ts";
import { allFixtures, recording as recordingOf } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { feed, finishOf, providerDeltas } from "../../support/accumulator-runs.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { anthropicSse } from "./turn-blocks-recordings.ts";
import { replayModel } from "../../support/tool-fakes.ts";

// Anthropic extended thinking with tools: the assistant turn sent back must carry the turn's
// `thinking` blocks (text and signature) and `redacted_thinking` blocks (data), as streamed, in
// order, before its text and `tool_use` blocks.

const recording = (name: string): string => recordingOf("anthropic", name).text;

/** The recorded thinking-then-tool-use stream (thinking block 0 with a `signature_delta`, tool_use block 1). */
const recorded = recording("thinking-then-tool-use");
const signature = (
  JSON.parse(
    recorded
      .split("\n")
      .find((line) => line.includes('"signature_delta"'))!
      .slice("data: ".length),
  ) as { delta: { signature: string } }
).delta.signature;
const thinkingText = 'The user wants me to read a file called "foo". Let me find and read it.';
/** Opaque test data in the shape Anthropic sends for a `redacted_thinking` block. */
const redactedData =
  "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj4Qs0VA";
/**
 * The recording with a `redacted_thinking` block (as Anthropic streams one: whole at its start, no
 * deltas) between the thinking block and the tool_use block, which becomes block 2.
 */
const withRedacted = (() => {
  const shifted = recorded.replaceAll('"index":1', '"index":2');
  const toolStart = shifted.indexOf('event: content_block_start\ndata: {"type":"content_block_start","index":2');
  assert(toolStart > 0, "the recording has its tool_use block start");
  const redacted =
    `event: content_block_start\ndata: {"type":"content_block_start","index":1,"content_block":{"type":"redacted_thinking","data":"${redactedData}"}}\n\n` +
    `event: content_block_stop\ndata: {"type":"content_block_stop","index":1}\n\n`;
  return shifted.slice(0, toolStart) + redacted + shifted.slice(toolStart);
})();

const expectedParts: ReasoningPart[] = [
  { type: "signed", text: thinkingText, signature },
  { type: "redacted", data: redactedData },
];
const expectedAssistant = {
  role: "assistant",
  content: [
    { type: "thinking", thinking: thinkingText, signature },
    { type: "redacted_thinking", data: redactedData },
    { type: "tool_use", id: "toolu_01RX68weRSquLx6HUTj65iBo", name: "Read", input: { file_path: "/tmp/blah/foo" } },
  ],
};

group("Anthropic extended thinking: signed and redacted blocks go back with the tool_use turn", (test) => {
  test("decoder: a recorded thinking block's text and signature_delta, and a redacted_thinking block, become reasoning-part deltas in block order", async () => {
    const deltas = await providerDeltas(withRedacted, "anthropic");
    assertEquals(
      deltas.filter((d) => d.type === "reasoning-part").map((d) => d.part),
      expectedParts,
    );
    assertEquals(
      deltas
        .filter((d) => d.type === "reasoning-delta")
        .map((d) => d.text)
        .join(""),
      thinkingText,
      "the thinking text still streams as reasoning-delta",
    );
    // The signed part comes at its block's stop, after its text and before the tool call's chunks.
    const kinds = deltas.map((d) => d.type).filter((t) => t !== "usage");
    assertEquals(kinds.indexOf("reasoning-part") > kinds.lastIndexOf("reasoning-delta"), true);
    assertEquals(kinds.lastIndexOf("reasoning-part") < kinds.indexOf("tool-call-chunk"), true);
  });

  test("decoder: a signature on content_block_start is kept; a thinking block without a signature gives no part", async () => {
    const sse = (block: string): string =>
      `event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":${block}}\n\n` +
      `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" more"}}\n\n` +
      `event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n`;
    const signed = await providerDeltas(
      sse('{"type":"thinking","thinking":"Some","signature":"c2lnbmF0dXJl"}'),
      "anthropic",
    );
    assertEquals(
      signed.filter((d) => d.type === "reasoning-part"),
      [{ type: "reasoning-part", part: { type: "signed", text: "Some more", signature: "c2lnbmF0dXJl" } }],
    );
    const unsigned = await providerDeltas(sse('{"type":"thinking","thinking":"Some"}'), "anthropic");
    assertEquals(
      unsigned.filter((d) => d.type === "reasoning-part"),
      [],
    );
  });

  test("finish carries reasoningParts in order; streams without signed or redacted blocks have none of them", async () => {
    const finish = await finishOf(withRedacted, "anthropic");
    assertEquals(finish.reasoningParts, expectedParts);
    assertEquals(finish.reasoning, thinkingText);
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.name, c.arguments]),
      [["toolu_01RX68weRSquLx6HUTj65iBo", "Read", { file_path: "/tmp/blah/foo" }]],
    );
    assertEquals(
      "reasoningParts" in (await finishOf(recording("parallel-tool-use"), "anthropic")),
      false,
      "Anthropic without thinking",
    );
    const xai = allFixtures.find((f) => f.provider === "xai" && f.name === "chat-tool-call-reasoning-content-usage")!;
    const openai = await finishOf(xai.text, "openai");
    assert(openai.reasoning !== "", "the OpenAI-compatible recording has reasoning text");
    // OpenAI-compatible reasoning has no signed block: only the field it streamed in, for its own next turn.
    assertEquals(openai.reasoningParts, [
      { type: "field", field: "reasoning_content", value: openai.reasoning, model: "grok-3-mini" },
    ]);
  });

  test("anthropicAssistantMessage: thinking, then redacted_thinking, then text, then tool_use, exactly", async () => {
    const finish = await finishOf(withRedacted, "anthropic");
    assertEquals(assistantMessage("anthropic", finish), expectedAssistant);
    const withText = anthropicAssistantMessage({ ...finish, text: "Reading it." });
    assertEquals(
      (withText["content"] as { type: string }[]).map((b) => b.type),
      ["thinking", "redacted_thinking", "text", "tool_use"],
    );
    // Other providers' turns do not change.
    const plain = { ...finish, reasoningParts: undefined };
    assertEquals(openAIChatAssistantMessage(finish), openAIChatAssistantMessage(plain));
    assertEquals(geminiModelContent(finish), geminiModelContent(plain));
    assertEquals(responsesInputItems(finish), responsesInputItems(plain));
  });

  test("snapshot and restore at every delta, through the thinking and redacted blocks, give the unbroken run's events", async () => {
    const deltas = await providerDeltas(withRedacted, "anthropic");
    const whole = feed(deltas, true);
    const unbroken = whole.events.at(-1);
    assert(unbroken?.type === "finish", "the unbroken run finishes");
    assertEquals(unbroken.reasoningParts, expectedParts);
    const firstPart = deltas.findIndex((d) => d.type === "reasoning-part");
    for (let cut = 0; cut <= deltas.length; cut++) {
      const first = feed(deltas.slice(0, cut), false);
      const snapshot = snapshotAccumulator(first.accumulator);
      assertEquals(
        snapshot.reasoningParts,
        cut > firstPart
          ? expectedParts.slice(0, deltas.slice(0, cut).filter((d) => d.type === "reasoning-part").length)
          : undefined,
        `snapshot at ${cut}`,
      );
      const resumed = feed(deltas.slice(cut), true, snapshot);
      assertEquals([...first.events, ...resumed.events], whole.events, `restored at ${cut}`);
    }
  });

  test("runToolLoop: the second request's assistant turn carries the thinking and redacted blocks before tool_use", async () => {
    const answer = recording("thinking-then-text");
    const model = replayModel([withRedacted, answer]);
    const user = { role: "user", content: "Read the file foo." };
    const events: ToolLoopEvent[] = await collect(
      runToolLoop({ provider: "anthropic", messages: [user], tools: { Read: { run: () => "bar" } }, call: model.call }),
    );
    assertEquals(
      model.requests.map((r) => r.step),
      [1, 2],
    );
    const sent = model.requests[1]!.messages;
    assertEquals(sent.slice(0, 2), [user, expectedAssistant]);
    assertEquals(sent[2], {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_01RX68weRSquLx6HUTj65iBo", content: "bar" }],
    });
    const final = events.at(-1);
    assert(final?.type === "loop-finish", "the loop finishes");
    assertEquals([final.reason, final.steps], ["no-tool-calls", 2]);
    const last = final.messages.at(-1) as { role: string; content: { type: string }[] };
    assertEquals(
      last.content.map((b) => b.type),
      ["thinking", "text"],
      "the final answer keeps its own signed thinking block",
    );
  });

  test("a signature that does not end (past 4 Mi characters held) ends the stream with text-too-large, the call and thinking before it given", async () => {
    // The recording's message start, its tool_use block whole, then an interleaved thinking block whose signature deltas never end.
    const [messageStart] = recorded.split("\n\n");
    const at = (index: number, delta: Record<string, unknown>) => ({ type: "content_block_delta", index, delta });
    const body = bytes(
      `${messageStart}\n\n` +
        anthropicSse(
          {
            type: "content_block_start",
            index: 0,
            content_block: { type: "tool_use", id: "toolu_1", name: "Read", input: {} },
          },
          at(0, { type: "input_json_delta", partial_json: '{"file_path":"/tmp/foo"}' }),
          { type: "content_block_stop", index: 0 },
          { type: "content_block_start", index: 1, content_block: { type: "thinking", thinking: "", signature: "" } },
          at(1, { type: "thinking_delta", thinking: thinkingText }),
          ...Array.from({ length: 1100 }, () => at(1, { type: "signature_delta", signature: "E".repeat(4000) })),
        ),
    );
    for (const cuts of [[], [1000, 2_000_000]]) {
      const events = await collect(streamToolCalls(fromChunks(splitAt(body, cuts)), { provider: "anthropic" }));
      assertEquals(
        events.filter((event) => event.type !== "tool-call-delta" && event.type !== "usage").map((event) => event.type),
        ["tool-call-start", "tool-call", "reasoning-delta", "error", "abort"],
      );
      const abort = events.at(-1);
      assert(abort?.type === "abort", "the stream aborted");
      assertEquals([abort.reason, abort.discarded], ["limit-exceeded", []]);
      assertEquals(abort.error, {
        code: "text-too-large",
        message: "The signatures held exceeded the limit of 4194304 characters.",
      });
    }
  });
});
