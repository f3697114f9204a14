// Each kit's request body (issue 23: the request a server sends a provider, built once in the
// library for the Worker and any server): the conversation lands in the kit's conversation field,
// and what a provider cannot be sent is a typed invalid-request error naming the field.
import {
  PROVIDERS,
  providerKit,
  ToolCallStreamError,
  type Provider,
  type ProviderRequest,
  type RequestMessage,
} from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

const weather = { name: "get_weather", description: "Weather", parameters: { type: "object" } };

/** A second turn: the model called get_weather (with or without an id), and the result follows. */
function secondTurn(id: string | null, extra: Partial<ProviderRequest> = {}): ProviderRequest {
  const messages: RequestMessage[] = [
    { role: "system", content: "Be brief." },
    { role: "user", content: "Weather in Paris?" },
    { role: "assistant", content: "", toolCalls: [{ id, name: "get_weather", arguments: { city: "Paris" } }] },
    id === null
      ? { role: "tool", name: "get_weather", content: '{"celsius":18}' }
      : { role: "tool", toolCallId: id, content: '{"celsius":18}' },
  ];
  return { model: "m-1", messages, tools: [weather], ...extra };
}

/** The invalid-request error `run` throws: its field and message. */
function invalid(run: () => unknown): { path: string | undefined; message: string } | undefined {
  try {
    run();
  } catch (error) {
    assert(error instanceof ToolCallStreamError && error.code === "invalid-request", String(error));
    return { path: error.info.path, message: error.message };
  }
  return undefined;
}

group("Provider kits: request bodies", (test) => {
  test("every kit's body holds the conversation in its conversation field, and the tools as its definitions", () => {
    for (const provider of PROVIDERS) {
      const kit = providerKit(provider);
      const body = kit.requestBody(secondTurn("call_1"));
      const conversation = body[kit.conversationField];
      assert(Array.isArray(conversation) && conversation.length >= 2, `${provider}: ${kit.conversationField}`);
      assert(JSON.stringify(body).includes('"get_weather"'), `${provider}: the tool and the call`);
      assertEquals(JSON.parse(JSON.stringify(body)), body, `${provider}: the body is JSON`);
    }
  });

  test("a call without an id is invalid-request naming it, where the provider correlates results by id", () => {
    const byId: Record<Provider, boolean> = {
      openai: true,
      "openai-responses": true,
      anthropic: true,
      bedrock: true,
      cohere: true,
      gemini: false,
      ollama: false,
      "gemini-interactions": true,
    };
    for (const provider of PROVIDERS) {
      const error = invalid(() => providerKit(provider).requestBody(secondTurn(null)));
      if (byId[provider])
        assertEquals(
          error,
          { path: "messages[2].tool_calls[0].id", message: "This provider needs the id of every earlier tool call." },
          provider,
        );
      else assertEquals(error, undefined, provider);
    }
  });

  test("what a provider cannot express is invalid-request naming the field", () => {
    assertEquals(
      invalid(() => providerKit("ollama").requestBody(secondTurn("c", { toolChoice: { type: "required" } }))),
      { path: "tool_choice", message: 'Ollama cannot be made to call a tool; use "auto" or "none".' },
    );
    assertEquals(
      invalid(() => providerKit("anthropic").requestBody(secondTurn("c", { temperature: 1.5 })))?.path,
      "temperature",
    );
    assertEquals(invalid(() => providerKit("bedrock").requestBody(secondTurn("c", { tools: [] })))?.path, "tools");
    const orphan: ProviderRequest = {
      model: "m",
      tools: [],
      messages: [{ role: "tool", toolCallId: "x", content: "1" }],
    };
    assertEquals(invalid(() => providerKit("gemini").requestBody(orphan))?.path, "messages[0].name");
  });

  test("the tools: Gemini's JSON Schema as parametersJsonSchema, Responses' not strict, Cohere's named choice offers that tool alone", () => {
    const gemini = providerKit("gemini").requestBody(secondTurn("c", { tools: [{ ...weather, jsonSchema: true }] }));
    assertEquals(gemini["tools"], [
      {
        functionDeclarations: [
          { name: "get_weather", description: "Weather", parametersJsonSchema: { type: "object" } },
        ],
      },
    ]);
    const responses = providerKit("openai-responses").requestBody(secondTurn("c"));
    assertEquals(responses["tools"], [{ type: "function", ...weather, strict: false }]);
    // `store` is OpenAI Responses' alone: passed on when given, never sent to another provider.
    assertEquals(responses["store"], undefined);
    assertEquals(providerKit("openai-responses").requestBody(secondTurn("c", { store: false }))["store"], false);
    assertEquals(providerKit("openai").requestBody(secondTurn("c", { store: false }))["store"], undefined);
    const cohere = providerKit("cohere").requestBody(
      secondTurn("c", {
        tools: [weather, { name: "other", parameters: {} }],
        toolChoice: { type: "tool", name: "get_weather" },
      }),
    );
    assertEquals([cohere["tools"], cohere["tool_choice"]], [[{ type: "function", function: weather }], "REQUIRED"]);
  });

  test("OpenAI Responses: a custom tool, its free-text call and its result go as custom_tool_call items, its choice as custom", () => {
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+say "hi"\n*** End Patch';
    const custom = {
      type: "custom",
      name: "apply_patch",
      format: { type: "grammar", syntax: "lark", definition: "start: /.+/" },
    };
    const body = providerKit("openai-responses").requestBody({
      model: "m",
      tools: [{ name: "apply_patch", parameters: { type: "object" }, openAIResponsesTool: custom }],
      toolChoice: { type: "tool", name: "apply_patch" },
      messages: [
        { role: "user", content: "Add a.txt." },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", name: "apply_patch", arguments: patch, inputFormat: "text" }],
        },
        { role: "tool", toolCallId: "c1", content: "Done." },
      ],
    });
    assertEquals(body["tools"], [custom]);
    assertEquals(body["tool_choice"], { type: "custom", name: "apply_patch" });
    assertEquals((body["input"] as unknown[]).slice(1), [
      { type: "custom_tool_call", call_id: "c1", name: "apply_patch", input: patch },
      { type: "custom_tool_call_output", call_id: "c1", output: "Done." },
    ]);
  });

  test("OpenAI Responses: a call marked free text whose arguments are no text goes back as a function call, its result as a function_call_output", () => {
    // The pair must match: OpenAI refuses an output whose call_id names no call of its type.
    const body = providerKit("openai-responses").requestBody({
      model: "m",
      tools: [{ name: "lookup", parameters: { type: "object" } }],
      messages: [
        { role: "user", content: "Look it up." },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", name: "lookup", arguments: {}, inputFormat: "text" }],
        },
        { role: "tool", toolCallId: "c1", content: "Found." },
      ],
    });
    assertEquals((body["input"] as unknown[]).slice(1), [
      { type: "function_call", call_id: "c1", name: "lookup", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "Found." },
    ]);
  });
});
