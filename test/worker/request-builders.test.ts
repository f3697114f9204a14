import { describe, expect, it } from "vitest";
import { buildAnthropicRequest } from "../../worker/upstream/providers/anthropic.ts";
import { buildGeminiRequest } from "../../worker/upstream/providers/gemini.ts";
import { buildOpenAIChatRequest } from "../../worker/upstream/providers/openai-chat.ts";
import { buildOpenAIResponsesRequest } from "../../worker/upstream/providers/openai-responses.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import type { StreamRequest } from "../../worker/request/stream-request.ts";

const providers = ["openai", "anthropic", "gemini", "openai-responses"];

/** A second turn: the model called get_weather, the client ran it and sends the result. */
function secondTurn(provider: string, overrides: Record<string, unknown> = {}): StreamRequest {
  return parseStreamRequest(
    {
      provider,
      model: "m-1",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris and Rome?" },
        {
          role: "assistant",
          content: "Checking.",
          tool_calls: [
            {
              index: 0,
              id: "call_1",
              name: "get_weather",
              arguments: { city: "Paris" },
              rawArguments: '{"city":"Paris"}',
              providerMetadata: { thoughtSignature: "sig==" },
            },
            { id: "call_2", name: "get_weather", arguments: { city: "Rome" } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: '{"celsius":18}' },
        { role: "tool", tool_call_id: "call_2", content: "sunny" },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Weather",
            parameters: { type: "object", properties: { city: { type: "string" } } },
          },
        },
      ],
      tool_choice: "required",
      max_tokens: 300,
      temperature: 0.5,
      ...overrides,
    },
    providers,
  );
}
const target = { baseUrl: "https://api.example/v1", apiKey: "KEY" };

