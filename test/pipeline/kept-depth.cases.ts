// What the accumulator keeps for the next turn whole (a server tool's result block, a Gemini part,
// an OpenAI Responses item, a call's providerMetadata, a thinking model's reasoning_details) is
// bounded by `maxDepth` in the main entry's streamToolCalls, as a call's arguments are. `JSON.parse` reads a body nested 20,000 deep,
// and the chain streamed it; but the block was kept, and whoever wrote the next turn
// (`JSON.stringify(assistantMessage(...))`, an encoder, the Worker) overflowed the stack. Now such
// a value is dropped with an `error` of code `too-deep` naming what it was, and the rest of the
// stream (text, calls, finish) comes as before. The streams are built by hand in the shapes of
// each provider's cases in test/providers/ (their provenance is there); the deep values are
// written as text, since this test cannot `JSON.stringify` them either.
import {
  assistantMessage,
  streamToolCalls,
  type Provider,
  type ProviderProtocol,
  type ToolCallEvent,
} from "../../src/index.ts";
import { encodeMessage } from "../support/event-stream.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { assertFinished } from "../support/invariants.ts";
import { bytes, chatChunk, collect, fromChunks } from "../support/streams.ts";

/** Stands for the deep value in a payload, replaced by its text once the payload is written. */
const DEEP = "@deep@";
/** JSON text of an object nested `levels` deep. */
const deepText = (levels: number): string => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
/** A payload's JSON text with `DEEP` as a value 20,000 levels deep. */
const text = (payload: unknown, levels = 20_000): string =>
  JSON.stringify(payload).replace(`"${DEEP}"`, deepText(levels));
const sse = (payloads: unknown[], named = false): string =>
  payloads
    .map((p) => `${named ? `event: ${String((p as { type: unknown }).type)}\n` : ""}data: ${text(p)}\n\n`)
    .join("");

async function run(provider: Provider, body: string | Uint8Array, maxDepth?: number): Promise<ToolCallEvent[]> {
  const data = typeof body === "string" ? bytes(body) : body;
  return collect(streamToolCalls(fromChunks([data]), { provider, maxDepth }));
}

/** The too-deep errors' messages, the finish's text and calls, and that the next turn and the events can be written. */
function outcome(provider: Provider, events: ToolCallEvent[]): unknown[] {
  const finish = assertFinished(events);
  // Threw "Maximum call stack size exceeded" before the bound.
  JSON.stringify(assistantMessage(provider, finish));
  JSON.stringify(events);
  const errors = events.flatMap((e) => (e.type === "error" && e.error.code === "too-deep" ? [e.error.message] : []));
  return [errors, finish.text, finish.toolCalls.map((call) => call.name)];
}

const geminiTurn = (args: unknown) =>
  sse([
    { candidates: [{ content: { role: "model", parts: [{ text: "Searching." }] } }] },
    { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "f", args: { x: 1 } } }] } }] },
    {
      candidates: [
        { content: { role: "model", parts: [{ toolCall: { id: "tc_1", toolType: "GOOGLE_SEARCH_WEB", args } }] } },
      ],
    },
    { candidates: [{ content: { role: "model", parts: [{ text: " Done." }] }, finishReason: "STOP" }] },
  ]);

