// Claude's citations on Bedrock's InvokeModelWithResponseStream (issue 34): the Anthropic events in
// its `chunk`s are read by the `invokeModel` plug-in, and `AnthropicCitingDecoder` keeps a text
// block's citations as Anthropic's own stream does (the same `finish`, the same next turn, the
// same `maxToolCalls` bound), while `AnthropicDecoder` leaves them out for a smaller bundle. The
// main entry's `bedrock` protocol reads with the citing decoder. The events are those of
// test/providers/anthropic/citations-recordings.ts (built from Anthropic's docs), in InvokeModel's
// frames (test/support/event-stream.ts).
import * as bedrock from "../../../src/bedrock.ts";
import { assistantMessage, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { CHAR, documentCited, webCited } from "../anthropic/citations-recordings.ts";
import { invokeChunks } from "../../support/event-stream.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { assertAnySplitSame } from "../../support/splits.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

/** An Anthropic SSE body's events as InvokeModel's chunks. */
const invokeBody = (sse: string): Uint8Array =>
  invokeChunks(
    sse
      .split("\n\n")
      .flatMap((frame) => frame.split("\n").filter((line) => line.startsWith("data: ")))
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>),
  );

const viaInvoke = (chunks: Uint8Array[], invokeModel: bedrock.InvokeModelDecoder, maxToolCalls?: number) =>
  collect(bedrock.streamToolCalls(fromChunks(chunks), { invokeModel, ...(maxToolCalls ? { maxToolCalls } : {}) }));
const viaAnthropic = (sse: string): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(sse)]), { provider: "anthropic" }));

group("Claude's citations on Bedrock InvokeModel", (test) => {
  test("AnthropicCitingDecoder keeps them as Anthropic's stream does; the main entry's bedrock too", async () => {
    for (const sse of [documentCited, webCited]) {
      const anthropic = assertFinished(await viaAnthropic(sse));
      const cited = assertFinished(await viaInvoke([invokeBody(sse)], bedrock.AnthropicCitingDecoder));
      assertEquals(cited.reasoningParts, anthropic.reasoningParts);
      assertEquals(assistantMessage("anthropic", cited), assistantMessage("anthropic", anthropic));
      const main = assertFinished(
        await collect(streamToolCalls(fromChunks([invokeBody(sse)]), { provider: "bedrock" })),
      );
      assertEquals(main.reasoningParts, anthropic.reasoningParts);
    }
  });

  test("AnthropicDecoder leaves them out: the text alone", async () => {
    const plain = assertFinished(await viaInvoke([invokeBody(documentCited)], bedrock.AnthropicDecoder));
    assertEquals([plain.text, plain.reasoningParts], ["the grass is green and ", undefined]);
  });

  test("the accumulator's maxToolCalls bounds them through Bedrock too", async () => {
    const events = await viaInvoke([invokeBody(documentCited)], bedrock.AnthropicCitingDecoder, 1);
    assert(!events.some((event) => event.type === "error"), "one citation is within a limit of 1");
    const twice = invokeBody(documentCited.replace('"citations":[]', `"citations":[${JSON.stringify(CHAR)}]`));
    const cut = await viaInvoke([twice], bedrock.AnthropicCitingDecoder, 1);
    const error = cut.find((event) => event.type === "error");
    assertEquals(error?.type === "error" ? error.error.code : undefined, "too-many-tool-calls");
  });

  test("any split of the InvokeModel bytes gives the same events", () =>
    assertAnySplitSame(invokeBody(webCited), (chunks) => viaInvoke(chunks, bedrock.AnthropicCitingDecoder)));
});
