import {
  anthropicAssistantMessage,
  assistantMessage,
  geminiModelContent,
  openAIChatAssistantMessage,
  responsesInputItems,
  runToolLoop,
  snapshotAccumulator,
  type ReasoningPart,
  type ToolLoopEvent,
} from "../../../src/index.ts";
import { openaiResponsesMultiply } from "../../support/conversations/openai-responses-multiply.ts";
import { recording as recordingOf } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { feed, finishOf, providerDeltas } from "../../support/accumulator-runs.ts";
import { collect } from "../../support/streams.ts";
import { replayModel } from "../../support/tool-fakes.ts";

// OpenAI Responses with a reasoning model, the turn passed back manually: each `function_call`
// input item must follow the `reasoning` item the model produced before it, and with
// `store: false` that item must carry its `encrypted_content`.

const recording = (name: string): string => recordingOf("openai-responses", name).text;

/** The `item` of the recording's `response.output_item.done` event for its reasoning item, as recorded. */
function doneReasoningItem(sse: string): { id: string; encrypted_content?: string; summary: unknown[] } {
  const line = sse
    .split("\n")
    .find(
      (l) => l.startsWith("data: ") && l.includes('"response.output_item.done"') && l.includes('"type":"reasoning"'),
    );
  assert(line !== undefined, "the recording has a reasoning item's output_item.done");
  return (
    JSON.parse(line.slice("data: ".length)) as { item: { id: string; encrypted_content?: string; summary: unknown[] } }
  ).item;
}

/** rs (encrypted) at output 0, then the `final_result` function_call at output 1. */
const reasoningThenCall = recording("reasoning-then-function-call-usage");
/** rs (encrypted) at output 0, a commentary message at 1, the `get_capital` function_call at 2. */
const textThenCall = recording("text-then-function-call");
const rsA = doneReasoningItem(reasoningThenCall);
const rsB = doneReasoningItem(textThenCall);
/**
 * The first recording as sent with `store: true` and no `include`: its reasoning item has no
 * `encrypted_content`; its summary is given one part, to check it is carried verbatim.
 */
const summaryPart = { type: "summary_text", text: "**Computing the product**" };
const withoutEncrypted = reasoningThenCall
  .replace(`,"encrypted_content":"${rsA.encrypted_content}"`, "")
  .replace(
    `"id":"${rsA.id}","type":"reasoning","summary":[]`,
    `"id":"${rsA.id}","type":"reasoning","summary":${JSON.stringify([summaryPart])}`,
  );

const partA: ReasoningPart = { type: "item", id: rsA.id, encryptedContent: rsA.encrypted_content!, summary: [] };
const partB: ReasoningPart = { type: "item", id: rsB.id, encryptedContent: rsB.encrypted_content!, summary: [] };
/** The second recording's message is gpt-5.x's commentary: its `phase` is kept before its text (responses-phase.test.ts). */
const phaseB: ReasoningPart = { type: "block", block: { type: "phase", phase: "commentary" } };
const callA = {
  type: "function_call",
  call_id: "call_CWXgs68YprAjp6t0371hiPOI",
  name: "final_result",
  arguments: '{"result":6666}',
};

