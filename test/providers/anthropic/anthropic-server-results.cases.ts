// Anthropic server tools' results (`web_search_tool_result`, `code_execution_tool_result`, ...):
// each is a kept block (a `reasoning-part` of type `block`) in its place, whether it streams or a
// programmatic tool calling continuation's `message_start.message.content` already holds it, and
// the next turn sends it back: right after its call when the call is of the turn, in its place when
// the call came in an earlier response. Before, the result blocks were dropped, and a server call
// never went back, so a programmatic tool calling turn lost the code execution its calls name.
//
// Provenance: built by hand in this project's ids, from the shapes of vercel/ai's recording
// packages/anthropic/src/__fixtures__/anthropic-programmatic-tool-calling.1.chunks.txt (commit
// in ../shared/external-fixtures/vercel-ai/manifest.json: the last response starts with a
// `code_execution_tool_result` block whose call came responses earlier) and of
// `@anthropic-ai/sdk`'s BetaMessageParam (the types check each next turn below). An unpaired
// server_tool_use is a 400 from Anthropic ("`web_search` tool use with id ... was found without a
// corresponding `web_search_tool_result` block", anthropics/anthropic-sdk-python issue 1339), but
// in a turn that also calls a client tool, which "Server tools" says the API runs it with.
import type { BetaMessageParam } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import {
  AnthropicMessagesEncoder,
  assistantMessage,
  encodeEvents,
  OpenAIResponsesEncoder,
  readAnthropicMessage,
  streamToolCalls,
  type FinishEvent,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { readMessagesEvents } from "../../support/agent-protocol-readers.ts";
import { assertAnySplitSame } from "../../support/splits.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";
import { anthropicSse } from "./turn-blocks-recordings.ts";

const run = (chunks: Uint8Array[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "anthropic" }));

async function finishOf(body: string): Promise<{ events: ToolCallEvent[]; finish: FinishEvent }> {
  const events = await run([bytes(body)]);
  const finish = assertFinished(events);
  return { events, finish };
}

const message = (content: unknown[] = []) => ({
  type: "message_start",
  message: { id: "msg_r", type: "message", role: "assistant", content, stop_reason: null, usage: { input_tokens: 9 } },
});
const RESULT = {
  type: "code_execution_tool_result",
  tool_use_id: "srvtoolu_code_9",
  content: { type: "code_execution_result", stdout: "p1: 5, p2: 6\n", stderr: "", return_code: 0, content: [] },
};
const textBlock = (index: number, text: string) => [
  { type: "content_block_start", index, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index, delta: { type: "text_delta", text } },
  { type: "content_block_stop", index },
];
const endTurn = [{ type: "message_delta", delta: { stop_reason: "end_turn" } }, { type: "message_stop" }];

/** The last response of a programmatic tool calling run: the code's result, already in message_start, then text. */
const resultInStart = anthropicSse(message([RESULT]), ...textBlock(1, "Player 2 wins."), ...endTurn);
/** The same response with the result streamed as a block of its own. */
const resultStreamed = anthropicSse(
  message(),
  { type: "content_block_start", index: 0, content_block: RESULT },
  { type: "content_block_stop", index: 0 },
  ...textBlock(1, "Player 2 wins."),
  ...endTurn,
);

const SEARCH = { type: "server_tool_use", id: "srvtoolu_ws_1", name: "web_search", input: {} };
const HITS = {
  type: "web_search_tool_result",
  tool_use_id: "srvtoolu_ws_1",
  content: [{ type: "web_search_result", url: "https://ferries.example", title: "Ferries", encrypted_content: "Eo8B" }],
};
/** A web search in one response: text, the search, its result, text. */
const searched = anthropicSse(
  message(),
  ...textBlock(0, "Searching. "),
  { type: "content_block_start", index: 1, content_block: SEARCH },
  { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"query":"ferry"}' } },
  { type: "content_block_stop", index: 1 },
  { type: "content_block_start", index: 2, content_block: HITS },
  { type: "content_block_stop", index: 2 },
  ...textBlock(3, "Three a day."),
  ...endTurn,
);

