// Reasoning asked for by an agent reaches each provider in the provider's own knob: Claude Code's
// `thinking` (a budget, or adaptive with `output_config.effort`) and Codex's `reasoning.effort`,
// through the real SDKs, asserted on the exact body each fake provider receives: the body without
// reasoning plus the knob, nothing else changed.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI, { BadRequestError } from "openai";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { upstreamProviders } from "../../worker/upstream/providers/index.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, streamRequest, testEnv, validBody, worker } from "./support.ts";

/** Each provider called live (its base URL on a fake upstream that never answers), with a model whose knob is tested. */
const LIVE: Record<string, { env: Partial<Env>; model: string }> = {
  openai: { env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" }, model: "gpt-5" },
  "openai-responses": { env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" }, model: "gpt-5" },
  anthropic: { env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1" }, model: "claude-x" },
  gemini: { env: { GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta" }, model: "gemini-2.5-flash" },
  bedrock: {
    env: { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret", AWS_REGION: "us-west-2" },
    model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
  },
  cohere: { env: { COHERE_API_KEY: "k", COHERE_BASE_URL: "https://provider.test/v2" }, model: "command-a-reasoning" },
  ollama: { env: { OLLAMA_BASE_URL: "https://provider.test" }, model: "qwen3:8b" },
  "gemini-interactions": {
    env: { GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta" },
    model: "gemini-3-flash-preview",
  },
};

/** The body `provider` receives for a streamed Messages request with `extra` (the fake answers 500: only the request matters). */
async function messagesBody(provider: string, extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const env = testEnv({ ...LIVE[provider]!.env, CLIENT_TOKEN: "t" });
  const sdk = new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });
  await sdk.messages
    .create({
      model: `${provider}/${LIVE[provider]!.model}`,
      max_tokens: 32_000,
      messages: [{ role: "user", content: "Think, then answer." }],
      stream: true,
      ...extra,
    })
    .catch(() => undefined);
  return upstream.requests[0]!.body;
}

/** The body `provider` receives for a Responses request with `extra`. */
async function responsesBody(provider: string, extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const env = testEnv({ ...LIVE[provider]!.env, CLIENT_TOKEN: "t" });
  const sdk = new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });
  await sdk.responses
    .create({ model: `${provider}/${LIVE[provider]!.model}`, input: "Think, then answer.", ...extra })
    .catch(() => undefined);
  return upstream.requests[0]!.body;
}

/** `body` is `base` with `added` merged in at the top level (objects merged one level deep). */
function expectAdded(body: Record<string, unknown>, base: Record<string, unknown>, added: Record<string, unknown>) {
  const expected: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(added))
    expected[key] =
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? { ...(base[key] as object | undefined), ...value }
        : value;
  expect(body).toEqual(expected);
}

/** Claude Code's `thinking` for the Claude names it knows: a budget of 31,999 under max_tokens 32,000. */
const CLAUDE_CODE_THINKING = { thinking: { type: "enabled", budget_tokens: 31_999 } };
const BUDGET_KNOB: Record<string, Record<string, unknown>> = {
  openai: { reasoning_effort: "high" },
  "openai-responses": { reasoning: { effort: "high" }, include: ["reasoning.encrypted_content"] },
  anthropic: { thinking: { type: "enabled", budget_tokens: 31_999 } },
  gemini: { generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 24_576 } } },
  bedrock: { additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens: 31_999 } } },
  cohere: { thinking: { type: "enabled", token_budget: 31_999 } },
  ollama: { think: true },
  "gemini-interactions": { generation_config: { thinking_level: "high", thinking_summaries: "auto" } },
};

/** Codex's `reasoning` with an effort, and no max_output_tokens: Claude gets the budget and 4,096 tokens for the answer. */
const CODEX_REASONING = { reasoning: { effort: "low", summary: "auto" }, include: ["reasoning.encrypted_content"] };
const EFFORT_KNOB: Record<string, Record<string, unknown>> = {
  openai: { reasoning_effort: "low" },
  "openai-responses": { reasoning: { effort: "low", summary: "auto" }, include: ["reasoning.encrypted_content"] },
  anthropic: { thinking: { type: "enabled", budget_tokens: 4096 }, max_tokens: 8192 },
  gemini: { generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 4096 } } },
  bedrock: {
    additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens: 4096 } },
    inferenceConfig: { maxTokens: 8192 },
  },
  cohere: { thinking: { type: "enabled", token_budget: 4096 } },
  ollama: { think: true },
  "gemini-interactions": { generation_config: { thinking_level: "low", thinking_summaries: "auto" } },
};

