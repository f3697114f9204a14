// The scripted model as a stranger meets it: some twenty tools as MCP servers declare them, all
// offered at once (./mcp-tools.ts), and prompts nobody here wrote. Each prompt gets one call, to
// the tool it asks for, its arguments valid against that tool's schema (formats asserted) and
// holding what the prompt says: the number beside its word ("for customer 77", "800x600"), a flag
// off when the prompt says "don't" or "without", a search's phrase, an SQL statement, each email
// of a list, an acronym for a tool ("PR"). Then the same through the real clients of Chat
// Completions, Responses and Anthropic Messages. Each case failed before.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { checkToolArguments, type JsonValue, type ToolSchema } from "../../src/index.ts";
import { type OfferedTool, planCalls } from "../../worker/upstream/replay/scripted/tool-plan.ts";
import { workerFetch } from "./client-support.ts";
import { DEVOPS_PROMPTS, DEVOPS_TOOLS } from "./devops-tools.ts";
import { MCP_PROMPTS, MCP_TOOLS } from "./mcp-tools.ts";

const NOW = Date.UTC(2026, 11, 2, 9, 30);

/** The one call a prompt got: to `tool`, valid, with `args` in its arguments. */
function expectCall(calls: [string, unknown][], tool: string, args: object, tools = MCP_TOOLS): void {
  expect(calls.map(([name]) => name)).toEqual([tool]);
  const schema = tools.find((t) => t.name === tool)!.parameters as ToolSchema;
  expect(checkToolArguments(calls[0]![1] as JsonValue, schema, { assertFormats: true })).toEqual([]);
  expect(calls[0]![1]).toMatchObject(args);
}

describe("twenty-three MCP-like tools at once, prompts nobody here wrote", () => {
  for (const [prompt, tool, args] of MCP_PROMPTS)
    it(`${prompt} → ${tool}`, () => {
      const calls = planCalls(prompt, MCP_TOOLS as OfferedTool[], { type: "auto" }, NOW);
      expectCall(
        calls.map((call) => [call.name, call.arguments]),
        tool,
        args,
      );
    });
});

describe("a developer's services at once: Jira, Stripe, Kubernetes, Docker, Notion, Linear, Git, DNS", () => {
  for (const [prompt, tool, args] of DEVOPS_PROMPTS)
    it(`${prompt} → ${tool}`, () => {
      const calls = planCalls(prompt, DEVOPS_TOOLS as OfferedTool[], { type: "auto" }, NOW);
      expectCall(
        calls.map((call) => [call.name, call.arguments]),
        tool,
        args,
        DEVOPS_TOOLS,
      );
    });
});

describe("the same through each client protocol's real client", () => {
  const fetch = workerFetch();
  const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "x", fetch, maxRetries: 0 });
  const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "x", fetch, maxRetries: 0 });
  // Every fourth prompt, so each protocol meets a spread of them.
  const some = MCP_PROMPTS.filter((_, i) => i % 4 === 0);

  it("openai-node, chat.completions.create", async () => {
    const tools = MCP_TOOLS.map((tool) => ({ type: "function" as const, function: tool as never }));
    for (const [prompt, tool, args] of some) {
      const completion = await openai.chat.completions.create({
        model: "gpt-4o",
        messages: [{ role: "user", content: prompt }],
        tools,
      });
      const calls = (completion.choices[0]!.message.tool_calls ?? []).flatMap((call) =>
        call.type === "function"
          ? [[call.function.name, JSON.parse(call.function.arguments)] as [string, unknown]]
          : [],
      );
      expectCall(calls, tool, args);
    }
  });

  it("openai-node, responses.create", async () => {
    const tools = MCP_TOOLS.map((tool) => ({ type: "function" as const, strict: false, ...tool }) as never);
    for (const [prompt, tool, args] of some) {
      const response = await openai.responses.create({ model: "gpt-5", input: prompt, tools });
      const calls = response.output.flatMap((item) =>
        item.type === "function_call" ? [[item.name, JSON.parse(item.arguments)] as [string, unknown]] : [],
      );
      expectCall(calls, tool, args);
    }
  });

  it("@anthropic-ai/sdk, messages.create", async () => {
    const tools = MCP_TOOLS.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters as never,
    }));
    for (const [prompt, tool, args] of some) {
      const message = await anthropic.messages.create({
        model: "claude-opus-4-5",
        max_tokens: 1024,
        messages: [{ role: "user", content: prompt }],
        tools,
      });
      const calls = message.content.flatMap((block) =>
        block.type === "tool_use" ? [[block.name, block.input] as [string, unknown]] : [],
      );
      expectCall(calls, tool, args);
    }
  });
});
