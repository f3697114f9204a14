// Bedrock ConverseStream with a server tool (issue 34), shared by its cases and by the next turn's
// check against the AWS SDK's types (test/node/next-turn-sdk-types.test.ts).
//
// Provenance: no real capture was available offline, so this stream is BUILT BY HAND from the
// shapes of the Bedrock Runtime API reference (ConverseStream): ContentBlockStart `toolUse`
// `{toolUseId, name, type: "server_tool_use"}` and `toolResult` `{toolUseId, type, status}`;
// ContentBlockDelta `toolUse` `{input}`, `toolResult` (a list of ToolResultBlockDelta, `{json}` or
// `{text}`) and `citation` (CitationsDelta: `title`, `source`, `sourceContent: [{text}]`,
// `location`); `messageStop.stopReason` `end_turn`; the `p` padding Bedrock adds. Ids, texts and
// URLs are made up.
import { converse } from "../../support/event-stream.ts";

/**
 * A `server_tool_use` web search, its `toolResult` (a `json` delta, then the text in two pieces),
 * and an answer with a `citation` delta, ending `end_turn`.
 */
export const serverToolTurn = converse([
  ["messageStart", { role: "assistant" }],
  [
    "contentBlockStart",
    {
      contentBlockIndex: 0,
      start: { toolUse: { toolUseId: "srvtool_1", name: "web_search", type: "server_tool_use" } },
    },
  ],
  ["contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input: '{"query":' } } }],
  ["contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input: '"tide times Brest"}' } } }],
  ["contentBlockStop", { contentBlockIndex: 0 }],
  [
    "contentBlockStart",
    {
      contentBlockIndex: 1,
      start: { toolResult: { toolUseId: "srvtool_1", type: "web_search_result", status: "success" } },
    },
  ],
  [
    "contentBlockDelta",
    {
      contentBlockIndex: 1,
      delta: { toolResult: [{ json: { results: [{ title: "Tides", url: "https://example.com/tides" }] } }] },
    },
  ],
  ["contentBlockDelta", { contentBlockIndex: 1, delta: { toolResult: [{ text: "High tide 14:05," }] } }],
  ["contentBlockDelta", { contentBlockIndex: 1, delta: { toolResult: [{ text: " low tide 20:17." }] } }],
  ["contentBlockStop", { contentBlockIndex: 1 }],
  ["contentBlockDelta", { contentBlockIndex: 2, delta: { text: "High tide is at 14:05." } }],
  [
    "contentBlockDelta",
    {
      contentBlockIndex: 2,
      delta: {
        citation: {
          title: "Tides",
          source: "https://example.com/tides",
          sourceContent: [{ text: "High tide 14:05" }],
          location: { web: { url: "https://example.com/tides", domain: "example.com" } },
        },
      },
    },
  ],
  ["contentBlockDelta", { contentBlockIndex: 2, delta: { text: " Low tide at 20:17." } }],
  ["contentBlockStop", { contentBlockIndex: 2 }],
  ["messageStop", { stopReason: "end_turn" }],
  ["metadata", { usage: { inputTokens: 40, outputTokens: 22, totalTokens: 62 }, metrics: { latencyMs: 900 } }],
]);
