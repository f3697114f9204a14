// The DeepSeek-style thinking provider of agent-thinking-chat.test.ts (a 400 for an assistant turn
// with calls and no `reasoning_content`) through POST /v1/ui, read by ai's readUIMessageStream as
// useChat reads it: turn 1's reasoning part carries the Worker's seal in its `providerMetadata`,
// the message goes back as useChat sends it (the tool part with its output), and turn 2 reaches
// the provider with the reasoning in its field. Without the part, the provider's refusal.
import { readUIMessageStream, type UIMessage } from "ai";
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

/** POSTs useChat's body to /v1/ui; the answer's status and its last message as useChat builds it. */
async function turn(fake: DeepSeekFake, messages: UIMessage[]) {
  const answer = await clientFetch(fake)("http://localhost:8787/v1/ui", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer t" },
    body: JSON.stringify({
      id: "chat_1",
      trigger: "submit-message",
      messages,
      model: MODEL,
      tools: [{ name: "lookup", parameters: schema }],
    }),
  });
  if (!answer.ok) return { status: answer.status, message: undefined };
  const chunks = (await answer.text())
    .split("\n\n")
    .filter((frame) => frame.startsWith("data: ") && frame !== "data: [DONE]")
    .map((frame) => JSON.parse(frame.slice("data: ".length)));
  let message: UIMessage | undefined;
  const stream = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const snapshot of readUIMessageStream({ stream })) message = snapshot;
  return { status: answer.status, message };
}

describe("a DeepSeek-style thinking provider's tool loop through /v1/ui", () => {
  it("the reasoning part's providerMetadata carries the reasoning_content back; without it, the provider's 400", async () => {
    const fake = new DeepSeekFake();
    const user: UIMessage = { id: "u1", role: "user", parts: [{ type: "text", text: ask }] };
    const first = await turn(fake, [user]);
    const reasoning = first.message?.parts.find((part) => part.type === "reasoning");
    expect(reasoning).toMatchObject({
      text: THINKING,
      providerMetadata: { toolCallStream: { state: expect.any(String) } },
    });
    // useChat with the client's tool run: the tool part gets its output.
    const parts = first.message!.parts.map((part) =>
      part.type === "tool-lookup" ? { ...part, state: "output-available" as const, output: RESULT } : part,
    ) as UIMessage["parts"];
    const assistant: UIMessage = { id: "a1", role: "assistant", parts };
    const second = await turn(fake, [user, assistant]);
    expect(second.message?.parts.flatMap((part) => (part.type === "text" ? [part.text] : []))).toEqual([ANSWER]);
    expect(fake.lastAssistant()).toEqual(expectedTurn);
    const without = await turn(fake, [
      user,
      { ...assistant, parts: parts.filter((part) => part.type !== "reasoning") },
    ]);
    expect(without.status).toBe(400);
    expect(fake.lastAssistant()).not.toHaveProperty("reasoning_content");
  });
});
