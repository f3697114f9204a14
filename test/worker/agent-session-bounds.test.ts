// A long agent session is served: Codex sends every earlier item each turn (two per tool call) and
// Claude Code every earlier message, with some 40 tools and more with MCP servers, so the agent
// endpoints bound a conversation by their body limit (MAX_AGENT_BODY_BYTES) and generous counts,
// not by /v1/stream's 1,000 messages and 128 tools, which still hold there.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { streamRequest, worker } from "./support.ts";

const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "x", fetch: workerFetch(), maxRetries: 0 });
const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "x", fetch: workerFetch(), maxRetries: 0 });

// Thousands of items through the SDK and the Worker take seconds on a busy machine: a hang guard of
// 30 s, not vitest's 5 s, so that a slow run is not reported as a failure (nothing here is timed).
describe("a long agent session", { timeout: 30_000 }, () => {
  it("/v1/responses: 1,500 tool calls (3,001 input items) are answered", async () => {
    const input = [
      { role: "user" as const, content: "hi" },
      ...Array.from({ length: 1500 }, (_, i) => [
        { type: "function_call" as const, call_id: `call_${i}`, name: "get_weather", arguments: "{}" },
        { type: "function_call_output" as const, call_id: `call_${i}`, output: "sunny" },
      ]).flat(),
    ];
    const tools = [{ type: "function" as const, name: "get_weather", parameters: { type: "object" }, strict: false }];
    const response = await openai.responses.create({ model: "openai/m", input, tools });
    expect(response.status).toBe("completed");
  });

  it("/v1/messages: 1,201 messages and 300 tools are answered", async () => {
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "hi" }];
    for (let i = 0; i < 600; i++) {
      messages.push({
        role: "assistant",
        content: [{ type: "tool_use", id: `toolu_${i}`, name: "tool_1", input: {} }],
      });
      messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: "ok" }] });
    }
    const tools = Array.from({ length: 300 }, (_, i) => ({
      name: `tool_${i}`,
      input_schema: { type: "object" as const },
    }));
    const message = await anthropic.messages.create({ model: "anthropic/m", max_tokens: 64, messages, tools });
    expect(message.type).toBe("message");
  });

  it("/v1/stream keeps its bounds: 1,001 messages and 129 tools are each a 400", async () => {
    const messages = Array.from({ length: 1001 }, () => ({ role: "user", content: "hi" }));
    const many = await worker().call(streamRequest({ provider: "openai", model: "m", messages }));
    expect([many.status, ((await many.json()) as { error: { field: string } }).error.field]).toEqual([400, "messages"]);
    const tools = Array.from({ length: 129 }, (_, i) => ({ name: `t${i}`, parameters: { type: "object" } }));
    const wide = await worker().call(
      streamRequest({ provider: "openai", model: "m", messages: [{ role: "user", content: "hi" }], tools }),
    );
    expect([wide.status, ((await wide.json()) as { error: { field: string } }).error.field]).toEqual([400, "tools"]);
  });
});
