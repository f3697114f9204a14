// Anthropic's citations (documents, search results, web search): a `text` block's citations, in
// its `content_block_start` or as `citations_delta`s, are kept with the block (a `reasoning-part`
// of type `block` at its stop), and the next turn sends each cited block back as its own block
// with its `citations`, in the `TextCitationParam` shape (a response's `file_id` left out), the
// text around it as before. Before, the citations were dropped and the text blocks merged.
//
// Provenance: built by hand from the example stream of Anthropic's "Citations" page
// (https://platform.claude.com/docs/en/build-with-claude/citations, streaming: a `char_location`
// citations_delta, then the cited text as a text_delta), with a second response in the shapes of
// the "Web search tool" page's answer (text, `server_tool_use`, `web_search_tool_result`, a text
// block citing a `web_search_result_location`); ids, urls and `encrypted_index` made up. The
// fields each citation type takes back are those of `@anthropic-ai/sdk`'s TextCitationParam, and
// every next turn is typed against the SDK's `MessageParam`.
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages/messages";
import {
  AnthropicMessagesEncoder,
  assistantMessage,
  encodeEvents,
  OpenAIResponsesEncoder,
  providerKit,
  streamToolCalls,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { assertAnySplitSame } from "../../support/splits.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";
import { CHAR, documentCited, endTurn, HITS, start, WEB, webCited } from "./citations-recordings.ts";
import { anthropicSse } from "./turn-blocks-recordings.ts";

const run = (chunks: Uint8Array[], maxToolCalls?: number): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "anthropic", ...(maxToolCalls ? { maxToolCalls } : {}) }));

group("Anthropic citations", (test) => {
  test("a document's cited block goes back as its own block with its citation, the text after it as before", async () => {
    const events = await run([bytes(documentCited)]);
    const finish = assertFinished(events);
    assertEquals(finish.text, "the grass is green and ");
    assertEquals(finish.reasoningParts, [
      { type: "block", block: { type: "text", text: "the grass is green", citations: [CHAR] } },
    ]);
    const { file_id: _fileId, ...param } = CHAR;
    const expected: MessageParam = {
      role: "assistant",
      content: [
        { type: "text", text: "the grass is green", citations: [param] },
        { type: "text", text: " and " },
      ],
    };
    assertEquals(assistantMessage("anthropic", finish), expected);
  });

  test("a web search answer in the stream's block order: the search with its result, then the cited block with its web_search_result_location", async () => {
    const finish = assertFinished(await run([bytes(webCited)]));
    assertEquals(finish.text, "I'll look it up.There are three a day, the first at 8:00.");
    const expected: MessageParam = {
      role: "assistant",
      content: [
        { type: "text", text: "I'll look it up." },
        { type: "server_tool_use", id: "srvtoolu_ws_1", name: "web_search", input: { query: "ferry" } },
        HITS as never,
        { type: "text", text: "There are three a day", citations: [WEB] },
        { type: "text", text: ", the first at 8:00." },
      ],
    };
    assertEquals(assistantMessage("anthropic", finish), expected);
  });

  test("the request kit sends a cited block back as assistantMessage does (the Worker's and /v1/run's next turn)", async () => {
    const finish = assertFinished(await run([bytes(webCited)]));
    const body = providerKit("anthropic").requestBody({
      model: "claude-x",
      tools: [],
      messages: [
        { role: "user", content: "When does the ferry run?" },
        {
          role: "assistant",
          content: finish.text,
          toolCalls: [],
          reasoningParts: finish.reasoningParts,
          order: finish.order,
        },
        { role: "user", content: "And on Sundays?" },
      ],
    }) as unknown as { messages: MessageParam[] };
    const next = assistantMessage("anthropic", { ...finish, toolCalls: [] }) as unknown as MessageParam;
    assertEquals(body.messages[1], next);
    const cited = (body.messages[1]!.content as { citations?: unknown }[]).filter((block) => block.citations);
    assertEquals(cited, [{ type: "text", text: "There are three a day", citations: [WEB] }]);
  });

  test("a block cited midway: the text from its first citation on is the cited block, the text before stays plain", async () => {
    const midway = anthropicSse(
      start,
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "", citations: null } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Uncited. " } },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "As cited: " } },
      { type: "content_block_delta", index: 1, delta: { type: "citations_delta", citation: CHAR } },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "the grass is green" } },
      { type: "content_block_stop", index: 1 },
      ...endTurn,
    );
    const finish = assertFinished(await run([bytes(midway)]));
    assertEquals(finish.text, "Uncited. As cited: the grass is green");
    assertEquals(finish.reasoningParts, [
      { type: "block", block: { type: "text", text: "the grass is green", citations: [CHAR] } },
    ]);
    const { file_id: _fileId, ...param } = CHAR;
    assertEquals(assistantMessage("anthropic", finish), {
      role: "assistant",
      content: [
        { type: "text", text: "Uncited. As cited: " },
        { type: "text", text: "the grass is green", citations: [param] },
      ],
    });
  });

  test("cited texts not in the turn's text stop being searched once the text was read a few times over (a hostile history is linear)", () => {
    const { file_id: _fileId, ...param } = CHAR;
    const cited = (text: string) => ({ type: "block" as const, block: { type: "text", text, citations: [CHAR] } });
    const text = `${"x".repeat(100)}the grass is green`;
    const turn = (misses: number) => ({
      text,
      toolCalls: [],
      reasoningParts: [...Array.from({ length: misses }, () => cited("absent")), cited("the grass is green")],
    });
    // Two misses read the text twice: the cited block is still found.
    assertEquals(assistantMessage("anthropic", turn(2)), {
      role: "assistant",
      content: [
        { type: "text", text: "x".repeat(100) },
        { type: "text", text: "the grass is green", citations: [param] },
      ],
    });
    // Past four reads the rest is not searched: the text goes back whole, uncited.
    assertEquals(assistantMessage("anthropic", turn(1000)), { role: "assistant", content: [{ type: "text", text }] });
  });

  test("the client-protocol encoders show the cited text once, as text, and no block for the citation", async () => {
    const events = await run([bytes(documentCited)]);
    const messages = encodeEvents(new AnthropicMessagesEncoder({ model: "m" }), events, true);
    assertEquals([messages.includes('"thinking"'), messages.split("the grass ").length - 1], [false, 1]);
    const sealed = { model: "m", generateId: () => "x", encryptedContent: () => "sealed" };
    assertEquals(encodeEvents(new OpenAIResponsesEncoder(sealed), events, true).includes('"type":"reasoning"'), false);
  });

  test("citations past maxToolCalls end the stream with too-many-tool-calls, the text before delivered", async () => {
    const events = await run([bytes(documentCited)], 1);
    assert(!events.some((e) => e.type === "error"), "one citation is within a limit of 1");
    const twice = anthropicSse(
      start,
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "Green.", citations: [CHAR] } },
      { type: "content_block_delta", index: 0, delta: { type: "citations_delta", citation: CHAR } },
      ...endTurn,
    );
    const cut = await run([bytes(twice)], 1);
    const error = cut.find((e) => e.type === "error");
    assertEquals(error?.type === "error" ? error.error.code : undefined, "too-many-tool-calls");
    assert(
      cut.some((e) => e.type === "text-delta" && e.text === "Green."),
      "the text before the fault is delivered",
    );
    assertEquals(cut.at(-1)?.type, "abort");
  });

  for (const [name, body] of [
    ["document citation", documentCited],
    ["web search citation", webCited],
  ] as const)
    test(`${name}: any split of the bytes gives the same events`, () => assertAnySplitSame(bytes(body), run));
});
