// A 400 of the agent endpoints names the field by its path in the client's own request, never a
// path of the translated /v1/stream body: a tool result whose id names no earlier call (which
// Anthropic and OpenAI refuse too, and which Gemini and Ollama cannot be sent: they need the
// call's name) is a 400 at its id, and an empty Responses `input` is a 400 naming `input`.
import Anthropic, { BadRequestError as AnthropicBadRequest } from "@anthropic-ai/sdk";
import OpenAI, { BadRequestError as OpenAIBadRequest } from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";

const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "x", fetch: workerFetch(), maxRetries: 0 });
const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "x", fetch: workerFetch(), maxRetries: 0 });
const providers = ["openai", "openai-responses", "anthropic", "gemini", "bedrock", "cohere", "ollama"];
const weather = { name: "get_weather", input_schema: { type: "object" as const } };

describe("/v1/messages: a tool_result for no earlier tool_use", () => {
  for (const provider of providers) {
    it(`${provider}: 400 naming messages[2].content[0].tool_use_id`, async () => {
      const error = await anthropic.messages
        .create({
          model: `${provider}/m`,
          max_tokens: 64,
          tools: [weather],
          messages: [
            { role: "user", content: "hi" },
            { role: "assistant", content: "ok" },
            { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_none", content: "r" }] },
          ],
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AnthropicBadRequest);
      expect((error as Error).message).toContain("messages[2].content[0].tool_use_id");
    });
  }

  it("a result for a call of an earlier turn still reaches every provider", async () => {
    for (const provider of providers) {
      const message = await anthropic.messages.create({
        model: `${provider}/m`,
        max_tokens: 64,
        tools: [weather],
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: {} }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "sunny" }] },
        ],
      });
      expect(message.type).toBe("message");
    }
  });
});

describe("/v1/responses: paths of the client's input", () => {
  for (const provider of providers) {
    it(`${provider}: a function_call_output for no earlier call is a 400 at input[1].call_id`, async () => {
      const error = await openai.responses
        .create({
          model: `${provider}/m`,
          tools: [{ type: "function", name: "get_weather", parameters: { type: "object" }, strict: false }],
          input: [
            { role: "user", content: "hi" },
            { type: "function_call_output", call_id: "call_none", output: "r" },
          ],
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAIBadRequest);
      expect((error as OpenAIBadRequest).param).toBe("input[1].call_id");
    });
  }

  it("a call's output without `output` is a 400 at it (the provider was sent the result null)", async () => {
    for (const type of ["function_call", "custom_tool_call"] as const) {
      const call =
        type === "function_call"
          ? { type, call_id: "call_1", name: "get_weather", arguments: "{}" }
          : { type, call_id: "call_1", name: "get_weather", input: "x" };
      const error = await openai.responses
        .create({
          model: "anthropic/m",
          input: [{ role: "user", content: "hi" }, call, { type: `${type}_output`, call_id: "call_1" }],
        } as never)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAIBadRequest);
      expect((error as OpenAIBadRequest).param).toBe("input[2].output");
    }
  });

  it("an empty input is a 400 naming input", async () => {
    const error = await openai.responses.create({ model: "openai/m", input: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIBadRequest);
    expect((error as OpenAIBadRequest).param).toBe("input");
    expect((error as Error).message).not.toContain("messages");
  });

  it("a custom_tool_call_output for an earlier custom_tool_call still reaches every provider", async () => {
    for (const provider of providers) {
      const response = await openai.responses.create({
        model: `${provider}/m`,
        tools: [{ type: "custom", name: "apply_patch" }],
        input: [
          { role: "user", content: "hi" },
          { type: "custom_tool_call", call_id: "call_1", name: "apply_patch", input: "*** Begin Patch" },
          { type: "custom_tool_call_output", call_id: "call_1", output: "done" },
        ],
      });
      expect(response.object).toBe("response");
    }
  });
});

describe("a tool_choice naming no tool of the request is a 400 at tool_choice.name", () => {
  it("/v1/messages: tool_choice { type: tool, name } names the field as the other 400s do", async () => {
    for (const provider of providers) {
      const error = await anthropic.messages
        .create({
          model: `${provider}/m`,
          max_tokens: 64,
          tools: [weather],
          tool_choice: { type: "tool", name: "get_time" },
          messages: [{ role: "user", content: "hi" }],
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AnthropicBadRequest);
      expect((error as AnthropicBadRequest).error).toEqual({
        type: "error",
        error: {
          type: "invalid_request_error",
          message: "`tool_choice.name` names no tool of `tools`.",
          details: { error_code: "invalid_request" },
        },
      });
    }
  });

  it("/v1/responses: a function or custom tool_choice, param tool_choice.name", async () => {
    for (const type of ["function", "custom"] as const) {
      const error = await openai.responses
        .create({
          model: "gemini/m",
          tools: [{ type: "function", name: "get_weather", parameters: { type: "object" }, strict: false }],
          tool_choice: { type, name: "get_time" },
          input: "hi",
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAIBadRequest);
      expect((error as OpenAIBadRequest).param).toBe("tool_choice.name");
      expect((error as Error).message).toContain("`tool_choice.name` names no tool of `tools`.");
    }
  });

  it("a tool_choice naming a tool of the request still reaches the provider", async () => {
    const message = await anthropic.messages.create({
      model: "openai/m",
      max_tokens: 64,
      tools: [weather],
      tool_choice: { type: "tool", name: "get_weather" },
      messages: [{ role: "user", content: "hi" }],
    });
    expect(message.type).toBe("message");
  });
});
