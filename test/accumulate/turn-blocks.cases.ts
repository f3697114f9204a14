// What only a turn of blocks holds (its order, approval requests, withdrawn calls, calls the
// provider ran alone) is the `turnBlocks` plug-in (issue 36's size budget): the protocols of such
// turns name it, OpenAI Chat's does not, and what does not know its protocol (the accumulator and
// its stream, a protocol of the application's own in the main entry and ToolCallChain) takes it by default.
//
// Provenance: the gateway's deltas and the Chat chunks are BUILT BY HAND (made-up ids and texts),
// in the shapes the decoders emit and OpenAI's chunks have.
import {
  type FinishEvent,
  type ProviderDelta,
  type ProviderProtocol,
  streamToolCalls,
  ToolCallAccumulator,
  ToolCallAccumulatorCore,
  ToolCallAccumulatorStream,
  ToolCallChain,
  type ToolCallEvent,
  type Provider,
  providerProtocol,
  turnBlocks,
} from "../../src/index.ts";
import * as openai from "../../src/openai.ts";
import { assertEquals, group } from "../support/harness.ts";
import { assertFinished } from "../support/invariants.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE } from "../support/streams.ts";

/** A call, text after it, a call the provider withdrew, an approval request: a turn of blocks. */
const BLOCKS: ProviderDelta[] = [
  { type: "tool-call-chunk", index: 0, id: "c0", name: "get_weather", argumentsDelta: '{"city":"Brest"}' },
  { type: "tool-call-end", index: 0 },
  { type: "text-delta", text: "Asked." },
  { type: "tool-call-chunk", index: 1, id: "c1", name: "get_weather", argumentsDelta: '{"ci' },
  { type: "tool-call-end", index: 1, withdrawn: true },
  { type: "approval-request", request: { id: "mcpr_1", name: "search", arguments: {}, rawArguments: "{}" } },
  { type: "finish", rawReason: "stop", reason: "stop" },
];

/** A gateway of the application's own whose SSE data are the deltas themselves. */
const gateway = (blocks?: ProviderProtocol["turnBlocks"]): ProviderProtocol => ({
  name: "acme-gateway",
  createDecoder: (emit) => ({ decode: (message) => emit(JSON.parse(message.data) as ProviderDelta), end() {} }),
  ...(blocks ? { turnBlocks: blocks } : {}),
});
const body = (): ReadableStream<Uint8Array> =>
  fromChunks([bytes(BLOCKS.map((delta) => `data: ${JSON.stringify(delta)}\n\n`).join(""))]);

/** What the finish and the events say of the turn's blocks. */
const blocksOf = (events: readonly ToolCallEvent[]): unknown[] => {
  const finish: FinishEvent = assertFinished(events);
  return [
    finish.reason,
    finish.order,
    finish.withdrawnToolCalls?.map((call) => [call.id, call.error.code]),
    finish.approvalRequests?.map((request) => request.id),
    events.filter((event) => event.type === "approval-request" || event.type === "invalid-tool-call").length,
  ];
};
const KEPT = [
  "approval",
  [
    { type: "tool-call", index: 0 },
    { type: "text", length: 6 },
    { type: "tool-call", index: 1 },
  ],
  [["c1", "withdrawn"]],
  ["mcpr_1"],
  2,
];
/** Without the plug-in: no order, no approval request, the withdrawn call closed and never completed. */
const DROPPED = ["tool-calls", undefined, undefined, undefined, 0];

const accumulate = (Accumulator: typeof ToolCallAccumulatorCore, options = {}): ToolCallEvent[] => {
  const events: ToolCallEvent[] = [];
  const accumulator = new Accumulator((event) => events.push(event), options);
  for (const delta of BLOCKS) accumulator.push(delta);
  accumulator.end();
  return events;
};

