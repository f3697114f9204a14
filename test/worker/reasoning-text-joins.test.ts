// A turn whose reasoning comes back in several pieces (AG-UI reasoning messages, UI reasoning parts,
// Messages thinking blocks: another provider's interleaved thinking, Cohere's thinking and tool plan)
// reaches a provider that takes one reasoning text (Ollama's `thinking`) with a blank line between
// the pieces, as /v1/responses joins a turn's summaries: never run together ("…Paris.I will…").
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const [FIRST, SECOND] = ["The user asks about Paris.", "I will look it up."];
const env = testEnv({ OLLAMA_BASE_URL: "https://provider.test", CLIENT_TOKEN: "t" });
const schema = { type: "object", properties: { query: { type: "string" } } };
const done = `${JSON.stringify({ model: "qwen3:8b", message: { role: "assistant", content: "18." }, done: true, done_reason: "stop" })}\n`;

/** POSTs `body` to `path`; the assistant message of the request Ollama received. */
async function sentAssistant(path: string, body: Record<string, unknown>) {
  const upstream = new FakeUpstream({
    kind: "sse",
    chunks: [done],
    headers: { "content-type": "application/x-ndjson" },
  });
  const answer = await workerFetch({ env, upstream })(`http://localhost:8787${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer t", "x-api-key": "t" },
    body: JSON.stringify(body),
  });
  await answer.text();
  expect(answer.status).toBe(200);
  return (upstream.requests[0]!.body["messages"] as Record<string, unknown>[]).find((m) => m["role"] === "assistant");
}

const call = { id: "c1", name: "lookup" };
const expected = { thinking: `${FIRST}\n\n${SECOND}`, tool_calls: [{ function: { name: "lookup" } }] };

/** An AG-UI run of `messages` for Ollama, with the one tool. */
const agUiRun = (messages: unknown[]) => ({
  threadId: "th",
  runId: "r",
  state: {},
  context: [],
  forwardedProps: { model: "ollama/qwen3:8b" },
  messages,
  tools: [{ name: "lookup", description: "Look up.", parameters: schema }],
});

describe("several reasoning pieces of one turn reach Ollama's `thinking` a blank line apart", () => {
  it("/v1/ag-ui: two reasoning messages", async () => {
    const messages = [
      { id: "u1", role: "user", content: "Weather in Paris?" },
      { id: "r1", role: "reasoning", content: FIRST },
      { id: "r2", role: "reasoning", content: SECOND },
      {
        id: "a1",
        role: "assistant",
        toolCalls: [{ ...call, type: "function", function: { name: "lookup", arguments: '{"query":"Paris"}' } }],
      },
      { id: "t1", role: "tool", toolCallId: "c1", content: "18" },
    ];
    expect(await sentAssistant("/v1/ag-ui", agUiRun(messages))).toMatchObject(expected);
  });

  it("/v1/ag-ui: two reasoning messages after the assistant message they belong to", async () => {
    const messages = [
      { id: "u1", role: "user", content: "Weather in Paris?" },
      {
        id: "a1",
        role: "assistant",
        toolCalls: [{ ...call, type: "function", function: { name: "lookup", arguments: '{"query":"Paris"}' } }],
      },
      { id: "r1", role: "reasoning", content: FIRST },
      { id: "r2", role: "reasoning", content: SECOND },
      { id: "t1", role: "tool", toolCallId: "c1", content: "18" },
    ];
    expect(await sentAssistant("/v1/ag-ui", agUiRun(messages))).toMatchObject(expected);
  });

  it("/v1/ui: two reasoning parts of one step", async () => {
    const parts = [
      { type: "step-start" },
      { type: "reasoning", text: FIRST },
      { type: "reasoning", text: SECOND },
      { type: "tool-lookup", toolCallId: "c1", state: "output-available", input: { query: "Paris" }, output: "18" },
    ];
    const messages = [
      { id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Paris?" }] },
      { id: "a1", role: "assistant", parts },
    ];
    const body = { messages, model: "ollama/qwen3:8b", tools: [{ name: "lookup", parameters: schema }] };
    expect(await sentAssistant("/v1/ui", body)).toMatchObject(expected);
  });

  it("/v1/messages: two thinking blocks", async () => {
    const messages = [
      { role: "user", content: "Weather in Paris?" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: FIRST, signature: "" },
          { type: "thinking", thinking: SECOND, signature: "" },
          { type: "tool_use", id: "c1", name: "lookup", input: { query: "Paris" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "18" }] },
    ];
    const body = {
      model: "ollama/qwen3:8b",
      max_tokens: 100,
      messages,
      tools: [{ name: "lookup", input_schema: schema }],
    };
    expect(await sentAssistant("/v1/messages", body)).toMatchObject(expected);
  });
});
