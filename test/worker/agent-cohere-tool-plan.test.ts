// Cohere's tool plan streams as reasoning with no state to seal, so an AG-UI client keeps it as a
// reasoning message without `encryptedValue` and useChat as a reasoning part without
// `providerMetadata`; its thinking comes with the Worker's seal. Sent back through /v1/ag-ui and
// /v1/ui, the sealed thinking is a `thinking` item of the assistant message's `content`, never in
// its `tool_plan`, and the unsealed text is the `tool_plan` (Cohere v2: "a chain-of-thought style
// reflection and plan that the model generates when working with tools"), as through /v1/messages
// and /v1/responses (agent-reasoning-turns.test.ts). Reasoning text that comes back without its seal
// (a client that drops it, another provider's) cannot be told from a plan: it is the plan too.
import { describe, expect, it } from "vitest";
import { sealPart } from "../../worker/protocols/reasoning-state.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const [THOUGHT, PLAN] = ["The user wants the weather in Paris.", "I will look Paris up."];
const SEAL = sealPart({ type: "thinking", text: THOUGHT });
const schema = { type: "object", properties: { query: { type: "string" } } };
const call = { id: "lookup_1", type: "function", function: { name: "lookup", arguments: '{"query":"Paris"}' } };
const END = 'event: message-end\ndata: {"type":"message-end","delta":{"finish_reason":"COMPLETE"}}\n\n';

/** POSTs `body` to `path`; the assistant message of the request Cohere received. */
async function sentAssistant(path: string, body: Record<string, unknown>) {
  const upstream = new FakeUpstream({ kind: "sse", chunks: [END] });
  const env = testEnv({ COHERE_API_KEY: "k", CLIENT_TOKEN: "t" });
  const answer = await workerFetch({ env, upstream })(`http://localhost:8787${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer t" },
    body: JSON.stringify(body),
  });
  await answer.text();
  expect(answer.status).toBe(200);
  return (upstream.requests[0]!.body["messages"] as Record<string, unknown>[]).find((m) => m["role"] === "assistant");
}

/** An AG-UI history whose turn reasoned in `reasoning` (each a message's text and seal, if any). */
function agUI(reasoning: readonly { content: string; encryptedValue?: string }[]) {
  const messages = [
    { id: "u1", role: "user", content: "Weather in Paris?" },
    ...reasoning.map((message, i) => ({ id: `r${i}`, role: "reasoning", ...message })),
    { id: "a1", role: "assistant", toolCalls: [{ id: "lookup_1", type: "function", function: call.function }] },
    { id: "t1", role: "tool", toolCallId: "lookup_1", content: "18" },
  ];
  const tools = [{ name: "lookup", description: "Look up.", parameters: schema }];
  const forwardedProps = { model: "cohere/command-a-reasoning-08-2025" };
  return { threadId: "th", runId: "r", state: {}, context: [], forwardedProps, messages, tools };
}

/** A UI history whose step reasoned in `reasoning` (each a part's text and seal, if any). */
function ui(reasoning: readonly { text: string; state?: string }[]) {
  const parts = [
    { type: "step-start" },
    ...reasoning.map(({ text, state }) => ({
      type: "reasoning",
      text,
      ...(state ? { providerMetadata: { toolCallStream: { state } } } : {}),
    })),
    { type: "tool-lookup", toolCallId: "lookup_1", state: "output-available", input: { query: "Paris" }, output: "18" },
  ];
  const messages = [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Paris?" }] },
    { id: "a1", role: "assistant", parts },
  ];
  return { messages, model: "cohere/command-a-reasoning-08-2025", tools: [{ name: "lookup", parameters: schema }] };
}

describe("Cohere's thinking and tool plan through /v1/ag-ui and /v1/ui", () => {
  const both = {
    role: "assistant",
    content: [{ type: "thinking", thinking: THOUGHT }],
    tool_plan: PLAN,
    tool_calls: [call],
  };

  it("/v1/ag-ui: the sealed thinking is a thinking item, the unsealed plan the tool_plan", async () => {
    const body = agUI([{ content: THOUGHT, encryptedValue: SEAL }, { content: PLAN }]);
    expect(await sentAssistant("/v1/ag-ui", body)).toEqual(both);
  });

  it("/v1/ui: the sealed thinking is a thinking item, the unsealed plan the tool_plan", async () => {
    expect(await sentAssistant("/v1/ui", ui([{ text: THOUGHT, state: SEAL }, { text: PLAN }]))).toEqual(both);
  });

  // The review's case (stop 71): text without its seal is not known to be thinking.
  it("reasoning text without a seal goes as the tool_plan, with no thinking item", async () => {
    const plan = { role: "assistant", tool_plan: THOUGHT, tool_calls: [call] };
    expect(await sentAssistant("/v1/ag-ui", agUI([{ content: THOUGHT }]))).toEqual(plan);
    expect(await sentAssistant("/v1/ui", ui([{ text: THOUGHT }]))).toEqual(plan);
  });
});
