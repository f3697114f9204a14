// worker/README.md's client snippets as printed, offline: its `getWeather` tool (read from the
// README, so the test fails if the snippet changes) with openai-node's `chat.completions.stream`
// (through an Anthropic model name) and AG-UI's `HttpAgent.runAgent`, each reading the call the
// README's comments show: `get_weather` with `{"city":"Paris"}`. Before, the AG-UI snippet threw
// a ZodError (its tool had no `description`), and the OpenAI one played a recording of
// `{"location":"Paris"}`, a property the README's tool does not have.
import { HttpAgent } from "@ag-ui/client";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import readme from "../../worker/README.md?raw";
import { workerFetch } from "./client-support.ts";

/** The README's `const getWeather = ...;` statement, evaluated. */
function readmeTool(): { name: string; description: string; parameters: Record<string, unknown> } {
  const statement = /const getWeather = (\{[\s\S]*?\} \} \});/.exec(readme)?.[1];
  if (statement === undefined) throw new Error("worker/README.md has no `const getWeather = ...;`");
  return new Function(`return (${statement.replace(/\/\/[^\n]*/g, "").replace(/;$/, "")});`)();
}

describe("worker/README.md's client snippets, offline", () => {
  it("AG-UI: HttpAgent.runAgent with the README's getWeather gets get_weather {city: Paris}", async () => {
    const CLIENT_TOKEN = "offline";
    const agent = new HttpAgent({
      url: "http://localhost:8787/v1/ag-ui",
      headers: { authorization: `Bearer ${CLIENT_TOKEN}` },
      initialMessages: [{ id: "1", role: "user", content: "Weather in Paris?" }],
      fetch: workerFetch(),
    });
    const { newMessages } = await agent.runAgent({
      tools: [readmeTool()],
      forwardedProps: { model: "openai/gpt-4o-mini" },
    });
    const toolCalls = (newMessages[0] as { toolCalls?: unknown[] }).toolCalls;
    expect(toolCalls).toEqual([
      { id: expect.any(String), type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
    ]);
  });

  it("OpenAI SDKs: chat.completions.stream through an Anthropic model name gets get_weather {city: Paris}", async () => {
    const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "offline", fetch: workerFetch() });
    const messages = [{ role: "user" as const, content: "What's the weather in Paris?" }];
    const tools = [{ type: "function" as const, function: readmeTool() }];
    const stream = openai.chat.completions.stream({ model: "anthropic/claude-sonnet-4-5", messages, tools });
    const completion = await stream.finalChatCompletion();
    const calls = (completion.choices[0]!.message.tool_calls ?? []).map((call) =>
      call.type === "function" ? [call.function.name, JSON.parse(call.function.arguments)] : [call.type],
    );
    expect(calls).toEqual([["get_weather", { city: "Paris" }]]);
  });
});
