// The DeepSeek-style thinking provider of agent-thinking-chat.test.ts (a 400 for an assistant turn
// with calls and no `reasoning_content`) through POST /v1/ag-ui, read by @ag-ui/client's HttpAgent
// (its verifier on): turn 1's reasoning message carries the Worker's REASONING_ENCRYPTED_VALUE, the
// agent keeps it and sends it back in its history, and turn 2 reaches the provider with the
// reasoning in its field. A history without it gets the provider's refusal, so the fake can fail.
import { HttpAgent, type Message } from "@ag-ui/client";
import { describe, expect, it } from "vitest";
import {
  ANSWER,
  ask,
  clientFetch,
  DeepSeekFake,
  expectedTurn,
  MODEL,
  RESULT,
  schema,
  THINKING,
} from "./deepseek-fake.ts";

/** An agent of the Worker in front of `fake`, with `messages` as its history. */
const agentOf = (fake: DeepSeekFake, messages: Message[]) =>
  new HttpAgent({
    url: "http://localhost:8787/v1/ag-ui",
    threadId: "thread_1",
    headers: { authorization: "Bearer t" },
    initialMessages: messages,
    fetch: clientFetch(fake),
  });
const input = (runId: string) => ({
  runId,
  tools: [{ name: "lookup", description: "Looks up the weather.", parameters: schema }],
  forwardedProps: { model: MODEL },
});

describe("a DeepSeek-style thinking provider's tool loop through /v1/ag-ui", () => {
  it("the reasoning message's encryptedValue carries the reasoning_content back; without it, the provider's 400", async () => {
    const fake = new DeepSeekFake();
    const agent = agentOf(fake, [{ id: "user_1", role: "user", content: ask }]);
    await agent.runAgent(input("run_1"));
    const [, reasoning, assistant] = agent.messages as (Message & { encryptedValue?: string })[];
    expect([reasoning?.role, reasoning?.content]).toEqual(["reasoning", THINKING]);
    expect(reasoning?.encryptedValue).toMatch(/^tcs1\./);
    const call = assistant?.role === "assistant" ? assistant.toolCalls?.[0] : undefined;
    expect(call?.function).toEqual({ name: "lookup", arguments: '{"query":"Paris"}' });
    agent.addMessage({ id: "tool_1", role: "tool", toolCallId: call!.id, content: RESULT });

    const second = await agent.runAgent(input("run_2"));
    expect(second.newMessages.flatMap((m) => (m.role === "assistant" ? [m.content] : []))).toEqual([ANSWER]);
    expect(fake.lastAssistant()).toEqual(expectedTurn);

    const without = agentOf(
      fake,
      agent.messages.slice(0, 4).filter((m) => m.role !== "reasoning"),
    );
    await expect(without.runAgent(input("run_3"))).rejects.toMatchObject({ status: 400 });
    expect(fake.lastAssistant()).not.toHaveProperty("reasoning_content");
  });
});
