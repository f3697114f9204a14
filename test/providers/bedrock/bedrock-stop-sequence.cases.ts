// The stop sequence Claude stopped at, on Bedrock's ConverseStream: Converse answers it in
// `messageStop.additionalModelResponseFields` when the request asks for the Anthropic event's field
// (`additionalModelResponseFieldPaths: ["/delta/stop_sequence"]`, as the AI SDK's Bedrock provider
// does), `{"delta":{"stop_sequence":...}}` as the recordings of test/recordings/external/vercel-ai/bedrock
// hold it (null there). InvokeModel's Anthropic events already named it (bedrock-rules.cases.ts).
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { converse } from "../../support/event-stream.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { collect, fromChunks, splitAt } from "../../support/streams.ts";
import { converseWhole } from "../../support/whole-responses.ts";

type Event = [string, Record<string, unknown>];

const text: Event = ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "one two " } }];
const metadata: Event = ["metadata", { usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12 } }];
const stopAt = (stopReason: string, stop: unknown): Event => [
  "messageStop",
  { stopReason, additionalModelResponseFields: { delta: { stop_sequence: stop } } },
];

const finishOf = async (events: Event[], cuts: number[] = []) => {
  const all: ToolCallEvent[] = await collect(
    streamToolCalls(fromChunks(splitAt(converse(events), cuts)), { provider: "bedrock" }),
  );
  const finish = all.at(-1);
  assert(finish?.type === "finish", "the stream finishes");
  return finish;
};

group("Bedrock ConverseStream stop sequence", (test) => {
  test("Claude's stop at a stop sequence names it (additionalModelResponseFields.delta.stop_sequence), as on Anthropic's own stream", async () => {
    const finish = await finishOf(
      [text, ["contentBlockStop", { contentBlockIndex: 0 }], stopAt("stop_sequence", "three"), metadata],
      [7, 90],
    );
    assertEquals(
      [finish.reason, finish.rawReason, finish.stopSequence, finish.text],
      ["stop", "stop_sequence", "three", "one two "],
    );
  });

  test("the recordings' null, an empty string or another type is no stop sequence", async () => {
    for (const stop of [null, "", 3, { s: "x" }]) {
      const finish = await finishOf([text, stopAt("end_turn", stop), metadata]);
      assertEquals([finish.reason, "stopSequence" in finish], ["stop", false]);
    }
    const bare = await finishOf([
      text,
      ["messageStop", { stopReason: "end_turn", additionalModelResponseFields: "x" }],
    ]);
    assertEquals("stopSequence" in bare, false);
  });

  test("a whole Converse response (application/json) names it too", async () => {
    const whole = converseWhole(
      [text, stopAt("stop_sequence", "three"), metadata].map(([type, value]) => ({ [type]: value })),
    );
    const events = await collect(
      streamToolCalls(new Response(JSON.stringify(whole), { headers: { "content-type": "application/json" } }), {
        provider: "bedrock",
      }),
    );
    const finish = events.at(-1);
    assert(finish?.type === "finish", "the response finishes");
    assertEquals([finish.rawReason, finish.stopSequence], ["stop_sequence", "three"]);
  });
});