group("OpenAI Responses reasoning items go back before their function_call items", (test) => {
  test("decoder: a recorded reasoning item's output_item.done becomes one reasoning-part delta (id, encrypted_content, summary), before the call's chunks", async () => {
    for (const [sse, parts] of [
      [reasoningThenCall, [partA]],
      [textThenCall, [partB, phaseB]],
    ] as const) {
      const deltas = await providerDeltas(sse, "openai-responses");
      assertEquals(
        deltas.filter((d) => d.type === "reasoning-part").map((d) => d.part),
        parts,
      );
      const kinds = deltas.map((d) => d.type);
      assertEquals(
        kinds.indexOf("reasoning-part") < kinds.indexOf("tool-call-chunk"),
        true,
        "in stream order, before the call",
      );
    }
    // The done item's encrypted content wins over the (different) one of output_item.added.
    assert(
      !textThenCall.includes(
        `"type":"response.output_item.added","item":{"id":"${rsB.id}","type":"reasoning","content":[],"encrypted_content":"${rsB.encrypted_content}"`,
      ),
      "the recording's added item differs",
    );
    const noEncrypted = await providerDeltas(withoutEncrypted, "openai-responses");
    assertEquals(
      noEncrypted.filter((d) => d.type === "reasoning-part"),
      [{ type: "reasoning-part", part: { type: "item", id: rsA.id, summary: [summaryPart] } }],
    );
  });

  test("finish carries reasoningParts; a recording without reasoning items has no such field", async () => {
    const finish = await finishOf(reasoningThenCall, "openai-responses");
    assertEquals(finish.reasoningParts, [partA]);
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.name, c.arguments]),
      [["call_CWXgs68YprAjp6t0371hiPOI", "final_result", { result: 6666 }]],
    );
    assertEquals((await finishOf(textThenCall, "openai-responses")).reasoningParts, [partB, phaseB]);
    assertEquals("reasoningParts" in (await finishOf(recording("parallel-function-calls"), "openai-responses")), false);
  });

  test("responsesInputItems: reasoning items first, with encrypted_content when it came, then message and function_call, exactly", async () => {
    assertEquals(assistantMessage("openai-responses", await finishOf(reasoningThenCall, "openai-responses")), [
      { type: "reasoning", id: rsA.id, summary: [], encrypted_content: rsA.encrypted_content },
      callA,
    ]);
    assertEquals(responsesInputItems(await finishOf(textThenCall, "openai-responses")), [
      { type: "reasoning", id: rsB.id, summary: [], encrypted_content: rsB.encrypted_content },
      {
        type: "message",
        role: "assistant",
        content: "I’ll check the capital lookup tool for “PotatoLand.”",
        phase: "commentary",
      },
      {
        type: "function_call",
        call_id: "call_LabG58Uhrq9kZvR52BYKjToD",
        name: "get_capital",
        arguments: '{"country":"PotatoLand"}',
      },
    ]);
    assertEquals(responsesInputItems(await finishOf(withoutEncrypted, "openai-responses")), [
      { type: "reasoning", id: rsA.id, summary: [summaryPart] },
      callA,
    ]);
  });

  test("each builder uses only its own reasoning parts: Anthropic ignores items, Responses ignores signed and redacted blocks, Chat and Gemini ignore all", async () => {
    const finish = await finishOf(reasoningThenCall, "openai-responses");
    const plain = { ...finish, reasoningParts: undefined };
    assertEquals(anthropicAssistantMessage(finish), anthropicAssistantMessage(plain));
    assertEquals(openAIChatAssistantMessage(finish), openAIChatAssistantMessage(plain));
    assertEquals(geminiModelContent(finish), geminiModelContent(plain));
    const anthropicParts: ReasoningPart[] = [
      { type: "signed", text: "Let me check.", signature: "c2lnbmF0dXJl" },
      { type: "redacted", data: "ZGF0YQ==" },
    ];
    assertEquals(responsesInputItems({ ...finish, reasoningParts: anthropicParts }), [callA]);
    const mixed = { ...finish, reasoningParts: [anthropicParts[0]!, partA, anthropicParts[1]!] };
    assertEquals(responsesInputItems(mixed), responsesInputItems(finish));
    assertEquals(
      anthropicAssistantMessage(mixed),
      anthropicAssistantMessage({ ...finish, reasoningParts: anthropicParts }),
    );
  });

  test("snapshot and restore at every delta, through the reasoning item, give the unbroken run's events", async () => {
    const deltas = await providerDeltas(textThenCall, "openai-responses");
    const whole = feed(deltas, true);
    const unbroken = whole.events.at(-1);
    assert(unbroken?.type === "finish", "the unbroken run finishes");
    assertEquals(unbroken.reasoningParts, [partB, phaseB]);
    const part = deltas.findIndex((d) => d.type === "reasoning-part");
    const phase = deltas.map((d) => d.type).lastIndexOf("reasoning-part");
    for (let cut = 0; cut <= deltas.length; cut++) {
      const first = feed(deltas.slice(0, cut), false);
      const snapshot = snapshotAccumulator(first.accumulator);
      const kept = cut > phase ? [partB, phaseB] : cut > part ? [partB] : undefined;
      assertEquals(snapshot.reasoningParts, kept, `snapshot at ${cut}`);
      const resumed = feed(deltas.slice(cut), true, snapshot);
      assertEquals([...first.events, ...resumed.events], whole.events, `restored at ${cut}`);
    }
  });

  test("runToolLoop: the second request's input has the reasoning item, with its encrypted_content, right before the function_call", async () => {
    const answer = openaiResponsesMultiply.steps[1]!.response;
    const model = replayModel([reasoningThenCall, answer]);
    const user = { role: "user", content: "What is 1234 * 5.4?" };
    const events: ToolLoopEvent[] = await collect(
      runToolLoop({
        provider: "openai-responses",
        messages: [user],
        tools: { final_result: { run: () => "ok" } },
        call: model.call,
      }),
    );
    assertEquals(
      model.requests.map((r) => r.step),
      [1, 2],
    );
    assertEquals(model.requests[1]!.messages, [
      user,
      { type: "reasoning", id: rsA.id, summary: [], encrypted_content: rsA.encrypted_content },
      callA,
      { type: "function_call_output", call_id: "call_CWXgs68YprAjp6t0371hiPOI", output: "ok" },
    ]);
    const final = events.at(-1);
    assert(final?.type === "loop-finish", "the loop finishes");
    assertEquals([final.reason, final.steps], ["no-tool-calls", 2]);
  });
});
