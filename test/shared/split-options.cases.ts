// The chain's options split per stage: the framing gets its own (`maxEventLength`, `contentType`),
// the decoder the limits, the accumulator its own, so the cores of each stage check their names
// like the stages do (`new SSEDecoder(onMessage, { maxArgumentsLength })` is a TypeError naming
// it; so are the other protocols' decoders, given the limits alone), and the combined constructors
// (`ToolCallChain`, `streamToolCalls`, `BedrockDeltaStream` with its `converseCitations`) keep
// taking every option and check their own union. Before, the chain handed every stage its whole
// options, so those cores could not check.
import * as bedrock from "../../src/bedrock.ts";
import {
  AnthropicDecoder,
  AwsEventStreamDecoder,
  BedrockDecoder,
  GeminiDecoder,
  JsonArrayDecoder,
  NdjsonDecoder,
  OpenAIResponsesDecoder,
  type ProviderProtocol,
  providerProtocol,
  repairJson,
  SSEDecoder,
  streamToolCalls,
  ToolCallAccumulatorCore,
  ToolCallChain,
  type ToolCallChainOptions,
  type ToolCallEvent,
  turnBlocks,
} from "../../src/index.ts";
import { AnthropicCitingDecoder } from "../../src/anthropic.ts";
import { GeminiInteractionsDecoder } from "../../src/gemini-interactions.ts";
import { anthropicSse } from "../providers/anthropic/turn-blocks-recordings.ts";
import { invokeChunks } from "../support/event-stream.ts";
import { assert, assertEquals, group, thrown } from "../support/harness.ts";
import { assertFinished } from "../support/invariants.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

/** Each core made with the options given, an option of another stage, and one of its own it names. */
const CORES: readonly [string, (options: object) => unknown, string, string][] = [
  ["SSEDecoder", (o) => new SSEDecoder(() => {}, o), "maxArgumentsLength", "maxEventLength"],
  ["AwsEventStreamDecoder", (o) => new AwsEventStreamDecoder(() => {}, o), "maxToolCalls", "maxEventLength"],
  ["NdjsonDecoder", (o) => new NdjsonDecoder(() => {}, o), "repairer", "maxEventLength"],
  ["JsonArrayDecoder", (o) => new JsonArrayDecoder(() => {}, o), "maxDepth", "maxEventLength"],
  ["AnthropicDecoder", (o) => new AnthropicDecoder(() => {}, o), "maxEventLength", "maxToolCalls"],
  ["AnthropicCitingDecoder", (o) => new AnthropicCitingDecoder(() => {}, o), "contentType", "maxArgumentsLength"],
  ["ToolCallAccumulatorCore", (o) => new ToolCallAccumulatorCore(() => {}, o), "maxEventLength", "turnBlocks"],
  ["GeminiDecoder", (o) => new GeminiDecoder(() => {}, o), "maxEventLength", "maxArgumentsLength"],
  ["GeminiInteractionsDecoder", (o) => new GeminiInteractionsDecoder(() => {}, o), "repairer", "maxToolCalls"],
  ["BedrockDecoder", (o) => new BedrockDecoder(() => {}, undefined, o), "contentType", "maxTextLength"],
  ["OpenAIResponsesDecoder", (o) => new OpenAIResponsesDecoder(() => {}, o), "maxDepth", "reorderWindow"],
];

/** One tool call, `get_weather({"city":"Paris"})`, in Anthropic's events. */
const CALL_SSE = anthropicSse(
  { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], usage: {} } },
  {
    type: "content_block_start",
    index: 0,
    content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} },
  },
  { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"city":"Paris"}' } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "tool_use" } },
  { type: "message_stop" },
);

/** Every limit of the chain at once: each stage must get its own and only those. */
const LIMITS = { maxEventLength: 4096, maxArgumentsLength: 100, maxToolCalls: 4, maxDepth: 8 };

const calls = (events: readonly ToolCallEvent[]) => assertFinished(events).toolCalls.map((call) => call.arguments);

