import type { BetaMessageParam, BetaToolUseBlockParam } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import {
  assistantMessage,
  providerKit,
  streamToolCalls,
  toolResultMessages,
  type Provider,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { summarize } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

async function run(provider: Provider, sse: string): Promise<ToolCallEvent[]> {
  const events = await collect(streamToolCalls(fromChunks([bytes(sse)]), { provider }));
  assertEventInvariants(events, provider === "anthropic");
  return events;
}

/** Anthropic SSE: `event: <type>` with the payload's own type. */
const anthropic = (...payloads: Record<string, unknown>[]): string =>
  payloads.map((p) => `event: ${String(p["type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("");
const start = { type: "message_start", message: { id: "msg_1", usage: { input_tokens: 10, output_tokens: 1 } } };
const toolStart = (index: number, id: string, type = "tool_use", input: unknown = {}): Record<string, unknown> => ({
  type: "content_block_start",
  index,
  content_block: { type, id, name: "web_search", input },
});
const json = (index: number, partial_json: string): Record<string, unknown> => ({
  type: "content_block_delta",
  index,
  delta: { type: "input_json_delta", partial_json },
});
const stop = (index: number): Record<string, unknown> => ({ type: "content_block_stop", index });
const end = [
  { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 30 } },
  { type: "message_stop" },
];
const types = (events: ToolCallEvent[]): string[] => events.map((e) => e.type);

group("AnthropicDeltaStream rules", (test) => {
  test("a reply cut off right after a tool_use block's stop: the call is complete (nothing withdrew it), then the abort", async () => {
    const events = await run("anthropic", anthropic(start, toolStart(1, "toolu_1"), json(1, '{"q":"x"}'), stop(1)));
    const last = events.at(-1);
    assert(last?.type === "abort", "the stream aborts");
    assertEquals(last.discarded, []);
    assertEquals(types(events).slice(-2), ["tool-call", "abort"]);
  });

  test("a tool call completes once the model moves on from its block (the next block, or the message's end), before the finish", async () => {
    const events = await run(
      "anthropic",
      anthropic(start, toolStart(1, "toolu_1"), json(1, '{"q":'), json(1, '"x"}'), stop(1), ...end),
    );
    assertEquals(types(events), [
      "usage",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call",
      "finish",
    ]);
    assertEquals((events[4] as { index: number }).index, 1);
  });

  test("an error event after HTTP 200 is delivered; the connection closing then discards the open call", async () => {
    const error = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    const events = await run("anthropic", anthropic(start, toolStart(0, "toolu_a"), json(0, '{"q": "ti'), error));
    assertEquals(types(events), ["usage", "tool-call-start", "tool-call-delta", "error", "abort"]);
    assert(events[3]?.type === "error" && events[3].error.code === "provider-error", "provider-error");
    assertEquals(events[3].error.data, error);
    const final = events.at(-1);
    assert(final?.type === "abort" && final.reason === "provider-error", "abort: provider-error");
    assertEquals(
      final.discarded.map((c) => [c.id, c.rawArguments]),
      [["toolu_a", '{"q": "ti']],
    );
  });

  test("a tool_use whose only partial_json is empty gives {}", async () => {
    const events = await run("anthropic", anthropic(start, toolStart(0, "toolu_e"), json(0, ""), stop(0), ...end));
    assertEquals(summarize(events).toolCalls, [{ id: "toolu_e", name: "web_search", arguments: {} }]);
  });

  test("an input sent whole at the block start is the arguments when no partial_json follows", async () => {
    const events = await run(
      "anthropic",
      anthropic(start, toolStart(0, "toolu_w", "tool_use", { q: "whole" }), stop(0), ...end),
    );
    assertEquals(summarize(events).toolCalls, [{ id: "toolu_w", name: "web_search", arguments: { q: "whole" } }]);
  });

  test("server_tool_use is marked providerExecuted, so the application does not run it", async () => {
    const events = await run(
      "anthropic",
      anthropic(
        start,
        toolStart(0, "srvtoolu_1", "server_tool_use"),
        json(0, '{"query":"x"}'),
        stop(0),
        {
          type: "content_block_start",
          index: 1,
          content_block: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
        },
        stop(1),
        ...end,
      ),
    );
    const call = events.find((e) => e.type === "tool-call");
    assert(call?.type === "tool-call" && call.providerExecuted === true, "providerExecuted on the call");
    assert(events.find((e) => e.type === "tool-call-start")?.type === "tool-call-start", "a start");
    assertEquals(summarize(events).text, "");
  });

  // The shape of vercel/ai's recording packages/anthropic/src/__fixtures__/
  // anthropic-code-execution-20250825-empty-first-delta.chunks.txt (commit f91b535d): a server tool's
  // input whose deltas (an empty one first) do not make one JSON value, and `stop_reason: tool_use`.
  test("a turn whose only call is a server tool's, even one whose input did not parse, finishes stop: nothing is the client's", async () => {
    const events = await run(
      "anthropic",
      anthropic(
        start,
        toolStart(0, "srvtoolu_2", "server_tool_use"),
        json(0, ""),
        json(0, '"q":'),
        json(0, '"x"}'),
        stop(0),
        ...end,
      ),
    );
    const final = events.at(-1);
    assert(final?.type === "finish", "finish");
    assertEquals([final.reason, final.rawReason, final.toolCalls.length], ["stop", "tool_use", 0]);
    assertEquals(
      final.invalidToolCalls.map((call) => [call.id, call.providerExecuted]),
      [["srvtoolu_2", true]],
    );
    // A client call that did not parse still asks for an answer: the reason stays tool-calls.
    const client = await run(
      "anthropic",
      anthropic(start, toolStart(0, "toolu_3"), json(0, '"q":"x"}'), stop(0), ...end),
    );
    const last = client.at(-1);
    assert(last?.type === "finish" && last.reason === "tool-calls", "tool-calls");
  });

  test("usage merges message_start's input with message_delta's output; message_start's comes at once, as a usage event", async () => {
    const events = await run("anthropic", anthropic(start, ...end));
    assertEquals(types(events), ["usage", "finish"]);
    assert(events[0]?.type === "usage", "usage first");
    assertEquals([events[0].usage.inputTokens, events[0].usage.outputTokens], [10, 1]);
    const final = events.at(-1);
    assert(final?.type === "finish", "finish");
    assertEquals([final.usage?.inputTokens, final.usage?.outputTokens, final.usage?.totalTokens], [10, 30, 40]);
    assertEquals([final.reason, final.rawReason], ["tool-calls", "tool_use"]);
  });

  // RawMessageDeltaEvent.Delta.stop_sequence (@anthropic-ai/sdk 1.12): "Which custom stop sequence
  // was generated, if any" (null otherwise). Claude on Bedrock's InvokeModel sends the same events.
  test("a stop at a stop sequence names it: message_delta's stop_sequence is the finish's stopSequence", async () => {
    const text = [
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "<block>no" } },
      stop(0),
    ];
    const finish = (stop_reason: string, stop_sequence: string | null) => [
      { type: "message_delta", delta: { stop_reason, stop_sequence }, usage: { output_tokens: 3 } },
      { type: "message_stop" },
    ];
    const named = (await run("anthropic", anthropic(start, ...text, ...finish("stop_sequence", "</block>")))).at(-1);
    assert(named?.type === "finish", "finish");
    assertEquals([named.reason, named.rawReason, named.stopSequence], ["stop", "stop_sequence", "</block>"]);
    const plain = (await run("anthropic", anthropic(start, ...text, ...finish("end_turn", null)))).at(-1);
    assert(plain?.type === "finish" && !("stopSequence" in plain), "no stop sequence at end_turn");
  });

  test("thinking becomes reasoning, ping is ignored, text stays text", async () => {
    const events = await run(
      "anthropic",
      anthropic(
        start,
        { type: "ping" },
        { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hmm" } },
        { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } },
        stop(0),
        { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Hi" } },
        stop(1),
        { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } },
        { type: "message_stop" },
      ),
    );
    assertEquals(types(events), ["usage", "reasoning-delta", "reasoning-part", "text-delta", "finish"]);
  });

  // A toolset member's call (`@anthropic-ai/sdk` 1.12: BetaToolUseBlock.toolset_name, "For a
  // toolset member tool_use, the toolset family"; BetaToolResultBlockParam.toolset_name, "the
  // toolset family of the paired tool_use"; the SDK's tool runner answers it with that family, as
  // "members dispatch by family, never by name: a custom tool may share the bare name"). Built
  // from the documented shape: a browser toolset's `navigate`.
  test("a toolset member's tool_use keeps its toolset_name, sent back on the tool_use and its tool_result", async () => {
    const member = { type: "tool_use", id: "toolu_nav", name: "navigate", input: {}, toolset_name: "browser" };
    const events = await run(
      "anthropic",
      anthropic(
        start,
        { type: "content_block_start", index: 0, content_block: member },
        json(0, '{"url":"https://example.com"}'),
        stop(0),
        ...end,
      ),
    );
    const finish = events.at(-1);
    assert(finish?.type === "finish", "finish");
    const call = finish.toolCalls[0]!;
    const navigate: BetaToolUseBlockParam = { ...member, type: "tool_use", input: { url: "https://example.com" } };
    const turn: BetaMessageParam = {
      role: "assistant",
      content: [navigate],
    };
    assertEquals(assistantMessage("anthropic", finish), turn);
    const results: BetaMessageParam = {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_nav", content: "Loaded.", toolset_name: "browser" }],
    };
    assertEquals(toolResultMessages("anthropic", [{ call, output: "Loaded." }]), [results]);
    // The request kit (the Worker's way to Anthropic) sends both the same.
    const body = providerKit("anthropic").requestBody({
      model: "claude-x",
      messages: [
        { role: "user", content: "Open example.com" },
        { role: "assistant", content: "", toolCalls: [call] },
        { role: "tool", toolCallId: "toolu_nav", content: "Loaded." },
      ],
      tools: [],
    });
    assertEquals((body["messages"] as BetaMessageParam[]).slice(1), [turn, results]);
  });
});
