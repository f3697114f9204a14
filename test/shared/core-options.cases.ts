// The option names of what the stage constructors did not check: the stages that took no argument
// (the provider stages among them now take the limits every provider stage takes, as the kits'
// `new kit.DeltaStream(limits)` says), and the non-stream cores an app drives itself (the
// accumulator, the tool runner, the encoders and the readers of a whole answer). A name they do not know, a typo from JavaScript or a stage's own
// option (`joinDeltas`, `output`), is a TypeError naming it, as the stages say it: before, each
// ignored it and left the default in force.
import {
  AGUIEncoder,
  AnthropicMessagesEncoder,
  CohereDeltaStream,
  type EncodableEvent,
  GeminiInteractionsDeltaStream,
  OllamaDeltaStream,
  OpenAIChatCompletionBuilder,
  OpenAIChatEncoder,
  OpenAIResponsesEncoder,
  ProviderDetectStream,
  readAnthropicMessage,
  readOpenAIChatCompletion,
  readOpenAIResponse,
  ToolCallAccumulator,
  ToolCallEventDecoderStream,
  ToolCallEventEncoder,
  UIMessageEncoder,
} from "../../src/index.ts";
import { ToolRunner } from "../../src/tools.ts";
import { assert, assertEquals, group, rejection, thrown } from "../support/harness.ts";
import { fromChunks } from "../support/streams.ts";

/** The provider stages that took no argument: each takes the provider stages' limits now (`new kit.DeltaStream(limits)`). */
const LIMITED: readonly [string, (limits: object | undefined) => unknown][] = [
  ["CohereDeltaStream", (o) => new CohereDeltaStream(o)],
  ["OllamaDeltaStream", (o) => new OllamaDeltaStream(o)],
  ["GeminiInteractionsDeltaStream", (o) => new GeminiInteractionsDeltaStream(o)],
  ["ProviderDetectStream", (o) => new ProviderDetectStream(o)],
];

/** Each core made with the options given, and an option name it has. */
const CORES: readonly [string, (options: object) => unknown, string][] = [
  ["ToolCallAccumulator", (o) => new ToolCallAccumulator(() => {}, o), "maxArgumentsLength"],
  ["ToolRunner", (o) => new ToolRunner(() => {}, { tools: {}, ...o }), "maxResultBytes"],
  ["OpenAIChatEncoder", (o) => new OpenAIChatEncoder({ model: "m", ...o }), "includeUsage"],
  ["OpenAIChatCompletionBuilder", (o) => new OpenAIChatCompletionBuilder({ model: "m", ...o }), "maxTextLength"],
  ["UIMessageEncoder", (o) => new UIMessageEncoder(o), "messageId"],
  ["AGUIEncoder", (o) => new AGUIEncoder({ threadId: "t", runId: "r", ...o }), "threadId"],
  ["AnthropicMessagesEncoder", (o) => new AnthropicMessagesEncoder({ model: "m", ...o }), "model"],
  ["OpenAIResponsesEncoder", (o) => new OpenAIResponsesEncoder({ model: "m", ...o }), "builtInTools"],
  ["ToolCallEventEncoder", (o) => new ToolCallEventEncoder(o), "firstId"],
];

const finish: EncodableEvent = {
  type: "finish",
  reason: "stop",
  rawReason: "stop",
  toolCalls: [],
  invalidToolCalls: [],
  text: "",
  reasoning: "",
};

group("option names of the cores and the stages without options", (test) => {
  test("the provider stages that took no argument refuse a misspelt limit, naming it and the limits", () => {
    for (const [name, make] of LIMITED) {
      const error = thrown(() => make({ maxToolCall: 4 }));
      assert(error instanceof TypeError, `${name}: ${String(error)}`);
      assert(
        error.message.includes("`maxToolCall`") && error.message.includes("maxToolCalls"),
        `${name}: ${error.message}`,
      );
      for (const limits of [undefined, {}, { maxToolCalls: 4, maxArgumentsLength: 10, maxTextLength: 10 }])
        assertEquals(
          thrown(() => make(limits)),
          undefined,
          `${name} with ${JSON.stringify(limits)}`,
        );
    }
  });

  test("ToolCallEventDecoderStream takes no options: any name is a TypeError saying so", () => {
    const error = thrown(() => new ToolCallEventDecoderStream({ firstId: 4 } as never));
    assert(error instanceof TypeError, String(error));
    assert(error.message.includes("`firstId`") && error.message.includes("no options"), error.message);
    assertEquals(
      thrown(() => new ToolCallEventDecoderStream()),
      undefined,
    );
    assertEquals(
      thrown(() => new ToolCallEventDecoderStream({})),
      undefined,
    );
  });

  test("a core refuses a misspelt option or a stage's own, naming it and its options", () => {
    for (const [name, make, known] of CORES) {
      for (const wrong of ["maxArgumentBytes", "joinDeltas"]) {
        const error = thrown(() => make({ [wrong]: 10 }));
        assert(error instanceof TypeError, `${name} with ${wrong}: ${String(error)}`);
        assert(error.message.includes(`\`${wrong}\``), `${name}: ${error.message}`);
        assert(error.message.includes(known), `${name}: ${error.message} names ${known}`);
      }
      assertEquals(
        thrown(() => make({})),
        undefined,
        `${name} with no options`,
      );
      assertEquals(
        thrown(() => make({ [known]: undefined })),
        undefined,
        `${name} with ${known}: undefined`,
      );
    }
    // The accumulator stage's `output` is no option of the core, which has no steps.
    const output = thrown(() => new ToolCallAccumulator(() => {}, { output: [] } as never));
    assert(output instanceof TypeError && output.message.includes("`output`"), String(output));
  });

  test("the readers of a whole answer refuse a misspelt option before they read", async () => {
    const readers: [string, (events: ReadableStream<EncodableEvent>, options: object) => Promise<unknown>][] = [
      ["readOpenAIResponse", (events, o) => readOpenAIResponse(events, { model: "m", ...o })],
      ["readAnthropicMessage", (events, o) => readAnthropicMessage(events, { model: "m", ...o })],
      ["readOpenAIChatCompletion", (events, o) => readOpenAIChatCompletion(events, { model: "m", ...o })],
    ];
    for (const [name, read] of readers) {
      const error = await rejection(() => read(fromChunks([finish]), { maxTextLenght: 10 }));
      assert(error instanceof TypeError, `${name}: ${String(error)}`);
      assert(error.message.includes("`maxTextLenght`") && error.message.includes("maxTextLength"), error.message);
      assertEquals(await rejection(() => read(fromChunks([finish]), { maxTextLength: 10 })), undefined, name);
    }
  });
});
