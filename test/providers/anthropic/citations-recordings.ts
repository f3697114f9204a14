// Anthropic citation streams, shared by the library's cases and the client-protocol tests.
//
// Provenance: built by hand from the example stream of Anthropic's "Citations" page
// (https://platform.claude.com/docs/en/build-with-claude/citations, streaming: a `char_location`
// citations_delta, then the cited text as a text_delta), with a second response in the shapes of
// the "Web search tool" page's answer (text, `server_tool_use`, `web_search_tool_result`, a text
// block citing a `web_search_result_location`); ids, urls and `encrypted_index` made up.
import { anthropicSse } from "./turn-blocks-recordings.ts";

export const start = {
  type: "message_start",
  message: {
    id: "msg_c",
    type: "message",
    role: "assistant",
    content: [],
    stop_reason: null,
    usage: { input_tokens: 9 },
  },
};
export const endTurn = [{ type: "message_delta", delta: { stop_reason: "end_turn" } }, { type: "message_stop" }];
export const CHAR = {
  type: "char_location" as const,
  cited_text: "The grass is green. ",
  document_index: 0,
  document_title: "My Document",
  start_char_index: 0,
  end_char_index: 20,
  file_id: null,
};
/** The Citations page's example: a cited block streamed (its citation first), then a block whole at its start. */
export const documentCited: string = anthropicSse(
  start,
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "", citations: [] } },
  { type: "content_block_delta", index: 0, delta: { type: "citations_delta", citation: CHAR } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "the grass " } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "is green" } },
  { type: "content_block_stop", index: 0 },
  { type: "content_block_start", index: 1, content_block: { type: "text", text: " and " } },
  { type: "content_block_stop", index: 1 },
  ...endTurn,
);

export const WEB = {
  type: "web_search_result_location" as const,
  url: "https://ferries.example/timetable",
  title: "Ferry timetable",
  encrypted_index: "Eo8BCioIAhgBIiQ",
  cited_text: "Three crossings a day, at 8:00, 12:00 and 17:00.",
};
export const SEARCH = { type: "server_tool_use", id: "srvtoolu_ws_1", name: "web_search", input: {} };
export const HITS = {
  type: "web_search_tool_result",
  tool_use_id: "srvtoolu_ws_1",
  content: [{ type: "web_search_result", url: WEB.url, title: WEB.title, encrypted_content: "EqgC", page_age: null }],
};
/** A web search answer: text, the search and its result, then a cited block (its citation at its start) and text. */
export const webCited: string = anthropicSse(
  start,
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "I'll look it up." } },
  { type: "content_block_stop", index: 0 },
  { type: "content_block_start", index: 1, content_block: SEARCH },
  { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"query":"ferry"}' } },
  { type: "content_block_stop", index: 1 },
  { type: "content_block_start", index: 2, content_block: HITS },
  { type: "content_block_stop", index: 2 },
  { type: "content_block_start", index: 3, content_block: { type: "text", text: "", citations: [WEB] } },
  { type: "content_block_delta", index: 3, delta: { type: "text_delta", text: "There are three a day" } },
  { type: "content_block_stop", index: 3 },
  { type: "content_block_start", index: 4, content_block: { type: "text", text: ", the first at 8:00." } },
  { type: "content_block_stop", index: 4 },
  ...endTurn,
);
