// One record per provider (issue 23): every Provider has a kit with every piece, the dispatchers
// are lookups in it (never a fallback to another provider's shape), and each kit's own pieces
// make what the provider takes.
import {
  anthropicAssistantMessage,
  assistantMessage,
  bedrockAssistantMessage,
  cohereAssistantMessage,
  geminiModelContent,
  ollamaAssistantMessage,
  openAIChatAssistantMessage,
  createProviderDecoder,
  createProviderDeltaStream,
  PROVIDERS,
  ProviderDecoderStream,
  providerKit,
  providerProtocol,
  toolDefinitions,
  ToolCallStreamError,
  toolResultMessages,
  SSEDecoderStream,
  type AssistantTurn,
  type FramedMessage,
  type Provider,
  type ProviderDelta,
  type ProviderProtocol,
  type ToolResult,
} from "../../src/index.ts";
import { assert, assertEquals, group, thrown } from "../support/harness.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

const turn: AssistantTurn = {
  text: "Looking it up.",
  toolCalls: [
    { index: 0, id: "call_1", name: "get_weather", arguments: { city: "Oslo" }, rawArguments: '{"city":"Oslo"}' },
  ],
};
const results: ToolResult[] = [{ call: { id: "call_1", name: "get_weather" }, output: { celsius: 4 } }];
const weather = { name: "get_weather", description: "The weather in a city.", parameters: { type: "object" } };

