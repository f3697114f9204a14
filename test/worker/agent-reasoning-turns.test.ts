// Two turns with the real SDKs: the reasoning a provider gave on turn 1, echoed back by the client
// as its protocol has it, reaches the provider on turn 2 in the provider's own shape (Anthropic's
// signed and redacted thinking before its tool_use, Claude on Bedrock the same as reasoningContent,
// OpenAI's reasoning item with its encrypted content before its function_call), also when the
// client speaks the other protocol; a provider that cannot take it back is sent none.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { workerFetch } from "./client-support.ts";
import {
  anthropicThinkingStream,
  cohereThinkingStream,
  ENCRYPTED,
  REDACTED,
  responsesReasoningStream,
  SIGNATURE,
  THOUGHT,
} from "./reasoning-streams.ts";
import { chatChunk, FakeUpstream, openAIChunks, streamRequest, testEnv, validBody, worker } from "./support.ts";

const ENV: Record<string, Partial<Env>> = {
  anthropic: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1" },
  "openai-responses": { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" },
  openai: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" },
  cohere: { COHERE_API_KEY: "k", COHERE_BASE_URL: "https://provider.test/v2" },
};
const schema = { type: "object" as const, properties: { query: { type: "string" } } };
const ask = "Weather in Paris?";
const RESULT = "18 degrees";

const sdkOptions = (provider: string, upstream: FakeUpstream) => ({
  apiKey: "t",
  fetch: workerFetch({ env: testEnv({ ...ENV[provider]!, CLIENT_TOKEN: "t" }), upstream }),
  maxRetries: 0,
});

/** Turn 1 on `from` and turn 2 on `to` (answered by `second`, else the same stream), through Messages; the body `to` received on turn 2. */
async function messagesTurns(from: string, to: string, stream: () => FakeUpstream, second = stream) {
  const request = {
    max_tokens: 32_000,
    thinking: { type: "enabled" as const, budget_tokens: 16_000 },
    tools: [{ name: "lookup", input_schema: schema }],
  };
  const first = await new Anthropic({ baseURL: "http://localhost:8787", ...sdkOptions(from, stream()) }).messages
    .stream({ ...request, model: `${from}/claude-x`, messages: [{ role: "user", content: ask }] })
    .finalMessage();
  const call = first.content.find((block) => block.type === "tool_use")!;
  const upstream = second();
  await new Anthropic({ baseURL: "http://localhost:8787", ...sdkOptions(to, upstream) }).messages
    .stream({
      ...request,
      model: `${to}/claude-x`,
      messages: [
        { role: "user", content: ask },
        { role: "assistant", content: first.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: RESULT }] },
      ],
    })
    .finalMessage();
  return upstream.requests[0]!.body;
}

/** The same through Responses, the client echoing turn 1's output items. */
async function responsesTurns(from: string, to: string, stream: () => FakeUpstream) {
  const request = {
    reasoning: { effort: "medium" as const, summary: "auto" as const },
    include: ["reasoning.encrypted_content" as const],
    store: false,
    tools: [{ type: "function" as const, name: "lookup", strict: false, parameters: schema }],
  };
  const first = await new OpenAI({ baseURL: "http://localhost:8787/v1", ...sdkOptions(from, stream()) }).responses
    .stream({ ...request, model: `${from}/gpt-5`, input: ask })
    .finalResponse();
  const call = first.output.find((item) => item.type === "function_call")!;
  const upstream = stream();
  // What Codex sends back: each output item as it came (openai-node adds `parsed_arguments` to calls).
  const echoed = first.output.map((item) => {
    const { parsed_arguments: _parsed, ...rest } = item as typeof item & { parsed_arguments?: unknown };
    return rest as OpenAI.Responses.ResponseInputItem;
  });
  await new OpenAI({ baseURL: "http://localhost:8787/v1", ...sdkOptions(to, upstream) }).responses
    .stream({
      ...request,
      model: `${to}/gpt-5`,
      input: [
        { role: "user", content: ask },
        ...echoed,
        { type: "function_call_output", call_id: call.call_id, output: RESULT },
      ],
    })
    .finalResponse()
    // Only the request matters: the answer may be in another provider's format, a failed response.
    .catch(() => undefined);
  return upstream.requests[0]!.body;
}

