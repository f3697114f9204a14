// Claude's thinking text reaches the client that asked for reasoning on the models that omit it by
// default. Anthropic's `thinking.display` (@anthropic-ai/sdk 1.12 ThinkingConfigAdaptive.display:
// "When set to `summarized`, thinking is returned normally. When set to `omitted`, thinking content
// is redacted but a signature is returned for multi-turn continuity. The default depends on the
// model"; platform.claude.com/docs/en/build-with-claude/thinking: `omitted` is the default from
// Claude Opus 4.7 on) is sent as `summarized` with adaptive thinking, unless a Messages client
// (Claude Code) set its own, which is kept; a budget's thinking (the earlier models) is sent as before.
// Before, it was never sent: a Chat, Responses, AI SDK or
// AG-UI client's reasoning effort on claude-opus-4-7 streamed thinking blocks of no text.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, streamRequest, testEnv, validBody, worker } from "./support.ts";

const env = testEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });

/** What the fake Anthropic upstream received (it answers 500: only the request matters). */
function upstream(): FakeUpstream {
  return new FakeUpstream({ kind: "response", status: 500, body: "{}" });
}

async function messagesThinking(model: string, thinking: Record<string, unknown>) {
  const fake = upstream();
  const sdk = new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env, upstream: fake }),
    maxRetries: 0,
  });
  await sdk.messages
    .create({
      model: `anthropic/${model}`,
      max_tokens: 32_000,
      messages: [{ role: "user", content: "Think, then answer." }],
      stream: true,
      thinking: thinking as never,
    })
    .catch(() => undefined);
  return fake.requests[0]!.body["thinking"];
}

function openAI(fake: FakeUpstream): OpenAI {
  return new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env, upstream: fake }),
    maxRetries: 0,
  });
}

describe("Anthropic's thinking.display on the models that think adaptively", () => {
  it("a Responses client's reasoning effort (Codex): summarized thinking", async () => {
    const fake = upstream();
    await openAI(fake)
      .responses.create({
        model: "anthropic/claude-opus-4-7",
        input: "Hi.",
        reasoning: { effort: "low", summary: "auto" },
      })
      .catch(() => undefined);
    expect(fake.requests[0]!.body["thinking"]).toEqual({ type: "adaptive", display: "summarized" });
    expect(fake.requests[0]!.body["output_config"]).toEqual({ effort: "low" });
  });

  it("a Chat Completions client's reasoning_effort: summarized thinking", async () => {
    const fake = upstream();
    await openAI(fake)
      .chat.completions.create({
        model: "anthropic/claude-sonnet-5",
        messages: [{ role: "user", content: "Hi." }],
        reasoning_effort: "high",
      })
      .catch(() => undefined);
    expect(fake.requests[0]!.body["thinking"]).toEqual({ type: "adaptive", display: "summarized" });
  });

  it("a Messages client's own display is kept; without one, summarized", async () => {
    expect(await messagesThinking("claude-opus-4-7", { type: "adaptive", display: "omitted" })).toEqual({
      type: "adaptive",
      display: "omitted",
    });
    expect(await messagesThinking("claude-fable-5", { type: "adaptive", display: "summarized" })).toEqual({
      type: "adaptive",
      display: "summarized",
    });
    expect(await messagesThinking("claude-opus-4-7", { type: "adaptive" })).toEqual({
      type: "adaptive",
      display: "summarized",
    });
    // A display of no release is the provider's default (a later mode), never a 400.
    expect(await messagesThinking("claude-opus-4-7", { type: "adaptive", display: "later-mode" })).toEqual({
      type: "adaptive",
      display: "summarized",
    });
  });

  it("a model from before adaptive thinking gets its budget as before, with no display (summarized is its default; gateways may refuse the field)", async () => {
    for (const display of [undefined, "omitted"])
      expect(
        await messagesThinking("claude-sonnet-4-5", {
          type: "enabled",
          budget_tokens: 4096,
          ...(display && { display }),
        }),
      ).toEqual({ type: "enabled", budget_tokens: 4096 });
  });
});

describe("Claude on Bedrock: the same display, in additionalModelRequestFields", () => {
  // Bedrock serves the same models with the same default (`omitted` from Opus 4.7 on): Claude Code
  // and the Agent SDK on Bedrock without `display` stream thinking blocks of no text
  // (anthropics/claude-agent-sdk-python#1068, claude-agent-sdk-typescript#337).
  const bedrockEnv = testEnv({
    AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
    AWS_SECRET_ACCESS_KEY: "secret",
    AWS_REGION: "us-west-2",
    CLIENT_TOKEN: "t",
  });
  async function bedrockFields(thinking: Record<string, unknown>) {
    const fake = upstream();
    const sdk = new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      fetch: workerFetch({ env: bedrockEnv, upstream: fake }),
      maxRetries: 0,
    });
    await sdk.messages
      .create({
        model: "bedrock/us.anthropic.claude-opus-4-7",
        max_tokens: 32_000,
        messages: [{ role: "user", content: "Think, then answer." }],
        stream: true,
        thinking: thinking as never,
        output_config: { effort: "high" },
      } as never)
      .catch(() => undefined);
    return fake.requests[0]!.body["additionalModelRequestFields"];
  }

  it("a Messages client's own display is kept; without one, summarized", async () => {
    expect(await bedrockFields({ type: "adaptive", display: "omitted" })).toEqual({
      thinking: { type: "adaptive", display: "omitted" },
      output_config: { effort: "high" },
    });
    expect(await bedrockFields({ type: "adaptive" })).toEqual({
      thinking: { type: "adaptive", display: "summarized" },
      output_config: { effort: "high" },
    });
  });
});

describe("POST /v1/stream: reasoning.display", () => {
  const auth = { headers: { authorization: "Bearer t" } };
  it("rides along to Anthropic with adaptive thinking; a display of no kind is a 400 naming it", async () => {
    const fake = upstream();
    const { call } = worker(fake);
    const ask = (reasoning: unknown) =>
      call(streamRequest(validBody({ provider: "anthropic", model: "claude-opus-4-7", reasoning }), auth), env);
    await (await ask({ type: "adaptive", effort: "low", display: "omitted" })).text();
    expect(fake.requests[0]!.body["thinking"]).toEqual({ type: "adaptive", display: "omitted" });
    await (await ask({ type: "on", effort: "low" })).text();
    expect(fake.requests[1]!.body["thinking"]).toEqual({ type: "adaptive", display: "summarized" });
    const refused = await ask({ type: "adaptive", display: "hidden" });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { field: string } }).error.field).toBe("reasoning.display");
    expect(fake.requests).toHaveLength(2);
  });
});
