// Bedrock ConverseStream with a server tool (issue 34): a `server_tool_use` block, the
// `toolResult` block and deltas of its result, and `citation` deltas in the answer keep being
// handled: the provider's call is `providerExecuted`, the result and citations add no call, no
// text and no error, and the turn, whose only call the provider ran, finishes `stop`.
//
// Provenance: no real capture was available offline, so this stream is BUILT BY HAND from the
// shapes of the Bedrock Runtime API reference (ConverseStream): ContentBlockStart `toolUse`
// `{toolUseId, name, type: "server_tool_use"}` and `toolResult` `{toolUseId, type, status}`;
// ContentBlockDelta `toolUse` `{input}`, `toolResult` (a list of ToolResultBlockDelta, `{json}` or
// `{text}`) and `citation` (CitationsDelta: `title`, `source`, `sourceContent: [{text}]`,
// `location`); `messageStop.stopReason` `end_turn`; the `p` padding Bedrock adds. Ids, texts and
// URLs are made up.
import fc from "fast-check";
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { converse } from "../../support/event-stream.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { collect, fromChunks, splitAt } from "../../support/streams.ts";

const serverToolTurn = converse([
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
  [
    "contentBlockDelta",
    { contentBlockIndex: 1, delta: { toolResult: [{ text: "High tide 14:05, low tide 20:17." }] } },
  ],
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

const run = (chunks: Uint8Array[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "bedrock" }));

group("Bedrock ConverseStream server tools: server_tool_use, toolResult and citation deltas", (test) => {
  test("the provider's call is providerExecuted, its result and the citations add nothing, and the turn finishes stop", async () => {
    const events = await run([serverToolTurn]);
    assertEventInvariants(events);
    assert(!events.some((e) => e.type === "error"), "no error for the toolResult or citation deltas");
    const finish = events.at(-1);
    assert(finish?.type === "finish", "the response finishes");
    assertEquals([finish.reason, finish.rawReason], ["stop", "end_turn"]);
    assertEquals(finish.text, "High tide is at 14:05. Low tide at 20:17.");
    assertEquals(
      finish.toolCalls.map((call) => [call.id, call.name, call.arguments, call.providerExecuted]),
      [["srvtool_1", "web_search", { query: "tide times Brest" }, true]],
    );
  });

  test("any split of the bytes gives the same events", async () => {
    const whole = await run([serverToolTurn]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: serverToolTurn.length - 1 }), { maxLength: 30 }),
        async (cuts) => {
          assertEquals(await run(splitAt(serverToolTurn, cuts)), whole);
        },
      ),
      { seed: 3402, numRuns: 15 },
    );
  });
});
