// Each provider subpath's streamToolCalls and streamToolCallBatches: the main entry's, bound to that provider.
import * as anthropic from "../../src/anthropic.ts";
import * as bedrock from "../../src/bedrock.ts";
import * as cohere from "../../src/cohere.ts";
import * as gemini from "../../src/gemini.ts";
import * as geminiInteractions from "../../src/gemini-interactions.ts";
import {
  JsonArrayDecoder,
  jsonText,
  NdjsonDecoder,
  repairJson,
  SSEDecoderStream,
  sdkChunks,
  ToolCallAccumulatorStream,
  toolCallTimings,
} from "../../src/core.ts";
import { type Provider, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import * as ollama from "../../src/ollama.ts";
import * as openai from "../../src/openai.ts";
import * as openaiResponses from "../../src/openai-responses.ts";
import { invokeChunks } from "../support/event-stream.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { chatChunk, collect, fromChunks, openAISSE, splitAt } from "../support/streams.ts";

const SUBPATHS: Record<Provider, Pick<typeof anthropic, "streamToolCalls" | "streamToolCallBatches">> = {
  openai,
  "openai-responses": openaiResponses,
  anthropic,
  gemini,
  bedrock,
  cohere,
  ollama,
  "gemini-interactions": geminiInteractions,
};

group("streamToolCalls per provider", (test) => {
  test("every recording: the subpath's streamToolCalls and streamToolCallBatches, given the repair plug-in, give the main entry's events", async () => {
    const seen = new Set<Provider>();
    for (const fixture of allFixtures) {
      const provider = supportedProvider(fixture);
      if (provider === undefined) continue;
      seen.add(provider);
      const chunks = () => fromChunks(splitAt(fixture.body, [7, 100, 1000]));
      const expected = await collect(streamToolCalls(chunks(), { provider, maxToolCalls: 64 }));
      const subpath = SUBPATHS[provider];
      const options = {
        maxToolCalls: 64,
        repair: repairJson,
        invokeModel: bedrock.AnthropicDecoder,
        // The main entry's plug-in, which keeps what recordings hold of it (a message's phase).
        builtInCalls: openaiResponses.ResponsesCitations,
      };
      assertEquals(await collect(subpath.streamToolCalls(chunks(), options)), expected, fixture.name);
      assertEquals((await collect(subpath.streamToolCallBatches(chunks(), options))).flat(), expected, fixture.name);
    }
    assert(seen.size > 0, "recordings were read");
  }).needs("recordings");

  test("a subpath's streamToolCalls reads its own protocol whatever the body looks like: no detection", async () => {
    // A body the detection would take for Chat Completions, read as Anthropic: nothing of it is Anthropic's.
    const body = new TextEncoder().encode('data: {"choices":[{"delta":{"content":"hi"}}]}\n\n');
    const events = await collect(anthropic.streamToolCalls(fromChunks([body])));
    assertEquals(
      events.map((event) => event.type),
      ["abort"],
    );
  });

  test("a subpath's streamToolCalls repairs only with the repair plug-in: without it, arguments that are not JSON are an invalid-tool-call saying what JSON.parse said", async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const body = () =>
      fromChunks([
        new TextEncoder().encode(
          chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: "{'city': 'Paris',}" } }] }) +
            chunk({}, "tool_calls") +
            "data: [DONE]\n\n",
        ),
      ]);
    const plain = await collect(openai.streamToolCalls(body()));
    const invalid = plain.find((event) => event.type === "invalid-tool-call");
    assert(invalid?.type === "invalid-tool-call" && invalid.error.code === "invalid-json", JSON.stringify(plain));
    let said = "";
    try {
      JSON.parse("{'city': 'Paris',}");
    } catch (error) {
      said = (error as Error).message;
    }
    assertEquals(invalid.error.message, `The tool arguments are not valid JSON: ${said}.`);
    const repaired = await collect(openai.streamToolCalls(body(), { repair: repairJson }));
    const call = repaired.find((event) => event.type === "tool-call");
    assert(call?.type === "tool-call", JSON.stringify(repaired));
    assertEquals(call.arguments, { city: "Paris" });
    assertEquals(call.repairs, ["single-quotes", "trailing-commas"]);
    let thrown: unknown;
    try {
      openai.streamToolCalls(body(), { repair: true });
    } catch (error) {
      thrown = error;
    }
    assert(thrown instanceof TypeError && thrown.message.includes("repairJson"), String(thrown));
  });

  test("a subpath's streamToolCalls times calls by its clock only with the toolCallTimings plug-in beside it", async () => {
    const body = () =>
      fromChunks([
        new TextEncoder().encode(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: "{}" } }] }, finish_reason: null }] })}\n\n` +
            `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] })}\n\ndata: [DONE]\n\n`,
        ),
      ]);
    let now = 10;
    const clock = () => now++;
    const events = await collect(openai.streamToolCalls(body(), { clock, toolCallTimings }));
    const call = events.find((event) => event.type === "tool-call");
    assert(call?.type === "tool-call", JSON.stringify(events));
    assertEquals([call.startedAt, call.completedAt], [10, 11]);
    let thrown: unknown;
    try {
      openai.streamToolCalls(body(), { clock });
    } catch (error) {
      thrown = error;
    }
    assert(thrown instanceof TypeError && thrown.message.includes("toolCallTimings"), String(thrown));
    // Without a clock, no step is needed and no times are given.
    const plain = (await collect(openai.streamToolCalls(body()))).find((event) => event.type === "tool-call");
    assert(plain?.type === "tool-call" && plain.startedAt === undefined, JSON.stringify(plain));
  });

  test("Bedrock's streamToolCalls reads InvokeModel's chunks only with the invokeModel plug-in: without it, an unknown-provider error at the first chunk", async () => {
    const body = () =>
      fromChunks([
        invokeChunks([
          { type: "message_start", message: { usage: { input_tokens: 9, output_tokens: 1 } } },
          {
            type: "content_block_start",
            index: 0,
            content_block: { type: "tool_use", id: "t1", name: "f", input: {} },
          },
          { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"a":1}' } },
          { type: "content_block_stop", index: 0 },
          { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 5 } },
          { type: "message_stop" },
        ]),
      ]);
    const plain = await collect(bedrock.streamToolCalls(body()));
    const error = plain.find((event) => event.type === "error");
    assert(error?.type === "error" && error.error.code === "unknown-provider", JSON.stringify(plain));
    assert(error.error.message.includes("invokeModel: AnthropicDecoder"), error.error.message);
    assertEquals(plain.at(-1)?.type, "abort");
    for (const read of [
      bedrock.streamToolCalls(body(), { invokeModel: bedrock.AnthropicDecoder }),
      streamToolCalls(body(), { provider: "bedrock" }),
    ]) {
      const finish = (await collect(read)).at(-1);
      assert(finish?.type === "finish", JSON.stringify(finish));
      assertEquals(
        finish.toolCalls.map((call) => [call.name, call.arguments]),
        [["f", { a: 1 }]],
      );
    }
  });

  test("an SDK's toReadableStream() NDJSON: a subpath reads it with the framing option, the main entry by itself; SSE as before", async () => {
    const chunk = (delta: object, finish: string | null = null) => ({
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const chunks = [
      chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: '{"a":1}' } }] }),
      chunk({}, "tool_calls"),
    ];
    const ndjson = () => fromChunks([new TextEncoder().encode(chunks.map((c) => `${JSON.stringify(c)}\n`).join(""))]);
    const sse = () =>
      fromChunks([
        new TextEncoder().encode(`${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("")}data: [DONE]\n\n`),
      ]);
    const calls = async (events: ReadableStream<{ type: string }>) =>
      (await collect(events)).filter((event) => event.type === "tool-call").length;
    assertEquals(await calls(openai.streamToolCalls(ndjson(), { framing: NdjsonDecoder })), 1);
    assertEquals(await calls(streamToolCalls(ndjson(), { provider: "openai" })), 1);
    assertEquals(await calls(openai.streamToolCalls(sse())), 1);
  });

  test("a JSON body where SSE is read (an SDK's NDJSON on a subpath, a JSON array on the main entry) ends with an unknown-provider error naming the framing to pass", async () => {
    const chunk = (delta: object, finish: string | null = null) => ({
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const chunks = [
      chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: '{"a":1}' } }] }),
      chunk({}, "tool_calls"),
    ];
    const ndjson = chunks.map((c) => `${JSON.stringify(c)}\n`).join("");
    const array = `[${chunks.map((c) => JSON.stringify(c)).join(",")}]`;
    // White space first, split anywhere: the first character that is not white space tells.
    const body = (text: string) => fromChunks(splitAt(new TextEncoder().encode(` \r\n${text}`), [1, 2, 5]));
    const cases: [ReadableStream<ToolCallEvent>, string][] = [
      [openai.streamToolCalls(body(ndjson)), "framing: NdjsonDecoder"],
      [openaiResponses.streamToolCalls(body(ndjson)), "framing: NdjsonDecoder"],
      [anthropic.streamToolCalls(body(ndjson)), "framing: NdjsonDecoder"],
      [streamToolCalls(body(array), { provider: "openai" }), "framing: JsonArrayDecoder"],
      [cohere.streamToolCalls(body(array)), "framing: JsonArrayDecoder"],
    ];
    for (const [read, pass] of cases) {
      const events = await collect(read);
      assertEquals(
        events.map((event) => event.type),
        ["error", "abort"],
        pass,
      );
      const [error, abort] = events;
      assert(error?.type === "error" && error.error.code === "unknown-provider", JSON.stringify(error));
      assert(error.error.message.includes(pass), error.error.message);
      assert(abort?.type === "abort" && abort.error?.code === "unknown-provider", JSON.stringify(abort));
    }
    // With the framing named, the same bodies are read.
    for (const read of [
      openai.streamToolCalls(body(ndjson), { framing: NdjsonDecoder }),
      streamToolCalls(body(array), { provider: "openai", framing: JsonArrayDecoder }),
    ]) {
      const finish = (await collect(read)).at(-1);
      assert(finish?.type === "finish" && finish.toolCalls.length === 1, JSON.stringify(finish));
    }
  });

  test("an SDK's chunks: a subpath reads them with the sdkChunks plug-in, the main entry by itself; without it, an unknown-provider error naming it", async () => {
    const chunks = [
      { choices: [{ index: 0, delta: { content: "hi" }, finish_reason: null }] },
      {
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: '{"a":1}' } }] },
            finish_reason: null,
          },
        ],
      },
      { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
    ];
    async function* sdk() {
      yield* chunks;
    }
    const objects = () =>
      new ReadableStream<object>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      });
    const expected = await collect(streamToolCalls(sdk(), { provider: "openai" }));
    assertEquals(expected.at(-1)?.type, "finish");
    for (const input of [sdk, () => chunks, objects]) {
      assertEquals(await collect(openai.streamToolCalls(input(), { sdkChunks })), expected);
      assertEquals((await collect(openai.streamToolCallBatches(input(), { sdkChunks }))).flat(), expected);
      const plain = await collect(openai.streamToolCalls(input()));
      assertEquals(
        plain.map((event) => event.type),
        ["error", "abort"],
      );
      const [error] = plain;
      assert(error?.type === "error" && error.error.code === "unknown-provider", JSON.stringify(error));
      assert(error.error.message.includes("sdkChunks"), error.error.message);
    }
  });

  test("OpenAI Chat's arguments given as objects (TGI): the subpath writes them by JSON.stringify, with the jsonText plug-in as the main entry does; only the plug-in keeps arguments 100,000 deep a too-deep call in every engine", async () => {
    // Arguments given as an object: their JSON text in the body where a string belongs.
    const body = (args: string) => () =>
      fromChunks([
        new TextEncoder().encode(
          openAISSE([
            chatChunk({ role: "assistant", content: "Hi" }),
            chatChunk({
              tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "f", arguments: "@" } }],
            }),
            chatChunk({}, "tool_calls"),
          ]).replace('"@"', args),
        ),
      ]);
    // The arguments' own text, as JSON.stringify and jsonText both write it.
    const plainArgs = body('{"city":"Paris","days":[1, 2],"__proto__":null,"\u2028":"\u00e9"}');
    const expected = await collect(streamToolCalls(plainArgs(), { provider: "openai" }));
    assertEquals(
      expected.flatMap((event) => (event.type === "tool-call" ? [event.rawArguments] : [])),
      ['{"city":"Paris","days":[1,2],"__proto__":null,"\u2028":"é"}'],
    );
    assertEquals(await collect(openai.streamToolCalls(plainArgs())), expected);
    assertEquals(await collect(openai.streamToolCalls(plainArgs(), { jsonText })), expected);
    assertEquals(
      await collect(
        plainArgs()
          .pipeThrough(new SSEDecoderStream())
          .pipeThrough(new openai.OpenAIChatDeltaStream())
          .pipeThrough(new ToolCallAccumulatorStream()),
      ),
      expected,
    );
    // 100,000 levels: JSON.stringify's recursion cannot write them, jsonText's stack can.
    const deepArgs = body(`${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`);
    const written = await collect(streamToolCalls(deepArgs(), { provider: "openai" }));
    assertEquals(
      written.map((event) => (event.type === "invalid-tool-call" ? event.error.code : event.type)),
      ["text-delta", "tool-call-start", "tool-call-delta", "too-deep", "finish"],
    );
    assertEquals(await collect(openai.streamToolCalls(deepArgs(), { jsonText })), written);
    // Without it, as deep as the engine's JSON.stringify recurses: the same call where it writes
    // them (workerd and Chromium do at this depth), else the stream ends (Node's overflows).
    const plain = await collect(openai.streamToolCalls(deepArgs()));
    if (plain.at(-1)?.type !== "finish") {
      assertEquals(
        plain.map((event) => event.type),
        ["text-delta", "error", "abort"],
      );
      const [, error] = plain;
      assert(error?.type === "error" && error.error.code === "malformed-payload", JSON.stringify(error));
    } else assertEquals(plain, written);
  });

  test("an SDK's chunks through a subpath: arguments given as objects are written as the JSON data they are", async () => {
    const chunks = [
      {
        candidates: [
          {
            content: {
              role: "model",
              parts: [{ functionCall: { name: "f", args: { city: "杭州", n: [1, { deep: null }] } } }],
            },
          },
        ],
      },
      { candidates: [{ content: { role: "model", parts: [] }, finishReason: "STOP" }] },
    ];
    async function* sdk() {
      yield* chunks;
    }
    for (const read of [gemini.streamToolCalls(sdk(), { sdkChunks }), streamToolCalls(sdk(), { provider: "gemini" })]) {
      const finish = (await collect(read)).at(-1);
      assert(finish?.type === "finish", JSON.stringify(finish));
      assertEquals(
        finish.toolCalls.map((call) => [call.name, call.rawArguments, call.arguments]),
        [["f", '{"city":"杭州","n":[1,{"deep":null}]}', { city: "杭州", n: [1, { deep: null }] }]],
      );
    }
  });
});