group("Provider kits", (test) => {
  test("every Provider has a kit with every piece, named after it", () => {
    for (const provider of PROVIDERS) {
      const kit = providerKit(provider);
      assertEquals(kit.protocol.name, provider, `${provider}: the protocol's name`);
      assert(typeof kit.protocol.createDecoder === "function", `${provider}: a decoder factory`);
      assert(new kit.DeltaStream() instanceof ProviderDecoderStream, `${provider}: a stage`);
      assert(kit.conversationField !== "", `${provider}: a conversation field`);
      assertEquals(kit.toolDefinitions([]).length, 0, `${provider}: no tools, no definitions`);
      assert(kit.toolDefinitions([weather]).length === 1, `${provider}: one definition for one tool`);
      const message = kit.assistantMessage(turn);
      assert(Array.isArray(message) ? message.length > 0 : typeof message === "object", `${provider}: a turn`);
      assert(kit.toolResultMessages(results).length > 0, `${provider}: the results`);
    }
  });

  test("the dispatchers are lookups in the kit", () => {
    for (const provider of PROVIDERS) {
      const kit = providerKit(provider);
      assertEquals(providerProtocol(provider), kit.protocol, provider);
      // The stage reads with the protocol's decoder, plug-ins included (provider-delta-stream.cases.ts).
      assert(createProviderDeltaStream(provider) instanceof ProviderDecoderStream, `${provider}: a stage`);
      assertEquals(toolDefinitions(provider, [weather]), kit.toolDefinitions([weather]), provider);
      assertEquals(assistantMessage(provider, turn), kit.assistantMessage(turn), provider);
      assertEquals(toolResultMessages(provider, results), kit.toolResultMessages(results), provider);
      const deltas: ProviderDelta[] = [];
      const decoder = createProviderDecoder(provider, (delta) => deltas.push(delta));
      decoder.end();
      assertEquals(deltas, [], `${provider}: a decoder that saw nothing emits nothing at its end`);
    }
  });

  test("createProviderDeltaStream gives the stage the limits: a Gemini streamed call, Anthropic's citations, a protocol's decoder", async () => {
    /** The error the stage errors with on `sse`, or undefined. */
    const failure = (stage: TransformStream<FramedMessage, ProviderDelta>, sse: string): Promise<unknown> =>
      collect(
        fromChunks([bytes(sse)])
          .pipeThrough(new SSEDecoderStream())
          .pipeThrough(stage),
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
    const gemini = [
      { name: "f", willContinue: true },
      { partialArgs: [{ jsonPath: "$.s", stringValue: "0123456789".repeat(3) }] },
    ]
      .map(
        (functionCall) =>
          `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ functionCall }] } }] })}\n\n`,
      )
      .join("");
    const citation = {
      type: "char_location",
      cited_text: "x",
      document_index: 0,
      start_char_index: 0,
      end_char_index: 1,
    };
    const anthropic = [
      { type: "message_start", message: { id: "msg_l", type: "message", role: "assistant", content: [] } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "", citations: [] } },
      { type: "content_block_delta", index: 0, delta: { type: "citations_delta", citation } },
      { type: "content_block_delta", index: 0, delta: { type: "citations_delta", citation } },
    ]
      .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
      .join("");
    const codes = [];
    for (const [provider, sse, limits] of [
      ["gemini", gemini, { maxArgumentsLength: 16 }],
      ["anthropic", anthropic, { maxToolCalls: 1 }],
    ] as const) {
      const error = await failure(createProviderDeltaStream(provider, limits), sse);
      codes.push(error instanceof ToolCallStreamError ? error.code : String(error));
      // Without them, the defaults: the same stream reads.
      assertEquals(await failure(createProviderDeltaStream(provider), sse), undefined, provider);
    }
    assertEquals(codes, ["arguments-too-large", "too-many-tool-calls"]);
    const given: unknown[] = [];
    const protocol: ProviderProtocol = {
      name: "own",
      createDecoder: (_emit, limits) => (given.push(limits), { decode() {}, end() {} }),
    };
    await failure(createProviderDeltaStream(protocol, { maxToolCalls: 3 }), "data: {}\n\n");
    assertEquals(given, [{ maxToolCalls: 3 }]);
  });

  test("a turn with nothing: each builder gives its message with its content empty, each kit that must leaves it out", () => {
    const nothing: AssistantTurn = { text: "", reasoning: "Hmm.", toolCalls: [] };
    assertEquals(
      [
        anthropicAssistantMessage,
        bedrockAssistantMessage,
        cohereAssistantMessage,
        geminiModelContent,
        openAIChatAssistantMessage,
        ollamaAssistantMessage,
      ].map((build) => build(nothing)),
      [
        { role: "assistant", content: [] },
        { role: "assistant", content: [] },
        // It was { role: "assistant" }, its content left out, where every other builder gives it empty.
        { role: "assistant", content: "" },
        { role: "model", parts: [] },
        { role: "assistant", content: null },
        { role: "assistant", content: "", thinking: "Hmm." },
      ],
    );
    // Ollama takes an assistant message with empty content; every other provider refuses it (or has no message).
    assertEquals(Object.fromEntries(PROVIDERS.map((provider) => [provider, assistantMessage(provider, nothing)])), {
      openai: [],
      "openai-responses": [],
      anthropic: [],
      gemini: [],
      bedrock: [],
      cohere: [],
      ollama: { role: "assistant", content: "", thinking: "Hmm." },
      "gemini-interactions": [],
    });
  });

  test("a name that is not a Provider is unknown-provider everywhere, never the OpenAI shape", () => {
    const name = "openai-compatible" as Provider;
    for (const run of [
      () => providerKit(name),
      () => toolDefinitions(name, [weather]),
      () => assistantMessage(name, turn),
      () => toolResultMessages(name, results),
      () => createProviderDeltaStream(name),
    ]) {
      const error = thrown(run);
      assert(error instanceof ToolCallStreamError && error.code === "unknown-provider", String(error));
    }
  });

  test("each kit's tool definitions are its provider's shape; Gemini sends full JSON Schema as parametersJsonSchema", () => {
    const shapes: Record<Provider, unknown> = {
      openai: [{ type: "function", function: weather }],
      "openai-responses": [{ type: "function", ...weather }],
      anthropic: [{ name: weather.name, description: weather.description, input_schema: weather.parameters }],
      gemini: [{ functionDeclarations: [weather] }],
      bedrock: [
        {
          toolSpec: { name: weather.name, description: weather.description, inputSchema: { json: weather.parameters } },
        },
      ],
      cohere: [{ type: "function", function: weather }],
      ollama: [{ type: "function", function: weather }],
      "gemini-interactions": [{ type: "function", ...weather }],
    };
    for (const provider of PROVIDERS)
      assertEquals(providerKit(provider).toolDefinitions([weather]), shapes[provider], provider);
    assertEquals(
      providerKit("gemini").toolDefinitions([{ name: "f", parameters: { type: "object" }, jsonSchema: true }]),
      [{ functionDeclarations: [{ name: "f", parametersJsonSchema: { type: "object" } }] }],
    );
  });

  test("each kit names the field its conversation goes in", () => {
    assertEquals(Object.fromEntries(PROVIDERS.map((provider) => [provider, providerKit(provider).conversationField])), {
      openai: "messages",
      "openai-responses": "input",
      anthropic: "messages",
      gemini: "contents",
      bedrock: "messages",
      cohere: "messages",
      ollama: "messages",
      "gemini-interactions": "input",
    });
  });
});
