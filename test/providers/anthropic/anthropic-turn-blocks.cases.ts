// Anthropic's 2026 turn features through streamToolCalls and the next turn (issue 34): programmatic
// tool calling (`caller`, continuations in `message_start`), server tools alone, server-side
// fallback (the call it cut off is withdrawn), compaction. The streams are built from the SDK's
// types (turn-blocks-recordings.ts says how); the next turns are checked against the SDK's Param
// types by typed expectations.
import type {
  BetaCompactionBlockParam,
  BetaFallbackBlockParam,
  BetaMessageParam,
  BetaToolUnion,
  BetaToolUseBlockParam,
} from "@anthropic-ai/sdk/resources/beta/messages/messages";
import fc from "fast-check";
import {
  assistantMessage,
  providerKit,
  runToolLoop,
  streamToolCalls,
  type FinishEvent,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import {
  anthropicSse,
  CODE_CALLER,
  compactionTurn,
  FALLBACK_BLOCK,
  fallbackAfterCall,
  fallbackWhileOpen,
  programmaticContinuation,
  pausedTurn,
  programmaticFirst,
  serverToolsOnly,
} from "./turn-blocks-recordings.ts";

const run = (chunks: Uint8Array[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "anthropic" }));

async function finishOf(body: string): Promise<{ events: ToolCallEvent[]; finish: FinishEvent }> {
  const events = await run([bytes(body)]);
  const finish = assertFinished(events);
  return { events, finish };
}

const calls = (finish: FinishEvent): unknown[] =>
  finish.toolCalls.map((call) => [call.id, call.name, call.arguments, call.providerExecuted ?? false]);

