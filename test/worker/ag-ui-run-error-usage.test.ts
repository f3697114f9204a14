// A run that spent tokens before it failed says so: @ag-ui/client's HttpAgent (its verifier on)
// reads RUN_ERROR's `usage` (AG-UI's TokenUsage list, as RUN_FINISHED carries it) when OpenAI's
// stream cuts a call by `length` and reports its usage after the finish.
import { HttpAgent } from "@ag-ui/client";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, openAIChunks, testEnv } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "k" });
const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  choices: [{ index: 0, delta, finish_reason }],
});
const chunks = openAIChunks([
  chunk({ role: "assistant", content: "Checking " }),
  chunk({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "lookup", arguments: '{"q' } }] }),
  chunk({}, "length"),
  {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    choices: [],
    usage: { prompt_tokens: 20, completion_tokens: 64, total_tokens: 84 },
  },
]);

describe("/v1/ag-ui: RUN_ERROR after tokens were spent", () => {
  it("carries the usage the provider reported before the failure", async () => {
    const agent = new HttpAgent({
      url: "http://localhost:8787/v1/ag-ui",
      threadId: "t1",
      headers: { authorization: "Bearer t" },
      fetch: workerFetch({ env, upstream: new FakeUpstream({ kind: "sse", chunks }) }),
    });
    agent.addMessage({ id: "m1", role: "user", content: "Tides?" });
    const errors: unknown[] = [];
    await agent.runAgent(
      {
        runId: "r1",
        tools: [{ name: "lookup", description: "lookup", parameters: { type: "object" } }],
        forwardedProps: { model: "openai/gpt-x" },
      },
      { onRunErrorEvent: ({ event }) => void errors.push(event) },
    );
    expect(errors).toEqual([
      expect.objectContaining({
        type: "RUN_ERROR",
        usage: [{ inputTokens: 20, outputTokens: 64, totalTokens: 84 }],
      }),
    ]);
  });
});