describe("request builders", () => {
  it("OpenAI Chat: messages as they are, calls with JSON-text arguments, usage requested", () => {
    const http = buildOpenAIChatRequest(secondTurn("openai"), target);
    expect(http.url).toBe("https://api.example/v1/chat/completions");
    expect(http.headers["authorization"]).toBe("Bearer KEY");
    expect(http.body).toEqual({
      model: "m-1",
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris and Rome?" },
        {
          role: "assistant",
          content: "Checking.",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
            { id: "call_2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: '{"celsius":18}' },
        { role: "tool", tool_call_id: "call_2", content: "sunny" },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Weather",
            parameters: { type: "object", properties: { city: { type: "string" } } },
          },
        },
      ],
      tool_choice: "required",
      max_tokens: 300,
      temperature: 0.5,
    });
  });

  it("OpenAI Chat: api.openai.com gets max_completion_tokens (reasoning models refuse max_tokens)", () => {
    const http = buildOpenAIChatRequest(secondTurn("openai"), { baseUrl: "https://api.openai.com/v1", apiKey: "K" });
    expect(http.body["max_completion_tokens"]).toBe(300);
    expect(http.body["max_tokens"]).toBeUndefined();
  });

  it("OpenAI Chat: parallel_tool_calls false reaches api.openai.com, but not for an o-series model, which refuses the field", () => {
    const sent = (model: string) =>
      buildOpenAIChatRequest(
        { ...secondTurn("openai"), model, parallelToolCalls: false },
        { baseUrl: "https://api.openai.com/v1", apiKey: "K" },
      ).body["parallel_tool_calls"];
    // o1, o3, o3-mini, o4-mini: 400 "Unsupported parameter: 'parallel_tool_calls' is not supported with this model."
    expect(["o1", "o3-mini", "o3-2025-04-16", "o4-mini", "ft:o4-mini-2025-04-16:acme::x1"].map(sent)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(["gpt-4.1", "gpt-5", "gpt-4o-mini", "omni-moderation-latest"].map(sent)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it("OpenAI Chat: a named tool_choice and a call without id", () => {
    expect(
      buildOpenAIChatRequest(secondTurn("openai", { tool_choice: { name: "get_weather" } }), target).body[
        "tool_choice"
      ],
    ).toEqual({ type: "function", function: { name: "get_weather" } });
    const noId = secondTurn("openai");
    const assistant = noId.messages[2];
    if (assistant?.role === "assistant") assistant.toolCalls[0]!.id = null;
    expect(() => buildOpenAIChatRequest(noId, target)).toThrow(/id of every earlier tool call/);
  });

  it("Anthropic: system apart, tool_use blocks, both results in one user turn, tool_choice any", () => {
    const http = buildAnthropicRequest(secondTurn("anthropic"), target);
    expect(http.url).toBe("https://api.example/v1/messages");
    expect(http.headers["x-api-key"]).toBe("KEY");
    expect(http.headers["anthropic-version"]).toBe("2023-06-01");
    expect(http.body).toEqual({
      model: "m-1",
      max_tokens: 300,
      stream: true,
      system: "Be brief.",
      messages: [
        { role: "user", content: [{ type: "text", text: "Weather in Paris and Rome?" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking." },
            { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } },
            { type: "tool_use", id: "call_2", name: "get_weather", input: { city: "Rome" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_1", content: '{"celsius":18}' },
            { type: "tool_result", tool_use_id: "call_2", content: "sunny" },
          ],
        },
      ],
      tools: [
        {
          name: "get_weather",
          description: "Weather",
          input_schema: { type: "object", properties: { city: { type: "string" } } },
        },
      ],
      tool_choice: { type: "any" },
      temperature: 0.5,
    });
  });

  it("Anthropic: max_tokens has a default, since the API requires it", () => {
    expect(buildAnthropicRequest(secondTurn("anthropic", { max_tokens: undefined }), target).body["max_tokens"]).toBe(
      4096,
    );
  });

  it("Gemini: SSE URL with the model, functionCall parts with the thought signature, functionResponse by name and the call's id", () => {
    const http = buildGeminiRequest(secondTurn("gemini", { model: "models/gemini-2.5-flash" }), target);
    expect(http.url).toBe("https://api.example/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(http.headers["x-goog-api-key"]).toBe("KEY");
    expect(http.body).toEqual({
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [
        { role: "user", parts: [{ text: "Weather in Paris and Rome?" }] },
        {
          role: "model",
          parts: [
            { text: "Checking." },
            { functionCall: { name: "get_weather", args: { city: "Paris" }, id: "call_1" }, thoughtSignature: "sig==" },
            { functionCall: { name: "get_weather", args: { city: "Rome" }, id: "call_2" } },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { name: "get_weather", id: "call_1", response: { celsius: 18 } } },
            { functionResponse: { name: "get_weather", id: "call_2", response: { result: "sunny" } } },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: "get_weather",
              description: "Weather",
              parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "ANY" } },
      generationConfig: { maxOutputTokens: 300, temperature: 0.5 },
    });
  });

  it("Gemini: an earlier call whose arguments are not an object (text the model wrote, an array) goes back with args {}, as Anthropic's input does", () => {
    for (const args of ['{"city": "Par', [1, 2], "plain", null, 3]) {
      const request = secondTurn("gemini", {
        messages: [
          { role: "user", content: "Weather?" },
          { role: "assistant", content: "", tool_calls: [{ id: "call_1", name: "get_weather", arguments: args }] },
          { role: "tool", tool_call_id: "call_1", content: "sunny" },
        ],
      });
      const contents = buildGeminiRequest(request, target).body["contents"] as {
        parts: { functionCall?: { args: unknown } }[];
      }[];
      expect(contents[1]!.parts[0]!.functionCall!.args).toEqual({});
      const anthropic = buildAnthropicRequest({ ...request, provider: "anthropic" }, target).body["messages"] as {
        content: { input?: unknown }[];
      }[];
      expect(anthropic[1]!.content[0]!.input).toEqual({});
    }
  });

  it("Gemini: a named tool_choice restricts the allowed functions", () => {
    expect(
      buildGeminiRequest(secondTurn("gemini", { tool_choice: { name: "get_weather" } }), target).body["toolConfig"],
    ).toEqual({
      functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] },
    });
  });

  it("OpenAI Responses: input items for calls and outputs, non-strict flat tools", () => {
    const http = buildOpenAIResponsesRequest(secondTurn("openai-responses"), target);
    expect(http.url).toBe("https://api.example/v1/responses");
    expect(http.body).toEqual({
      model: "m-1",
      stream: true,
      input: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris and Rome?" },
        { role: "assistant", content: "Checking." },
        { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "function_call", call_id: "call_2", name: "get_weather", arguments: '{"city":"Rome"}' },
        { type: "function_call_output", call_id: "call_1", output: '{"celsius":18}' },
        { type: "function_call_output", call_id: "call_2", output: "sunny" },
      ],
      tools: [
        {
          type: "function",
          name: "get_weather",
          description: "Weather",
          parameters: { type: "object", properties: { city: { type: "string" } } },
          strict: false,
        },
      ],
      tool_choice: "required",
      max_output_tokens: 300,
      temperature: 0.5,
    });
  });
});