group("kept blocks bounded by maxDepth", (test) => {
  test("Gemini: a server toolCall part whose args nest 20,000 deep is dropped, named; text and the call stay", async () => {
    const events = await run("gemini", geminiTurn(DEEP));
    assertEquals(outcome("gemini", events), [
      ["The turn's block part nests deeper than maxDepth."],
      "Searching. Done.",
      ["f"],
    ]);
  });

  test("Gemini: the block is the first level, as a call's arguments object is", async () => {
    // toolCall part (1), toolCall (2), args (3), a (4).
    const body = geminiTurn({ a: {} });
    const kept = (events: ToolCallEvent[]) => assertFinished(events).reasoningParts?.length ?? 0;
    assertEquals([kept(await run("gemini", body, 4)), kept(await run("gemini", body, 3))], [1, 0]);
    // Arrays are levels too, their members read in place: a (4), its array (5), beside a wide array of numbers.
    const arrays = geminiTurn({ a: [[1, "x"]], wide: Array.from({ length: 1000 }, (_, i) => i) });
    assertEquals([kept(await run("gemini", arrays, 5)), kept(await run("gemini", arrays, 4))], [1, 0]);
  });

  test("Anthropic: a web_search_tool_result nested 20,000 deep is dropped; the search call and the answer stay", async () => {
    const start = (index: number, block: unknown) => ({ type: "content_block_start", index, content_block: block });
    const body = sse(
      [
        { type: "message_start", message: { id: "msg_d", type: "message", role: "assistant", content: [] } },
        start(0, { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "tides" } }),
        { type: "content_block_stop", index: 0 },
        start(1, { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: DEEP }),
        { type: "content_block_stop", index: 1 },
        start(2, { type: "text", text: "" }),
        { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "High at 6." } },
        { type: "content_block_stop", index: 2 },
        { type: "message_delta", delta: { stop_reason: "end_turn" } },
        { type: "message_stop" },
      ],
      true,
    );
    const events = await run("anthropic", body);
    assertEquals(outcome("anthropic", events), [
      ["The turn's block part nests deeper than maxDepth."],
      "High at 6.",
      ["web_search"],
    ]);
  });

  test("OpenAI Responses: a kept web_search_call item and a computer_call's item nested 20,000 deep", async () => {
    const done = (output_index: number, item: Record<string, unknown>) => ({
      type: "response.output_item.done",
      output_index,
      item,
    });
    const body = sse(
      [
        { type: "response.created", response: { id: "resp_d", status: "in_progress", output: [] } },
        done(0, { id: "ws_1", type: "web_search_call", status: "completed", action: { type: "search", query: DEEP } }),
        {
          type: "response.output_item.added",
          output_index: 1,
          item: { id: "cu_1", type: "computer_call", call_id: "call_cu", pending_safety_checks: DEEP },
        },
        { type: "response.output_text.delta", item_id: "msg_1", output_index: 2, delta: "Looking." },
        { type: "response.completed", response: { id: "resp_d", status: "completed", output: [] } },
      ].map((p, sequence_number) => ({ ...p, sequence_number })),
      true,
    );
    const [errors, said] = outcome("openai-responses", await run("openai-responses", body));
    assertEquals(
      [errors, said],
      [
        [
          "The turn's block part nests deeper than maxDepth.",
          "The turn's providerMetadata nests deeper than maxDepth.",
        ],
        "Looking.",
      ],
    );
  });

  test("Bedrock Converse: a server tool's toolResult json nested 20,000 deep is dropped; the answer stays", async () => {
    const message = (type: string, payload: unknown) =>
      encodeMessage(
        { ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
        text(payload),
      );
    const start = { toolResult: { toolUseId: "srvtool_1", type: "web_search_result", status: "success" } };
    const parts = [
      message("messageStart", { role: "assistant" }),
      message("contentBlockStart", { contentBlockIndex: 0, start }),
      message("contentBlockDelta", { contentBlockIndex: 0, delta: { toolResult: [{ json: DEEP }] } }),
      message("contentBlockStop", { contentBlockIndex: 0 }),
      message("contentBlockDelta", { contentBlockIndex: 1, delta: { text: "High tide at 14:05." } }),
      message("contentBlockStop", { contentBlockIndex: 1 }),
      message("messageStop", { stopReason: "end_turn" }),
    ];
    const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (body.set(p, at), at + p.length), 0);
    assertEquals(outcome("bedrock", await run("bedrock", body)), [
      ["The turn's block part nests deeper than maxDepth."],
      "High tide at 14:05.",
      [],
    ]);
  });

  test("Gemini Interactions: a built-in tool's result step nested 20,000 deep leaves the call without it", async () => {
    const event = (p: Record<string, unknown>) => `event: ${String(p["event_type"])}\ndata: ${text(p)}\n\n`;
    const body = [
      { event_type: "interaction.created", interaction: { id: "v1_d", status: "in_progress" } },
      { event_type: "step.start", index: 0, step: { id: "u1", type: "url_context_call", arguments: { urls: [] } } },
      { event_type: "step.stop", index: 0 },
      { event_type: "step.start", index: 1, step: { type: "url_context_result", call_id: "u1", result: DEEP } },
      { event_type: "step.stop", index: 1 },
      { event_type: "step.start", index: 2, step: { type: "model_output" } },
      { event_type: "step.delta", index: 2, delta: { type: "text", text: "Read it." } },
      { event_type: "step.stop", index: 2 },
      { event_type: "interaction.completed", interaction: { id: "v1_d", status: "completed" } },
    ]
      .map(event)
      .join("");
    assertEquals(outcome("gemini-interactions", await run("gemini-interactions", body)), [
      ["The turn's providerMetadata nests deeper than maxDepth."],
      "Read it.",
      ["url_context"],
    ]);
  });

  test("OpenAI Chat: reasoning_details nested 20,000 deep are dropped; the answer stays", async () => {
    const body = `${sse([
      chatChunk({
        role: "assistant",
        reasoning_details: [{ type: "reasoning.text", index: 0, text: "x", data: DEEP }],
      }),
      chatChunk({ content: "Hi." }),
      chatChunk({}, "stop"),
    ])}data: [DONE]\n\n`;
    assertEquals(outcome("openai", await run("openai", body)), [
      ["The turn's field part nests deeper than maxDepth."],
      "Hi.",
      [],
    ]);
  });

  // What an event carries of the provider's besides the kept blocks: an error's data (in the
  // stream, or an HTTP error's body), the usage's raw object, the finish's container.
  const tooDeep = (events: ToolCallEvent[]) =>
    events.flatMap((e) => (e.type === "error" && e.error.code === "too-deep" ? [e.error.message] : []));

  test("an in-stream error whose data nests 20,000 deep is given without it, named", async () => {
    const events = await run("openai", `${sse([chatChunk({ content: "Hi." }), { error: DEEP }])}data: [DONE]\n\n`);
    // Threw "Maximum call stack size exceeded" before the bound.
    JSON.stringify(events);
    assertEquals(tooDeep(events), ["The turn's error data nests deeper than maxDepth."]);
    const error = events.find((e) => e.type === "error" && e.error.code === "provider-error");
    assertEquals(error?.type === "error" && "data" in error.error, false);
    assertEquals(events.at(-1)?.type, "abort");
  });

  test("an HTTP error whose JSON body nests 10,000 deep (within the 64 KiB read) is given without its data", async () => {
    const response = new Response(deepText(10_000), { status: 500, headers: { "content-type": "application/json" } });
    const events = await collect(streamToolCalls(response, { provider: "openai" }));
    JSON.stringify(events);
    assertEquals(tooDeep(events), ["The turn's error data nests deeper than maxDepth."]);
    const last = events.at(-1);
    assert(last?.type === "abort" && last.error?.code === "http-error" && last.error.status === 500, "http-error");
    assertEquals("data" in last.error, false);
    // A shallow body keeps its data, as before.
    const shallow = await collect(
      streamToolCalls(new Response('{"error":{"a":{}}}', { status: 500 }), { provider: "openai" }),
    );
    const kept = shallow.at(-1);
    assertEquals(kept?.type === "abort" ? kept.error?.data : undefined, { error: { a: {} } });
  });

  test("a usage object nesting 20,000 deep: the counts stay, its raw object is left out", async () => {
    const body = `${sse([
      chatChunk({ content: "Hi." }),
      chatChunk({}, "stop", { usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, details: DEEP } }),
    ])}data: [DONE]\n\n`;
    const events = await run("openai", body);
    assertEquals(outcome("openai", events), [["The turn's usage nests deeper than maxDepth."], "Hi.", []]);
    const usage = assertFinished(events).usage;
    assertEquals([usage?.inputTokens, usage?.outputTokens, usage?.raw], [3, 2, undefined]);
  });

  // Gemini reports usage on every chunk: the first report is the `usage` event, the last the
  // finish's; those between reach no event, and are not read (a walk per chunk spared).
  test("Gemini's usage on every chunk: a deep report a later one replaces is no error; the last, deep, is left out", async () => {
    const chunk = (text: string, total: number, details: unknown, finishReason?: string) => ({
      candidates: [{ content: { parts: [{ text }], role: "model" }, index: 0, ...(finishReason && { finishReason }) }],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: total - 3, totalTokenCount: total, details },
    });
    const replaced = await run("gemini", sse([chunk("Hi", 4, 1), chunk(" there", 5, DEEP), chunk(".", 6, 1, "STOP")]));
    assertEquals(outcome("gemini", replaced), [[], "Hi there.", []]);
    const kept = assertFinished(replaced).usage;
    assertEquals([kept?.totalTokens, (kept?.raw as { details?: unknown } | undefined)?.details], [6, 1]);
    const last = await run("gemini", sse([chunk("Hi", 4, 1), chunk(".", 6, DEEP, "STOP")]));
    assertEquals(outcome("gemini", last), [["The turn's usage nests deeper than maxDepth."], "Hi.", []]);
    const usage = assertFinished(last).usage;
    assertEquals([usage?.totalTokens, usage?.raw], [6, undefined]);
    assertEquals(last.find((e) => e.type === "usage")?.type === "usage", true);
  });

  test("a protocol's finish whose container nests 20,000 deep is given without it", async () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    const protocol: ProviderProtocol = {
      name: "own",
      createDecoder: (emit) => ({
        decode: () => {
          emit({ type: "text-delta", text: "Ran it." });
          emit({ type: "finish", rawReason: "end", reason: "stop", container: { id: "c_1", deep } as never });
        },
        end: () => {},
      }),
    };
    const events = await collect(streamToolCalls(fromChunks([bytes("data: {}\n\n")]), { provider: protocol }));
    assertEquals(outcome("openai", events), [["The turn's container nests deeper than maxDepth."], "Ran it.", []]);
    assertEquals(assertFinished(events).container, undefined);
  });
});