group("each stage's options, split from the chain's", (test) => {
  test("the framings', the decoders' and the accumulator's cores refuse another stage's option, naming it and their own", () => {
    for (const [name, make, other, own] of CORES) {
      const error = thrown(() => make({ [other]: 10 }));
      assert(error instanceof TypeError, `${name} with ${other}: ${String(error)}`);
      assert(error.message.includes(`\`${other}\``) && error.message.includes(own), `${name}: ${error.message}`);
      assertEquals(
        thrown(() => make({})),
        undefined,
        `${name} with no options`,
      );
      assertEquals(
        thrown(() => make({ [own]: undefined })),
        undefined,
        `${name} with ${own}: undefined`,
      );
    }
    // The accumulator stage's `output` is no option of the core, which has no steps.
    const output = thrown(() => new ToolCallAccumulatorCore(() => {}, { output: [] } as never));
    assert(output instanceof TypeError && output.message.includes("`output`"), String(output));
  });

  test("ToolCallChain takes every stage's options, gives each its own, and refuses a name none has", () => {
    const events: ToolCallEvent[] = [];
    let stopped = false;
    const chain = new ToolCallChain(providerProtocol("anthropic"), (event) => events.push(event), {
      ...LIMITS,
      contentType: "text/event-stream",
      repairer: repairJson,
      steps: [],
      onStop: () => (stopped = true),
    });
    chain.feed(bytes(CALL_SSE));
    chain.end();
    assertEquals(calls(events), [{ city: "Paris" }]);
    assert(!stopped, "the chain ended normally");
    // Each limit still reaches its stage: the framing's and the accumulator's...
    const firstError = (options: ToolCallChainOptions): string | undefined => {
      const chained: ToolCallEvent[] = [];
      const one = new ToolCallChain(providerProtocol("anthropic"), (event) => chained.push(event), options);
      one.feed(bytes(CALL_SSE));
      one.end();
      const error = chained.find((event) => event.type === "error");
      return error?.type === "error" ? error.error.code : undefined;
    };
    assertEquals(firstError({ maxEventLength: 40 }), "event-too-large");
    assertEquals(firstError({ maxArgumentsLength: 5 }), "arguments-too-large");
    // ... and the decoder's, maxTextLength among them (a protocol's own decoder reads it).
    let given: Parameters<ProviderProtocol["createDecoder"]>[1];
    const own: ProviderProtocol = {
      name: "own",
      createDecoder: (emit, limits) => ((given = limits), providerProtocol("anthropic").createDecoder(emit, limits)),
    };
    new ToolCallChain(own, () => {}, { maxTextLength: 10, maxToolCalls: 2, maxArgumentsLength: 5 });
    assertEquals(given, { maxTextLength: 10, maxToolCalls: 2, maxArgumentsLength: 5 });
    const typo = thrown(
      () => new ToolCallChain(providerProtocol("anthropic"), () => {}, { maxArgumentLength: 5 } as never),
    );
    assert(typo instanceof TypeError && typo.message.includes("`maxArgumentLength`"), String(typo));
    assert(typo.message.includes("maxEventLength") && typo.message.includes("steps"), typo.message);
  });

  test("ToolCallAccumulatorCore takes the accumulator's options and the turnBlocks plug-in", () => {
    const events: ToolCallEvent[] = [];
    const core = new ToolCallAccumulatorCore((event) => events.push(event), { turnBlocks, maxArgumentsLength: 100 });
    core.push({ type: "tool-call-chunk", index: 0, id: "c1", name: "f", argumentsDelta: "{}" });
    core.push({ type: "tool-call-end", index: 0 });
    core.push({ type: "finish", rawReason: "tool_use", reason: "tool-calls" });
    core.end();
    assertEquals(calls(events), [{}]);
  });

  test("streamToolCalls gives each stage its own: the main entry, Anthropic's subpath, Bedrock's InvokeModel", async () => {
    const options = { ...LIMITS, maxTextLength: 1000 };
    const main = await collect(streamToolCalls(fromChunks([bytes(CALL_SSE)]), { provider: "anthropic", ...options }));
    assertEquals(calls(main), [{ city: "Paris" }]);
    const detected = await collect(streamToolCalls(fromChunks([bytes(CALL_SSE)]), options));
    assertEquals(calls(detected), [{ city: "Paris" }]);
    const invoke = invokeChunks(
      CALL_SSE.split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>),
    );
    for (const invokeModel of [bedrock.AnthropicDecoder, bedrock.AnthropicCitingDecoder]) {
      const read = await collect(bedrock.streamToolCalls(fromChunks([invoke]), { invokeModel, ...LIMITS }));
      assertEquals(calls(read), [{ city: "Paris" }], invokeModel.name);
    }
    // The stage hands its decoder the limits without its own plug-in.
    const staged = await collect(
      fromChunks([invoke])
        .pipeThrough(new bedrock.AwsEventStreamDecoderStream())
        .pipeThrough(new bedrock.BedrockDeltaStream({ maxToolCalls: 4, converseCitations: bedrock.ConverseCitations }))
        .pipeThrough(new bedrock.ToolCallAccumulatorStream()),
    );
    assertEquals(calls(staged), [{ city: "Paris" }]);
  });
});
