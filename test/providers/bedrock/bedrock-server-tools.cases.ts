// Bedrock ConverseStream with a server tool (issue 34): a `server_tool_use` block, the
// `toolResult` block and deltas of its result, and `citation` deltas in the answer keep being
// handled: the provider's call is `providerExecuted`, the result and citations add no call, no
// text and no error (the cited block is kept: bedrock-converse-citations.cases.ts), and the turn, whose only call the provider ran, finishes `stop`. The next
// turn sends the server call back with its result (Amazon Nova's system tools; pydantic-ai's
// recorded multi-turn code execution does so and Bedrock answers 200). The stream is built from
// the API reference's shapes (server-tools-recordings.ts says which).
import fc from "fast-check";
import {
  assistantMessage,
  AwsEventStreamDecoderStream,
  BedrockDeltaStream,
  providerKit,
  streamToolCalls,
  ToolCallStreamError,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { collect, fromChunks, splitAt } from "../../support/streams.ts";
import { serverToolTurn } from "./server-tools-recordings.ts";

const run = (chunks: Uint8Array[], maxArgumentsLength?: number): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "bedrock", maxArgumentsLength }));

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

  test("the next turn sends the server call back with its result, in place, its content as the deltas gave it", async () => {
    const finish = (await run([serverToolTurn])).at(-1);
    assert(finish?.type === "finish", "the response finishes");
    const call = { toolUseId: "srvtool_1", name: "web_search", input: { query: "tide times Brest" } };
    const result = {
      toolResult: {
        toolUseId: "srvtool_1",
        type: "web_search_result",
        status: "success",
        content: [
          { json: { results: [{ title: "Tides", url: "https://example.com/tides" }] } },
          { text: "High tide 14:05," },
          { text: " low tide 20:17." },
        ],
      },
    };
    // The answer's block had a citation: it goes back as its citationsContent (bedrock-converse-citations.cases.ts).
    const citation = {
      title: "Tides",
      source: "https://example.com/tides",
      sourceContent: [{ text: "High tide 14:05" }],
      location: { web: { url: "https://example.com/tides", domain: "example.com" } },
    };
    const answer = {
      citationsContent: { citations: [citation], content: [{ text: "High tide is at 14:05. Low tide at 20:17." }] },
    };
    const expected = [{ toolUse: { ...call, type: "server_tool_use" } }, result, answer];
    assertEquals(assistantMessage("bedrock", finish), { role: "assistant", content: expected });
    // Without the stream's order (a turn rebuilt by hand, runToolLoop's): the result still follows its call.
    assertEquals(assistantMessage("bedrock", { ...finish, order: undefined }), {
      role: "assistant",
      content: [answer, ...expected.slice(0, 2)],
    });
    // The request kit (the Worker's Bedrock upstream) sends the same pair from the turn's calls and parts.
    const body = providerKit("bedrock").requestBody({
      model: "amazon.nova-2-lite-v1:0",
      messages: [
        { role: "user", content: "Tides in Brest?" },
        { role: "assistant", content: finish.text, toolCalls: finish.toolCalls, reasoningParts: finish.reasoningParts },
        { role: "user", content: "Thanks" },
      ],
      tools: [{ name: "get_weather", parameters: { type: "object" } }],
    });
    assertEquals((body["messages"] as { content: unknown[] }[])[1]!.content, [answer, ...expected.slice(0, 2)]);
  });

  test("a server tool's result past maxArgumentsLength ends the stream with arguments-too-large, the call before delivered", async () => {
    // Its deltas as JSON text are 76 + 29 + 29 characters; the call's own arguments 28.
    assert(
      !(await run([serverToolTurn], 134)).some((e) => e.type === "error"),
      "134 characters are within a limit of 134",
    );
    const cut = await run([serverToolTurn], 133);
    const error = cut.find((e) => e.type === "error");
    assertEquals(error?.type === "error" ? error.error.code : undefined, "arguments-too-large");
    assert(
      cut.some((e) => e.type === "tool-call" && e.id === "srvtool_1"),
      "the server call before the fault is delivered",
    );
    assertEquals(cut.at(-1)?.type, "abort");
  });

  test("told from the stream (no provider option), a server tool's result is bounded by the same maxArgumentsLength", async () => {
    const detected = (maxArgumentsLength: number) =>
      collect(streamToolCalls(fromChunks([serverToolTurn]), { maxArgumentsLength }));
    assert(!(await detected(134)).some((e) => e.type === "error"), "134 characters are within a limit of 134");
    const error = (await detected(133)).find((e) => e.type === "error");
    assertEquals(error?.type === "error" ? error.error.code : undefined, "arguments-too-large");
  });

  test("the bare stage takes the same maxArgumentsLength (it bounded a server tool's result by the 4 MiB default)", async () => {
    const bare = (maxArgumentsLength: number) =>
      collect(
        fromChunks([serverToolTurn])
          .pipeThrough(new AwsEventStreamDecoderStream())
          .pipeThrough(new BedrockDeltaStream({ maxArgumentsLength })),
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
    assertEquals(await bare(134), undefined, "134 characters are within a limit of 134");
    const failure = await bare(133);
    assert(failure instanceof ToolCallStreamError && failure.code === "arguments-too-large", "bare stage bounded");
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