group("The turnBlocks plug-in", (test) => {
  test("the main entry and ToolCallChain give it to a protocol of the application's own", async () => {
    assertEquals(blocksOf(await collect(streamToolCalls(body(), { provider: gateway() }))), KEPT);
    const chained = (protocol: ProviderProtocol): ToolCallEvent[] => {
      const events: ToolCallEvent[] = [];
      const chain = new ToolCallChain(protocol, (event) => events.push(event));
      chain.feed(bytes(BLOCKS.map((delta) => `data: ${JSON.stringify(delta)}\n\n`).join("")));
      chain.end();
      return events;
    };
    assertEquals(blocksOf(chained(gateway(turnBlocks))), KEPT);
    // Before the plug-in, the chain kept them for every protocol: one that names none keeps them still.
    assertEquals(blocksOf(chained(gateway())), KEPT);
  });

  test("ToolCallAccumulator and ToolCallAccumulatorStream take it by default, ToolCallAccumulatorCore only when given", async () => {
    assertEquals(blocksOf(accumulate(ToolCallAccumulator)), KEPT);
    assertEquals(blocksOf(accumulate(ToolCallAccumulator, { turnBlocks: undefined })), DROPPED);
    assertEquals(blocksOf(accumulate(ToolCallAccumulatorCore)), DROPPED);
    assertEquals(blocksOf(accumulate(ToolCallAccumulatorCore, { turnBlocks })), KEPT);
    const deltas = new ReadableStream<ProviderDelta>({
      start(controller) {
        for (const delta of BLOCKS) controller.enqueue(delta);
        controller.close();
      },
    });
    assertEquals(blocksOf(await collect(deltas.pipeThrough(new ToolCallAccumulatorStream()))), KEPT);
  });

  test("OpenAI Chat's protocol names none: text after its calls gives no order, from its subpath or the main entry", async () => {
    const sse = openAISSE([
      chatChunk({
        tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }],
      }),
      chatChunk({ content: "Done." }, "tool_calls"),
    ]);
    for (const events of [
      await collect(openai.streamToolCalls(fromChunks([bytes(sse)]))),
      await collect(streamToolCalls(fromChunks([bytes(sse)]), { provider: "openai" })),
    ]) {
      const finish = assertFinished(events);
      assertEquals(
        [finish.reason, finish.text, finish.toolCalls.length, finish.order],
        ["tool-calls", "Done.", 1, undefined],
      );
    }
  });
});

/** Pieces of turns of blocks, each with the protocols whose decoders make it (hand-built, in the decoders' shapes). */
const PIECES: { what: string; deltas: ProviderDelta[]; providers: Provider[] }[] = [
  {
    what: "a turn out of the usual order",
    deltas: [
      { type: "text-delta", text: "Looking." },
      { type: "tool-call-chunk", index: 0, id: "c0", name: "get_weather", argumentsDelta: '{"city":"Brest"}' },
      { type: "reasoning-part", part: { type: "signed", text: "", signature: "s1" } },
      { type: "text-delta", text: "Asked." },
      { type: "finish", rawReason: "stop", reason: "stop" },
    ],
    providers: ["anthropic", "openai-responses", "gemini", "bedrock", "gemini-interactions"],
  },
  {
    what: "a call the provider ran alone",
    deltas: [
      { type: "tool-call-chunk", index: 0, id: "s0", name: "web_search", argumentsDelta: "{}", providerExecuted: true },
      { type: "tool-call-end", index: 0 },
      { type: "finish", rawReason: "tool_use", reason: "tool-calls" },
    ],
    providers: ["anthropic", "openai-responses", "bedrock", "gemini-interactions"],
  },
  {
    what: "a withdrawn call",
    deltas: [
      { type: "tool-call-chunk", index: 0, id: "c1", name: "get_weather", argumentsDelta: '{"ci' },
      { type: "tool-call-end", index: 0, withdrawn: true },
      { type: "finish", rawReason: "end_turn", reason: "stop" },
    ],
    providers: ["anthropic", "bedrock"],
  },
  { what: "an approval request", deltas: BLOCKS.slice(5), providers: ["openai-responses"] },
];

group("The turnBlocks of each built-in protocol", (test) => {
  test("keeps what its decoder makes as the whole plug-in does (each names only the parts it needs)", () => {
    const run = (deltas: ProviderDelta[], blocks: ProviderProtocol["turnBlocks"]): ToolCallEvent[] => {
      const events: ToolCallEvent[] = [];
      const accumulator = new ToolCallAccumulatorCore((event) => events.push(event), { turnBlocks: blocks });
      for (const delta of deltas) accumulator.push(delta);
      accumulator.end();
      return events;
    };
    for (const { what, deltas, providers } of PIECES) {
      const whole = run(deltas, turnBlocks);
      // Each piece changes the finish: without the plug-in it would not be kept.
      assertEquals(JSON.stringify(run(deltas, undefined)) === JSON.stringify(whole), false, what);
      for (const provider of providers)
        assertEquals(run(deltas, providerProtocol(provider).turnBlocks), whole, `${what}: ${provider}`);
    }
  });
});