describe("reasoning asked for by an agent reaches each provider in its own knob", () => {
  for (const provider of Object.keys(upstreamProviders)) {
    it(`${provider}: Claude Code's thinking budget, its adaptive thinking, and Codex's reasoning effort`, async () => {
      const plain = await messagesBody(provider, {});
      expectAdded(await messagesBody(provider, CLAUDE_CODE_THINKING), plain, BUDGET_KNOB[provider]!);
      // Adaptive (Claude Code's for a name it does not know): the model decides. A Claude model
      // from before adaptive thinking thinks at the effort's budget; the other providers keep their default.
      const adaptive = await messagesBody(provider, {
        thinking: { type: "adaptive", display: "omitted" },
        output_config: { effort: "high" },
      });
      if (provider === "anthropic" || provider === "bedrock") expectAdded(adaptive, plain, BUDGET_KNOB[provider]!);
      else expect(adaptive).toEqual(plain);

      const base = await responsesBody(provider, {});
      expectAdded(await responsesBody(provider, CODEX_REASONING), base, EFFORT_KNOB[provider]!);
      // Codex's reasoning for a model it does not know has no effort: the provider's default.
      expect(await responsesBody(provider, { reasoning: { summary: "auto" } })).toEqual(base);
    });
  }

  it("a Messages thinking of type disabled is off; a Responses effort none is off", async () => {
    expect(await messagesBody("ollama", { thinking: { type: "disabled" } })).toMatchObject({ think: false });
    expect(await responsesBody("ollama", { reasoning: { effort: "none" } })).toMatchObject({ think: false });
    expect(await responsesBody("openai", { reasoning: { effort: "none" } })).not.toHaveProperty("reasoning_effort");
  });

  it("a bad budget or effort is a 400 naming its path in the client's protocol", async () => {
    const upstream = new FakeUpstream({ kind: "hang" });
    const env = testEnv({ ...LIVE["openai"]!.env, CLIENT_TOKEN: "t" });
    const fetch = workerFetch({ env, upstream });
    const messages = await fetch("http://localhost:8787/v1/messages", {
      method: "POST",
      headers: { "x-api-key": "t", "content-type": "application/json" },
      body: JSON.stringify({
        model: "openai/gpt-5",
        max_tokens: 1024,
        thinking: { type: "enabled", budget_tokens: "lots" },
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(messages.status).toBe(400);
    expect(JSON.stringify(await messages.json())).toContain("thinking.budget_tokens");
    const sdk = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
    const error = await sdk.responses
      .create({ model: "openai/gpt-5", input: "hi", reasoning: { effort: "extreme" as "high" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).param).toBe("reasoning.effort");
    expect(upstream.requests).toHaveLength(0);
  });

  it("a thinking or reasoning that is no object, or a thinking type that is no string, is a 400 naming it, not dropped", async () => {
    // Anthropic and OpenAI refuse these; dropped, the answer came without the reasoning asked for.
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const fetch = workerFetch({ env: testEnv({ ...LIVE["openai"]!.env, CLIENT_TOKEN: "t" }), upstream });
    const send = (path: string, body: Record<string, unknown>) =>
      fetch(`http://localhost:8787${path}`, {
        method: "POST",
        headers: { authorization: "Bearer t", "content-type": "application/json" },
        body: JSON.stringify({ model: "openai/gpt-5", ...body }),
      });
    const messages = { max_tokens: 1024, messages: [{ role: "user", content: "hi" }] };
    for (const [thinking, field] of [
      ["enabled", "thinking"],
      [true, "thinking"],
      [[{ type: "enabled", budget_tokens: 2048 }], "thinking"],
      [{ type: 1 }, "thinking.type"],
      [{ budget_tokens: 2048 }, "thinking.type"],
    ] as const) {
      const answer = await send("/v1/messages", { ...messages, thinking });
      const { error } = (await answer.json()) as { error: { message: string } };
      expect([answer.status, error.message]).toEqual([400, expect.stringContaining(`\`${field}\``)]);
    }
    for (const reasoning of ["high", true, [{ effort: "high" }]]) {
      const answer = await send("/v1/responses", { input: "hi", reasoning });
      const { error } = (await answer.json()) as { error: { param: string } };
      expect([answer.status, error.param]).toEqual([400, "reasoning"]);
    }
    expect(upstream.requests).toHaveLength(0);
    // null is absent, and a mode this Worker does not know is still the provider's default.
    const unknown = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const lenient = workerFetch({ env: testEnv({ ...LIVE["openai"]!.env, CLIENT_TOKEN: "t" }), upstream: unknown });
    for (const [path, body] of [
      ["/v1/messages", { ...messages, thinking: null }],
      ["/v1/messages", { ...messages, thinking: { type: "someday" } }],
      ["/v1/responses", { input: "hi", reasoning: null }],
    ] as const)
      await lenient(`http://localhost:8787${path}`, {
        method: "POST",
        headers: { authorization: "Bearer t", "content-type": "application/json" },
        body: JSON.stringify({ model: "openai/gpt-5", ...body }),
      });
    expect(unknown.requests).toHaveLength(3);
  });
});

describe("POST /v1/chat/completions takes reasoning_effort as the same effort", () => {
  it("OpenAI is sent it as it is, Anthropic a budget; none is off, and a bad value a 400 at reasoning_effort", async () => {
    const sent = async (provider: string, effort: string) => {
      const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
      const env = testEnv({ ...LIVE[provider]!.env, CLIENT_TOKEN: "t" });
      const sdk = new OpenAI({
        baseURL: "http://localhost:8787/v1",
        apiKey: "t",
        fetch: workerFetch({ env, upstream }),
        maxRetries: 0,
      });
      const error = await sdk.chat.completions
        .create({
          model: `${provider}/${LIVE[provider]!.model}`,
          messages: [{ role: "user", content: "Think, then answer." }],
          reasoning_effort: effort as "high",
        })
        .catch((e: unknown) => e);
      return { body: upstream.requests[0]?.body, error };
    };
    expect((await sent("openai", "high")).body).toMatchObject({ reasoning_effort: "high" });
    expect((await sent("openai", "none")).body).not.toHaveProperty("reasoning_effort");
    expect((await sent("anthropic", "low")).body).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 4096 },
      max_tokens: 8192,
    });
    const bad = await sent("openai", "extreme");
    expect(bad.body).toBeUndefined();
    expect(bad.error).toBeInstanceOf(BadRequestError);
    expect((bad.error as BadRequestError).param).toBe("reasoning_effort");
  });
});

describe("POST /v1/stream takes reasoning as its own field", () => {
  const env = () => testEnv({ ...LIVE["openai"]!.env, CLIENT_TOKEN: "t" });
  const auth = { headers: { authorization: "Bearer t" } };

  it("a budget becomes its effort, and a bad reasoning is a 400 naming its field", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const { call } = worker(upstream);
    await call(streamRequest(validBody({ reasoning: { type: "on", budget_tokens: 16_000 } }), auth), env());
    expect(upstream.requests[0]!.body["reasoning_effort"]).toBe("medium");
    for (const [reasoning, field] of [
      [{ type: "sometimes" }, "reasoning.type"],
      [{ type: "on" }, "reasoning"],
      [{ type: "on", effort: "huge" }, "reasoning.effort"],
      [{ type: "on", budget_tokens: 0 }, "reasoning.budget_tokens"],
      [{ type: "on", effort: "low", summary: "long" }, "reasoning.summary"],
      ["high", "reasoning"],
    ] as const) {
      const response = await call(streamRequest(validBody({ reasoning }), auth), env());
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { field: string } }).error.field).toBe(field);
    }
    expect(upstream.requests).toHaveLength(1);
  });
});

describe("a Responses client's store", () => {
  it("store: false (Codex sends it) reaches an OpenAI Responses upstream; absent, none is sent; other providers never get one", async () => {
    expect((await responsesBody("openai-responses", { store: false }))["store"]).toBe(false);
    expect(await responsesBody("openai-responses", {})).not.toHaveProperty("store");
    for (const provider of ["openai", "anthropic", "gemini", "cohere", "ollama"])
      expect(await responsesBody(provider, { store: false })).not.toHaveProperty("store");
  });

  it("a store that is not a boolean is a 400 at store", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const env = testEnv({ ...LIVE["openai-responses"]!.env, CLIENT_TOKEN: "t" });
    const sdk = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch: workerFetch({ env, upstream }) });
    const error = await sdk.responses
      .create({ model: "openai-responses/gpt-5", input: "Hi", store: "no" as unknown as boolean })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).param).toBe("store");
    expect(upstream.requests).toHaveLength(0);
  });
});