group("Anthropic server tools' results", (test) => {
  test("a result in message_start.content is surfaced exactly as the same block streamed, before what streams after it", async () => {
    const fromStart = await finishOf(resultInStart);
    const streamed = await finishOf(resultStreamed);
    assertEquals(fromStart.events, streamed.events);
    assertEquals(
      fromStart.events.map((e) => e.type),
      ["usage", "reasoning-part", "text-delta", "finish"],
    );
    assertEquals(fromStart.finish.reasoningParts, [{ type: "block", block: RESULT }]);
    assertEquals([fromStart.finish.reason, fromStart.finish.toolCalls], ["stop", []]);
  });

  test("its next turn: the result in its place (its call went back with an earlier turn), then the text", async () => {
    const { finish } = await finishOf(resultInStart);
    const expected: BetaMessageParam = {
      role: "assistant",
      content: [RESULT as never, { type: "text", text: "Player 2 wins." }],
    };
    assertEquals(assistantMessage("anthropic", finish), expected);
  });

  test("a search and its result in one turn: the server call goes back with its result right after it, in the stream's block order", async () => {
    const { finish } = await finishOf(searched);
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.name, c.providerExecuted, c.providerMetadata]),
      [["srvtoolu_ws_1", "web_search", true, { anthropicBlock: { type: "server_tool_use" } }]],
    );
    const expected: BetaMessageParam = {
      role: "assistant",
      content: [
        { type: "text", text: "Searching. " },
        { type: "server_tool_use", id: "srvtoolu_ws_1", name: "web_search", input: { query: "ferry" } },
        HITS as never,
        { type: "text", text: "Three a day." },
      ],
    };
    assertEquals(assistantMessage("anthropic", finish), expected);
  });

  test("a server call with no result in the turn and no call naming it is left out (Anthropic refuses it alone)", async () => {
    const cut = searched.replace(/event: content_block_start\ndata: [^\n]*web_search_tool_result[^\n]*\n\n/, "");
    assert(cut !== searched, "the result block was taken out");
    const { finish } = await finishOf(cut);
    assertEquals(assistantMessage("anthropic", finish), {
      role: "assistant",
      content: [
        { type: "text", text: "Searching. " },
        { type: "text", text: "Three a day." },
      ],
    });
  });

  test("a server call with no result in a turn that also calls a client tool goes back before it (Anthropic runs it with the results)", async () => {
    // "Server tools": with a client tool in the same turn, the server_tool_use comes without its
    // result, the turn ends tool_use, and the API runs the server tool when the tool_result comes back.
    const mixed = anthropicSse(
      message(),
      { type: "content_block_start", index: 0, content_block: SEARCH },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"query":"ferry"}' } },
      { type: "content_block_stop", index: 0 },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "tool_use", id: "toolu_t", name: "tides", input: {} },
      },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"port":"Oban"}' } },
      { type: "content_block_stop", index: 1 },
      { type: "message_delta", delta: { stop_reason: "tool_use" } },
      { type: "message_stop" },
    );
    const { finish } = await finishOf(mixed);
    assertEquals(
      [finish.reason, finish.toolCalls.map((c) => [c.id, c.providerExecuted ?? false])],
      [
        "tool-calls",
        [
          ["srvtoolu_ws_1", true],
          ["toolu_t", false],
        ],
      ],
    );
    const expected: BetaMessageParam = {
      role: "assistant",
      content: [
        { type: "server_tool_use", id: "srvtoolu_ws_1", name: "web_search", input: { query: "ferry" } },
        { type: "tool_use", id: "toolu_t", name: "tides", input: { port: "Oban" } },
      ],
    };
    assertEquals(assistantMessage("anthropic", finish), expected);
    // A Messages client gets the turn as it came, ending tool_use, and sends it back the same way.
    const events = await run([bytes(mixed)]);
    const reading = readMessagesEvents(encodeEvents(new AnthropicMessagesEncoder({ model: "m" }), events, true));
    assertEquals(
      [reading.content.map((block) => block.type), reading.stopReason],
      [["server_tool_use", "tool_use"], "tool_use"],
    );
  });

  test("the Messages encoder shows a server call and its result as Anthropic sent them; Responses leaves both out, and both show a result whose call came earlier", async () => {
    const { events } = await finishOf(searched);
    const messages = readMessagesEvents(encodeEvents(new AnthropicMessagesEncoder({ model: "m" }), events, true));
    assertEquals(
      messages.content.map((block) => block.type),
      ["text", "server_tool_use", "web_search_tool_result", "text"],
    );
    assertEquals(messages.content[1], { ...SEARCH, input: { query: "ferry" } });
    assertEquals(messages.content[2], HITS);
    assertEquals(messages.stopReason, "end_turn");
    const message = await readAnthropicMessage(fromChunks(events), { model: "m" });
    assert(message.type === "message", "a message");
    assertEquals(message.message.content.slice(1, 3), [{ ...SEARCH, input: { query: "ferry" } }, HITS]);
    // The Worker seals every kept block for Responses clients; this one is left out all the same.
    const sealed = { model: "m", generateId: () => "x", encryptedContent: () => "sealed" };
    assertEquals(encodeEvents(new OpenAIResponsesEncoder(sealed), events, true).includes('"type":"reasoning"'), false);
    const later = (await finishOf(resultInStart)).events;
    assert(
      encodeEvents(new AnthropicMessagesEncoder({ model: "m" }), later, true).includes('"code_execution_tool_result"'),
      "a result whose call came in an earlier response is shown in its place",
    );
  });

  for (const [name, body] of [
    ["result in message_start", resultInStart],
    ["search and result", searched],
  ] as const)
    test(`${name}: any split of the bytes gives the same events`, () => assertAnySplitSame(bytes(body), run));

  // `@anthropic-ai/sdk` 1.12's BetaContentBlock also holds `mcp_tool_listing` ("Send the assistant
  // message back unchanged, this block included, so later requests use this listing instead of
  // asking the MCP server again") and `container_upload` (`{ file_id }`), and BetaStopReason
  // `compaction` (a response that paused after its compaction block: BetaCompact20260112Edit's
  // `pause_after_compaction`). Built from the documented shapes.
  const LISTING = {
    type: "mcp_tool_listing",
    mcp_server_name: "tickets",
    tools: [{ name: "open_ticket", description: "Opens a ticket.", input_schema: { type: "object" } }],
  };
  const UPLOAD = { type: "container_upload", file_id: "file_011" };
  const listed = anthropicSse(
    message(),
    { type: "content_block_start", index: 0, content_block: LISTING },
    { type: "content_block_stop", index: 0 },
    { type: "content_block_start", index: 1, content_block: UPLOAD },
    { type: "content_block_stop", index: 1 },
    ...textBlock(2, "Ready."),
    ...endTurn,
  );

  test("an mcp_tool_listing and a container_upload block go back unchanged, in place, at any split", async () => {
    const expected: BetaMessageParam = {
      role: "assistant",
      content: [LISTING as never, UPLOAD as never, { type: "text", text: "Ready." }],
    };
    await assertAnySplitSame(bytes(listed), async (chunks) => {
      const events = await run(chunks);
      assertEquals(assistantMessage("anthropic", assertFinished(events)), expected);
      return events;
    });
  });

  test("stop_reason compaction is a pause: the turn goes back with its compaction block and the loop goes on", async () => {
    const compacted = anthropicSse(
      message(),
      { type: "content_block_start", index: 0, content_block: { type: "compaction", content: "" } },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "compaction_delta", content: "Summary so far.", encrypted_content: "Ek0" },
      },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "compaction" } },
      { type: "message_stop" },
    );
    const { finish } = await finishOf(compacted);
    assertEquals([finish.reason, finish.rawReason], ["pause", "compaction"]);
    const expected: BetaMessageParam = {
      role: "assistant",
      content: [{ type: "compaction", content: "Summary so far.", encrypted_content: "Ek0" }],
    };
    assertEquals(assistantMessage("anthropic", finish), expected);
  });
});
