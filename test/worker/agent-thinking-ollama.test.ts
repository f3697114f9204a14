// An Ollama thinking model (qwen3, gpt-oss: `message.thinking` on /api/chat) in a tool loop of two
// turns through /v1/ag-ui (@ag-ui/client's HttpAgent) and /v1/ui (ai's readUIMessageStream, as
// useChat reads it): turn 1's reasoning comes back in the client's history as a reasoning message or
// part, and turn 2's request gives it to Ollama as the assistant message's `thinking`, as its chat
// template renders a model's earlier reasoning.
import { HttpAgent } from "@ag-ui/client";
import { readUIMessageStream, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const THINKING = "The user wants the weather in Paris; call lookup.";
const env = testEnv({ OLLAMA_BASE_URL: "https://provider.test", CLIENT_TOKEN: "t" });
const schema = { type: "object" as const, properties: { query: { type: "string" } } };
const line = (message: Record<string, unknown>, done = false) =>
  `${JSON.stringify({ model: "qwen3:8b", message: { role: "assistant", content: "", ...message }, done, ...(done ? { done_reason: "stop" } : {}) })}\n`;
const chunks = [
  ...THINKING.match(/.{1,12}/g)!.map((piece) => line({ thinking: piece })),
  line({ tool_calls: [{ function: { name: "lookup", arguments: { query: "Paris" } } }] }),
  line({}, true),
];
/** The assistant message of turn 2's request to Ollama. */
const sentAssistant = (upstream: FakeUpstream) =>
  (upstream.requests[1]!.body["messages"] as Record<string, unknown>[]).find((m) => m["role"] === "assistant");

describe("an Ollama thinking model's tool loop: turn 1's reasoning goes back as `thinking`", () => {
  it("/v1/ag-ui: the reasoning message's text", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks, headers: { "content-type": "application/x-ndjson" } });
    const agent = new HttpAgent({
      url: "http://localhost:8787/v1/ag-ui",
      threadId: "thread_1",
      headers: { authorization: "Bearer t" },
      initialMessages: [{ id: "user_1", role: "user", content: "Weather in Paris?" }],
      fetch: workerFetch({ env, upstream }),
    });
    const input = (runId: string) => ({
      runId,
      tools: [{ name: "lookup", description: "Looks up the weather.", parameters: schema }],
      forwardedProps: { model: "ollama/qwen3:8b" },
    });
    await agent.runAgent(input("run_1"));
    const assistant = agent.messages.find((m) => m.role === "assistant");
    const call = assistant?.role === "assistant" ? assistant.toolCalls?.[0] : undefined;
    expect(agent.messages.find((m) => m.role === "reasoning")?.content).toBe(THINKING);
    agent.addMessage({ id: "tool_1", role: "tool", toolCallId: call!.id, content: "18 degrees" });
    await agent.runAgent(input("run_2"));
    expect(sentAssistant(upstream)).toMatchObject({
      thinking: THINKING,
      tool_calls: [{ function: { name: "lookup" } }],
    });
  });

  it("/v1/ui: the reasoning part's text", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks, headers: { "content-type": "application/x-ndjson" } });
    const fetch = workerFetch({ env, upstream });
    const turn = async (messages: UIMessage[]) => {
      const answer = await fetch("http://localhost:8787/v1/ui", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        body: JSON.stringify({ messages, model: "ollama/qwen3:8b", tools: [{ name: "lookup", parameters: schema }] }),
      });
      const frames = (await answer.text()).split("\n\n").filter((f) => f.startsWith("data: ") && f !== "data: [DONE]");
      const stream = new ReadableStream({
        start(controller) {
          for (const frame of frames) controller.enqueue(JSON.parse(frame.slice("data: ".length)));
          controller.close();
        },
      });
      let message: UIMessage | undefined;
      for await (const snapshot of readUIMessageStream({ stream })) message = snapshot;
      return message;
    };
    const user: UIMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Paris?" }] };
    const first = await turn([user]);
    expect(first?.parts.find((part) => part.type === "reasoning")).toMatchObject({ text: THINKING });
    // useChat with the client's tool run: the tool part gets its output.
    const parts = first!.parts.map((part) =>
      part.type === "tool-lookup" ? { ...part, state: "output-available" as const, output: "18 degrees" } : part,
    ) as UIMessage["parts"];
    await turn([user, { id: "a1", role: "assistant", parts }]);
    expect(sentAssistant(upstream)).toMatchObject({
      thinking: THINKING,
      tool_calls: [{ function: { name: "lookup" } }],
    });
  });
});
