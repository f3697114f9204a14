// A stage constructor given an option name it does not know (a typo from JavaScript, where no type
// checks it) throws a TypeError naming it and the stage's options, as streamToolCalls does: a
// misspelt limit left the default in force while the app believed it had set one.
import {
  AGUIEncoderStream,
  AnthropicDeltaStream,
  AnthropicMessagesEncoderStream,
  AwsEventStreamDecoderStream,
  BedrockDeltaStream,
  FramingDetectStream,
  GeminiDeltaStream,
  JsonArrayDecoderStream,
  NdjsonDecoderStream,
  OpenAIChatDeltaStream,
  OpenAIChatEncoderStream,
  OpenAIResponsesDeltaStream,
  OpenAIResponsesEncoderStream,
  SSEDecoderStream,
  ToolCallAccumulatorStream,
  ToolCallEventEncoderStream,
  type ToolCallEvent,
  UIMessageEncoderStream,
} from "../../src/index.ts";
import { ToolRunnerStream } from "../../src/tools.ts";
import { assert, assertEquals, group, thrown } from "../support/harness.ts";
import { collect, fromChunks } from "../support/streams.ts";

/** Each stage made with the options given, and an option name it has. */
const STAGES: readonly [string, (options: object) => unknown, string][] = [
  ["SSEDecoderStream", (o) => new SSEDecoderStream(o), "maxEventLength"],
  ["NdjsonDecoderStream", (o) => new NdjsonDecoderStream(o), "maxEventLength"],
  ["JsonArrayDecoderStream", (o) => new JsonArrayDecoderStream(o), "maxEventLength"],
  ["AwsEventStreamDecoderStream", (o) => new AwsEventStreamDecoderStream(o), "maxEventLength"],
  ["FramingDetectStream", (o) => new FramingDetectStream(o), "contentType"],
  ["OpenAIChatDeltaStream", (o) => new OpenAIChatDeltaStream(o), "jsonText"],
  ["OpenAIResponsesDeltaStream", (o) => new OpenAIResponsesDeltaStream(o), "reorderWindow"],
  ["AnthropicDeltaStream", (o) => new AnthropicDeltaStream(o), "maxToolCalls"],
  ["GeminiDeltaStream", (o) => new GeminiDeltaStream(o), "maxArgumentsLength"],
  ["BedrockDeltaStream", (o) => new BedrockDeltaStream(o), "converseCitations"],
  ["ToolCallAccumulatorStream", (o) => new ToolCallAccumulatorStream(o), "maxArgumentsLength"],
  ["ToolCallEventEncoderStream", (o) => new ToolCallEventEncoderStream(o), "joinDeltas"],
  ["OpenAIChatEncoderStream", (o) => new OpenAIChatEncoderStream({ model: "m", ...o }), "includeUsage"],
  ["UIMessageEncoderStream", (o) => new UIMessageEncoderStream(o), "messageId"],
  ["AGUIEncoderStream", (o) => new AGUIEncoderStream({ threadId: "t", runId: "r", ...o }), "threadId"],
  ["AnthropicMessagesEncoderStream", (o) => new AnthropicMessagesEncoderStream({ model: "m", ...o }), "model"],
  ["OpenAIResponsesEncoderStream", (o) => new OpenAIResponsesEncoderStream({ model: "m", ...o }), "model"],
  ["ToolRunnerStream", (o) => new ToolRunnerStream({ tools: {}, ...o }), "maxResultBytes"],
];

group("stage constructors' option names", (test) => {
  test("a misspelt option is a TypeError at the constructor naming it and the stage's options", () => {
    for (const [name, make, known] of STAGES) {
      const error = thrown(() => make({ maxArgumentBytes: 10 }));
      assert(error instanceof TypeError, `${name}: ${String(error)}`);
      assert(error.message.includes("`maxArgumentBytes`"), `${name}: ${error.message}`);
      assert(error.message.includes(known), `${name}: ${error.message} names ${known}`);
    }
    // The accumulator's real limit, misspelt as streamToolCalls' own typo case.
    const typo = thrown(() => new ToolCallAccumulatorStream({ maxArgumentLength: 10 } as never));
    assert(typo instanceof TypeError && typo.message.includes("maxArgumentsLength"), String(typo));
  });

  test("each stage takes its documented options, an option set to undefined and no options", () => {
    for (const [name, make, known] of STAGES) {
      assert(thrown(() => make({})) === undefined, `${name} with no options`);
      assert(thrown(() => make({ [known]: undefined })) === undefined, `${name} with ${known}: undefined`);
    }
    const given = [
      () => new SSEDecoderStream({ maxEventLength: 10, contentType: "text/event-stream" }),
      () => new AnthropicDeltaStream({ maxToolCalls: 1, maxArgumentsLength: 10, maxTextLength: 10 }),
      () => new OpenAIResponsesDeltaStream({ maxToolCalls: 1, reorderWindow: 4, builtInCalls: undefined }),
      () =>
        new ToolCallAccumulatorStream({
          maxArgumentsLength: 10,
          maxToolCalls: 1,
          maxDepth: 4,
          partialParser: undefined,
          repairer: undefined,
          validator: undefined,
          earlyValidator: undefined,
          unwrapper: undefined,
          turnBlocks: undefined,
          output: [],
        }),
      () => new OpenAIChatEncoderStream({ model: "m", id: "c", created: 1, includeUsage: true, generateId: () => "x" }),
    ];
    for (const make of given) assertEquals(thrown(make), undefined);
  });

  test("the client-protocol encoders take joinDeltas, as ToolCallEventEncoderStream does", async () => {
    const batch: ToolCallEvent[] = [
      { type: "tool-call-start", index: 0, id: "call_1", name: "f" },
      { type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta: '{"a"', closed: false },
      { type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta: ":1}", closed: true },
    ];
    /** How often `marker` appears in what `stage` writes for the batch. */
    const count = async (stage: TransformStream<readonly ToolCallEvent[], Uint8Array>, marker: string) => {
      const decoder = new TextDecoder();
      const chunks = await collect(fromChunks([batch]).pipeThrough(stage));
      return (
        chunks
          .map((chunk) => decoder.decode(chunk, { stream: true }))
          .join("")
          .split(marker).length - 1
      );
    };
    // Before, the client-protocol encoders dropped `joinDeltas`: a frame per fragment.
    const chat = '"function":{"arguments":"{';
    assertEquals(await count(new OpenAIChatEncoderStream({ model: "m" }), '"function":{"arguments":"'), 2);
    assertEquals(await count(new OpenAIChatEncoderStream({ model: "m", joinDeltas: true }), chat), 1);
    assertEquals(await count(new OpenAIChatEncoderStream({ model: "m", joinDeltas: true }), '"arguments":":1'), 0);
    assertEquals(await count(new UIMessageEncoderStream({}), "tool-input-delta"), 2);
    assertEquals(await count(new UIMessageEncoderStream({ joinDeltas: true }), "tool-input-delta"), 1);
    const messages = new AnthropicMessagesEncoderStream({ model: "m", joinDeltas: true });
    assertEquals(await count(messages, "input_json_delta"), 1);
  });
});