const anthropicTurn = [
  { type: "thinking", thinking: THOUGHT, signature: SIGNATURE },
  { type: "redacted_thinking", data: REDACTED },
  { type: "tool_use", id: "toolu_1", name: "lookup", input: { query: "Paris" } },
];
const responsesTurn = (callId: string) => [
  { role: "user", content: ask },
  { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: THOUGHT }], encrypted_content: ENCRYPTED },
  { type: "function_call", call_id: callId, name: "lookup", arguments: '{"query":"Paris"}' },
  { type: "function_call_output", call_id: callId, output: RESULT },
];

describe("reasoning carried from one turn to the next", () => {
  it("Messages on Anthropic: the signed and redacted thinking go back before the tool_use, and thinking stays on", async () => {
    const body = await messagesTurns("anthropic", "anthropic", anthropicThinkingStream);
    expect(body["messages"]).toEqual([
      { role: "user", content: [{ type: "text", text: ask }] },
      { role: "assistant", content: anthropicTurn },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: RESULT }] },
    ]);
    expect(body["thinking"]).toEqual({ type: "enabled", budget_tokens: 16_000 });
  });

  it("Responses on OpenAI Responses: the reasoning item goes back with its encrypted content before its call", async () => {
    const body = await responsesTurns("openai-responses", "openai-responses", responsesReasoningStream);
    expect(body["input"]).toEqual(responsesTurn("call_1"));
    expect(body["reasoning"]).toEqual({ effort: "medium", summary: "auto" });
  });

  it("Responses on Anthropic (Codex on Claude): the sealed thinking goes back to Anthropic as it came", async () => {
    const body = await responsesTurns("anthropic", "anthropic", anthropicThinkingStream);
    expect((body["messages"] as unknown[])[1]).toEqual({ role: "assistant", content: anthropicTurn });
    expect([body["thinking"], body["max_tokens"]]).toEqual([{ type: "enabled", budget_tokens: 16_384 }, 20_480]);
  });

  it("Messages on OpenAI Responses: the sealed item goes back to OpenAI as it came", async () => {
    const body = await messagesTurns("openai-responses", "openai-responses", responsesReasoningStream);
    expect(body["input"]).toEqual(responsesTurn("call_1"));
  });

  it("a provider that cannot take the reasoning back is sent none, and Anthropic without its thinking thinks not", async () => {
    const text = () => new FakeUpstream({ kind: "sse", chunks: openAIChunks([chatChunk({ content: "18." }, "stop")]) });
    const chat = await messagesTurns("anthropic", "openai", anthropicThinkingStream, text);
    for (const state of [SIGNATURE, REDACTED, THOUGHT]) expect(JSON.stringify(chat)).not.toContain(state);
    const claude = await responsesTurns("openai-responses", "anthropic", responsesReasoningStream);
    expect(JSON.stringify(claude)).not.toContain(ENCRYPTED);
    expect((claude["messages"] as { content: unknown[] }[])[1]!.content).toEqual([
      { type: "tool_use", id: "call_1", name: "lookup", input: { query: "Paris" } },
    ]);
    // Anthropic refuses thinking on a tool loop whose turn has none: it is left out.
    expect(claude).not.toHaveProperty("thinking");
  });

  // The tool plan reaches the client as reasoning text and comes back in it; Cohere gets it as the turn's tool_plan
  // (before, the request kit sent none: it read the turn's reasoning text for Ollama alone).
  it("Messages and Responses on Cohere: the sealed thinking goes back as a thinking item, the tool plan alone as tool_plan", async () => {
    const turn = {
      role: "assistant",
      content: [{ type: "thinking", thinking: THOUGHT }],
      tool_plan: "I will look Paris up.",
      tool_calls: [{ id: "lookup_1", type: "function", function: { name: "lookup", arguments: '{"query":"Paris"}' } }],
    };
    for (const turns of [messagesTurns, responsesTurns]) {
      const body = await turns("cohere", "cohere", cohereThinkingStream);
      expect((body["messages"] as unknown[])[1]).toEqual(turn);
    }
  });

  it("Messages on Claude on Bedrock: the signed and redacted thinking go back as reasoningContent before the toolUse", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const env = { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret", AWS_REGION: "us-west-2" };
    const fetch = workerFetch({ env: testEnv({ ...env, CLIENT_TOKEN: "t" }), upstream });
    await new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch, maxRetries: 0 }).messages
      .stream({
        model: "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        max_tokens: 32_000,
        thinking: { type: "enabled", budget_tokens: 16_000 },
        tools: [{ name: "lookup", input_schema: schema }],
        messages: [
          { role: "user", content: ask },
          { role: "assistant", content: anthropicTurn as Anthropic.ContentBlockParam[] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: RESULT }] },
        ],
      })
      .finalMessage()
      .catch(() => undefined);
    const body = upstream.requests[0]!.body;
    expect((body["messages"] as { content: unknown[] }[])[1]!.content).toEqual([
      { reasoningContent: { reasoningText: { text: THOUGHT, signature: SIGNATURE } } },
      { reasoningContent: { redactedContent: REDACTED } },
      { toolUse: { toolUseId: "toolu_1", name: "lookup", input: { query: "Paris" } } },
    ]);
    expect(body["additionalModelRequestFields"]).toEqual({ thinking: { type: "enabled", budget_tokens: 16_000 } });
  });

  it("Ollama takes the thinking text back: an unsigned thinking block, a reasoning item's summary", async () => {
    const env = testEnv({ OLLAMA_BASE_URL: "https://provider.test", CLIENT_TOKEN: "t" });
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const fetch = workerFetch({ env, upstream });
    const history = {
      role: "user" as const,
      content: [{ type: "tool_result" as const, tool_use_id: "call_1", content: RESULT }],
    };
    await new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch, maxRetries: 0 }).messages
      .stream({
        model: "ollama/gpt-oss:20b",
        max_tokens: 1024,
        tools: [{ name: "lookup", input_schema: schema }],
        messages: [
          { role: "user", content: ask },
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: THOUGHT, signature: "" },
              { type: "tool_use", id: "call_1", name: "lookup", input: { query: "Paris" } },
            ],
          },
          history,
        ],
      })
      .finalMessage()
      .catch(() => undefined);
    await new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 }).responses
      .create({
        model: "ollama/gpt-oss:20b",
        tools: [{ type: "function", name: "lookup", strict: false, parameters: schema }],
        input: [
          { role: "user", content: ask },
          { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: THOUGHT }] },
          { type: "function_call", call_id: "call_1", name: "lookup", arguments: '{"query":"Paris"}' },
          { type: "function_call_output", call_id: "call_1", output: RESULT },
        ],
      })
      .catch(() => undefined);
    expect(upstream.requests).toHaveLength(2);
    for (const { body } of upstream.requests)
      expect((body["messages"] as Record<string, unknown>[])[1]).toMatchObject({
        role: "assistant",
        thinking: THOUGHT,
      });
  });

  it("POST /v1/stream takes finish.reasoningParts back as an assistant message's reasoning_parts", async () => {
    const upstream = anthropicThinkingStream();
    const env = testEnv({ ...ENV["anthropic"]!, CLIENT_TOKEN: "t" });
    const auth = { headers: { authorization: "Bearer t" } };
    const turn = {
      role: "assistant",
      content: "",
      tool_calls: [{ id: "toolu_1", name: "get_weather", arguments: { city: "Paris" } }],
      reasoning_parts: [
        { type: "signed", text: THOUGHT, signature: SIGNATURE },
        { type: "redacted", data: REDACTED },
      ],
    };
    const body = (parts: unknown) =>
      validBody({
        provider: "anthropic",
        model: "claude-x",
        max_tokens: 8000,
        reasoning: { type: "on", effort: "low" },
        messages: [
          { role: "user", content: ask },
          { ...turn, reasoning_parts: parts },
          { role: "tool", tool_call_id: "toolu_1", content: RESULT },
        ],
      });
    const { call } = worker(upstream);
    expect((await call(streamRequest(body(turn.reasoning_parts), auth), env)).status).toBe(200);
    const sent = upstream.requests[0]!.body;
    expect((sent["messages"] as { content: unknown[] }[])[1]!.content.slice(0, 2)).toEqual(anthropicTurn.slice(0, 2));
    expect(sent["thinking"]).toEqual({ type: "enabled", budget_tokens: 4096 });
    const bad = await call(streamRequest(body([{ type: "signed", text: THOUGHT }]), auth), env);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { field: string } }).error.field).toBe(
      "messages[1].reasoning_parts[0].signature",
    );
    const text = await call(
      streamRequest(
        validBody({
          messages: [
            { role: "user", content: ask },
            { role: "assistant", content: "", reasoning: 5 },
          ],
        }),
        auth,
      ),
      env,
    );
    expect(((await text.json()) as { error: { field: string } }).error.field).toBe("messages[1].reasoning");
  });
});