group("Anthropic turn blocks: programmatic tool calling, server tools, fallback, compaction", (test) => {
  test("programmatic tool calling: the call keeps its caller, and the next turn echoes it", async () => {
    const { finish } = await finishOf(programmaticFirst);
    assertEquals(finish.reason, "tool-calls");
    assertEquals(calls(finish), [
      ["srvtoolu_code_1", "code_execution", { code: 'r = await rollDie({"player": "p1"})' }, true],
      ["toolu_roll_1", "rollDie", { player: "p1" }, false],
    ]);
    assertEquals(finish.toolCalls[1]!.providerMetadata, { caller: CODE_CALLER });
    const expected: BetaMessageParam = {
      role: "assistant",
      content: [
        { type: "text", text: "Rolling for both players." },
        // The code execution call goes back too, as the call's caller: its result comes in a later response.
        {
          type: "server_tool_use",
          id: "srvtoolu_code_1",
          name: "code_execution",
          input: { code: 'r = await rollDie({"player": "p1"})' },
          caller: { type: "direct" },
        },
        { type: "tool_use", id: "toolu_roll_1", name: "rollDie", input: { player: "p1" }, caller: CODE_CALLER },
      ],
    };
    assertEquals(assistantMessage("anthropic", finish), expected);
  });

  test("a continuation whose message_start holds the call: the call, with its caller, and finish tool-calls", async () => {
    const { events, finish } = await finishOf(programmaticContinuation);
    assertEquals(
      events.map((e) => e.type),
      ["usage", "tool-call-start", "tool-call-delta", "tool-call", "finish"],
    );
    assertEquals([finish.reason, finish.rawReason], ["tool-calls", "tool_use"]);
    assertEquals(calls(finish), [["toolu_roll_2", "rollDie", { player: "p2" }, false]]);
    const toolUse: BetaToolUseBlockParam = {
      type: "tool_use",
      id: "toolu_roll_2",
      name: "rollDie",
      input: { player: "p2" },
      caller: CODE_CALLER,
    };
    assertEquals(assistantMessage("anthropic", finish), { role: "assistant", content: [toolUse] });
  });

  test("message_start content comes before the blocks that stream after it, in order", async () => {
    const body = anthropicSse(
      {
        type: "message_start",
        message: {
          id: "m",
          content: [
            { type: "text", text: "First. " },
            { type: "tool_use", id: "toolu_a", name: "a", input: { n: 1 } },
          ],
        },
      },
      { type: "content_block_start", index: 2, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "Then." } },
      { type: "content_block_stop", index: 2 },
      { type: "message_delta", delta: { stop_reason: "tool_use" } },
      { type: "message_stop" },
    );
    const { events, finish } = await finishOf(body);
    assertEquals(
      events.map((e) => (e.type === "text-delta" ? e.text : e.type)),
      ["First. ", "tool-call-start", "tool-call-delta", "tool-call", "Then.", "finish"],
    );
    assertEquals(finish.text, "First. Then.");
  });

  test("server tools alone ending in end_turn: stop, not tool-calls (the client has nothing to run)", async () => {
    const { finish } = await finishOf(serverToolsOnly);
    assertEquals([finish.reason, finish.rawReason], ["stop", "end_turn"]);
    assertEquals(calls(finish), [["srvtoolu_ws_1", "web_search", { query: "tide times Brest" }, true]]);
  });

  test("fallback: the call right before the fallback block is withdrawn, never a tool-call, not in toolCalls", async () => {
    const { events, finish } = await finishOf(fallbackAfterCall);
    const withdrawn = events.filter((e) => e.type === "invalid-tool-call");
    assertEquals(
      withdrawn.map((e) => [e.id, e.error.code, e.rawArguments]),
      [["toolu_cut", "withdrawn", '{"target": "10.0.0.']],
    );
    assert(!events.some((e) => e.type === "tool-call" && e.id === "toolu_cut"), "the cut call is never a tool-call");
    assertEquals(calls(finish), [["toolu_ok", "list_hosts", { owner: "me" }, false]]);
    assertEquals(finish.invalidToolCalls, []);
    assertEquals(
      finish.withdrawnToolCalls?.map((call) => call.id),
      ["toolu_cut"],
    );
    assertEquals(finish.reason, "tool-calls");
    assertEquals(
      finish.reasoningParts?.map((part) => part.type),
      ["signed", "block", "signed"],
    );
  });

  test("fallback: the next turn keeps the fallback block in place between the two models' blocks and leaves the cut call out", async () => {
    const { finish } = await finishOf(fallbackAfterCall);
    const fallback: BetaFallbackBlockParam = FALLBACK_BLOCK as BetaFallbackBlockParam;
    const expected: BetaMessageParam = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "The user wants a port scan.", signature: "EqA1sigA" },
        { type: "text", text: "Scanning now. " },
        fallback,
        { type: "thinking", thinking: "Check what the user owns first.", signature: "EqB2sigB" },
        { type: "text", text: "Let me check the inventory." },
        { type: "tool_use", id: "toolu_ok", name: "list_hosts", input: { owner: "me" } },
      ],
    };
    assertEquals(assistantMessage("anthropic", finish), expected);
    // The request kit sends the same turn back.
    const body = providerKit("anthropic").requestBody({
      model: "claude-fable-5",
      tools: [],
      messages: [
        { role: "user", content: "Scan my network." },
        {
          role: "assistant",
          content: finish.text,
          toolCalls: finish.toolCalls.filter((call) => !call.providerExecuted),
          reasoningParts: finish.reasoningParts,
          order: finish.order,
        },
        { role: "tool", toolCallId: "toolu_ok", content: "host-1" },
      ],
    });
    assertEquals((body["messages"] as BetaMessageParam[])[1], expected);
  });

  test("fallback while the call before it is still open: withdrawn too; only text after it, stop", async () => {
    const { events, finish } = await finishOf(fallbackWhileOpen);
    assertEquals(
      events.filter((e) => e.type === "invalid-tool-call").map((e) => [e.id, e.error.code]),
      [["toolu_open", "withdrawn"]],
    );
    assertEquals([finish.reason, finish.toolCalls.length], ["stop", 0]);
  });

  test("the tool loop never runs nor answers a withdrawn call", async () => {
    const answers = [
      fallbackAfterCall,
      anthropicSse(
        { type: "message_start", message: { id: "m2", content: [] } },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "Done." } },
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "end_turn" } },
        { type: "message_stop" },
      ),
    ];
    const ran: string[] = [];
    const events = await collect(
      runToolLoop({
        provider: "anthropic",
        messages: [{ role: "user", content: "Scan my network." }],
        tools: {
          run_scan: { run: () => (ran.push("run_scan"), "scanned") },
          list_hosts: { run: () => (ran.push("list_hosts"), "host-1") },
        },
        call: ({ step }) => Promise.resolve(new Response(answers[step - 1])),
      }),
    );
    assertEquals(ran, ["list_hosts"]);
    const step1 = events.find((e) => e.type === "step-finish" && e.step === 1);
    assert(step1?.type === "step-finish", "step 1 finished");
    const results = step1.messages[1] as { content: { tool_use_id: string }[] };
    assertEquals(
      results.content.map((block) => block.tool_use_id),
      ["toolu_ok"],
    );
  });

  test("compaction: the block is kept with its summary and encrypted content, and goes back first", async () => {
    const { finish } = await finishOf(compactionTurn);
    const compaction: BetaCompactionBlockParam = {
      type: "compaction",
      content: "The user is planning a trip to Lisbon.",
      encrypted_content: "ENC1",
    };
    assertEquals(finish.reasoningParts, [{ type: "block", block: compaction }]);
    const expected: BetaMessageParam = {
      role: "assistant",
      content: [compaction, { type: "text", text: "Lisbon it is." }],
    };
    assertEquals(assistantMessage("anthropic", finish), expected);
  });

  test("pause_turn: the finish says pause, and the tool loop sends the turn back as it is and goes on", async () => {
    const { finish } = await finishOf(pausedTurn);
    assertEquals([finish.reason, finish.rawReason], ["pause", "pause_turn"]);
    const done = anthropicSse(
      { type: "message_start", message: { id: "m2", content: [] } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "The ferry takes 3 hours." } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn" } },
      { type: "message_stop" },
    );
    const sent: unknown[][] = [];
    const events = await collect(
      runToolLoop({
        provider: "anthropic",
        messages: [{ role: "user", content: "Ferry from Lisbon to Porto?" }],
        tools: {},
        call: ({ step, messages }) => {
          sent.push(messages as unknown[]);
          return Promise.resolve(new Response(step === 1 ? pausedTurn : done));
        },
      }),
    );
    const last = events.at(-1);
    assert(last?.type === "loop-finish", "the loop finishes");
    assertEquals([last.reason, last.steps], ["no-tool-calls", 2]);
    // Step 2 is the conversation with the paused turn last: no user message after it.
    const continued: BetaMessageParam[] = [
      { role: "user", content: "Ferry from Lisbon to Porto?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Searching. " },
          // The server call with its result, as it came (each alone is a 400 from Anthropic).
          { type: "server_tool_use", id: "srvtoolu_p1", name: "web_search", input: { query: "ferry Lisbon Porto" } },
          { type: "web_search_tool_result", tool_use_id: "srvtoolu_p1", content: [] },
        ],
      },
    ];
    assertEquals(sent[1], continued);
  });

  test("eager_input_streaming on a tool definition reaches Anthropic's tools as the entry sets it", () => {
    const body = providerKit("anthropic").requestBody({
      model: "claude-sonnet-4-5",
      messages: [{ role: "user", content: "Write the file." }],
      tools: [
        { name: "write_file", parameters: { type: "object" }, eagerInputStreaming: true },
        { name: "read_file", parameters: { type: "object" }, eagerInputStreaming: false },
        { name: "list", parameters: { type: "object" } },
      ],
    });
    const tools: BetaToolUnion[] = [
      { name: "write_file", input_schema: { type: "object" }, eager_input_streaming: true },
      { name: "read_file", input_schema: { type: "object" }, eager_input_streaming: false },
      { name: "list", input_schema: { type: "object" } },
    ];
    assertEquals(body["tools"], tools);
  });

  test("an entry of Anthropic's client-run tools (anthropicTool) goes in Anthropic's own form, the others as functions", () => {
    const schema = { type: "object", properties: { command: { type: "string" } }, required: ["command"] };
    const body = providerKit("anthropic").requestBody({
      model: "claude-sonnet-4-5",
      messages: [{ role: "user", content: "List the files." }],
      tools: [
        { name: "bash", parameters: schema, anthropicTool: { type: "bash_20250124" } },
        {
          name: "str_replace_based_edit_tool",
          parameters: schema,
          anthropicTool: { type: "text_editor_20250728", maxCharacters: 10_000 },
        },
        { name: "memory", parameters: schema, anthropicTool: { type: "memory_20250818" } },
      ],
    });
    const tools: BetaToolUnion[] = [
      { type: "bash_20250124", name: "bash" },
      { type: "text_editor_20250728", name: "str_replace_based_edit_tool", max_characters: 10_000 },
      { type: "memory_20250818", name: "memory" },
    ];
    assertEquals(body["tools"], tools);
    const openai = providerKit("openai").requestBody({
      model: "gpt-5",
      messages: [{ role: "user", content: "List the files." }],
      tools: [{ name: "bash", parameters: schema, anthropicTool: { type: "bash_20250124" } }],
    });
    assertEquals(openai["tools"], [{ type: "function", function: { name: "bash", parameters: schema } }]);
  });

  for (const [name, body] of Object.entries({
    programmaticFirst,
    programmaticContinuation,
    serverToolsOnly,
    fallbackAfterCall,
    fallbackWhileOpen,
    compactionTurn,
    pausedTurn,
  })) {
    test(`${name}: any split of the bytes gives the same events`, async () => {
      const data = bytes(body);
      const whole = await run([data]);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 30 }), async (cuts) => {
          assertEquals(await run(splitAt(data, cuts)), whole);
        }),
        { seed: 34, numRuns: 15 },
      );
    });
  }
});
