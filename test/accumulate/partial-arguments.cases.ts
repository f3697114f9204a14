import { IncrementalJsonParser, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { streamToolCalls as openAIToolCalls } from "../../src/openai.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, summarize } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE } from "../support/streams.ts";

group("Partial arguments on tool-call-delta", (test) => {
  test("every recorded stream gives the same calls with partial arguments on", async () => {
    for (const fixture of allFixtures) {
      const provider = supportedProvider(fixture);
      if (!provider) continue;
      const on = await collect(streamToolCalls(fromChunks([fixture.body]), { provider, partialArguments: true }));
      assertEquals(summarize(on), fixture.expected, `${fixture.provider}/${fixture.name}`);
    }
  });

  test("each delta carries the value so far and whether the arguments are closed, which never completes the call", async () => {
    const fragments = ['{"city": "杭', '州", "days": [1', ", 2]", "}"];
    const sse = openAISSE([
      chatChunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "forecast", arguments: "" } }] }),
      ...fragments.map((f) => chatChunk({ tool_calls: [{ index: 0, function: { arguments: f } }] })),
      chatChunk({}, "tool_calls"),
    ]);
    const seen: { partial: string; closed: boolean }[] = [];
    const reader = streamToolCalls(fromChunks([bytes(sse)]), { partialArguments: true }).getReader();
    const events: ToolCallEvent[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      events.push(value);
      // Live until the next event of the call: read (or copy) it now.
      if (value.type === "tool-call-delta")
        seen.push({ partial: JSON.stringify(value.partialArguments), closed: value.closed });
    }
    assertEquals(seen, [
      { partial: '{"city":"杭"}', closed: false },
      { partial: '{"city":"杭州","days":[1]}', closed: false },
      { partial: '{"city":"杭州","days":[1,2]}', closed: false },
      { partial: '{"city":"杭州","days":[1,2]}', closed: true },
    ]);
    assertEquals(
      events.map((e) => e.type),
      [
        "tool-call-start",
        "tool-call-delta",
        "tool-call-delta",
        "tool-call-delta",
        "tool-call-delta",
        "tool-call",
        "finish",
      ],
    );
  });

  test("with partial arguments off, deltas still say when the arguments closed, and carry no value", async () => {
    const sse = openAISSE(
      [
        chatChunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: '{"a":' } }] }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: "1}" } }] }),
      ],
      false,
    );
    const deltas = (await collect(streamToolCalls(fromChunks([bytes(sse)])))).filter(
      (e) => e.type === "tool-call-delta",
    );
    assertEquals(
      deltas.map((d) => [d.closed, "partialArguments" in d]),
      [
        [false, false],
        [true, false],
      ],
    );
  });

  test("a closed value followed by more bytes is reported invalid at completion, with partial arguments on", async () => {
    const sse = openAISSE([
      chatChunk(
        { tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: '{"a":1}{"b":2}' } }] },
        "tool_calls",
      ),
    ]);
    const events = await collect(streamToolCalls(fromChunks([bytes(sse)]), { partialArguments: true }));
    const invalid = events.find((e) => e.type === "invalid-tool-call");
    assert(invalid?.type === "invalid-tool-call" && invalid.error.code === "trailing-data", "trailing-data");
  });

  test("a provider subpath's streamToolCalls takes the parser as the plug-in, and `true` is a TypeError naming it", async () => {
    const sse = openAISSE([
      chatChunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: '{"a": [1' } }] }),
      chatChunk({ tool_calls: [{ index: 0, function: { arguments: "]}" } }] }, "tool_calls"),
    ]);
    const events = await collect(
      openAIToolCalls(fromChunks([bytes(sse)]), { partialArguments: IncrementalJsonParser }),
    );
    assertEquals(
      events.flatMap((e) => (e.type === "tool-call-delta" ? [JSON.stringify(e.partialArguments)] : [])),
      ['{"a":[1]}', '{"a":[1]}'],
    );
    let thrown: unknown;
    try {
      openAIToolCalls(fromChunks([bytes(sse)]), { partialArguments: true });
    } catch (error) {
      thrown = error;
    }
    assert(
      thrown instanceof TypeError && thrown.message.includes("IncrementalJsonParser"),
      "a TypeError naming the parser",
    );
  });
});
