// Prompt caching across the gateway: Anthropic caches a prompt only up to a block marked
// `cache_control`, and a Messages client's marks (Claude Code marks its system prompt and its last
// messages) cannot travel where they were, as the Worker's request has one text per message.
// Before, they were dropped, so Claude Code through the Worker to Anthropic read nothing from the
// cache, turn after turn. Now a request that marks anything, or an OpenAI client's
// `prompt_cache_key` (Codex sends its conversation's), is sent to Anthropic with the system
// prompt and the last block marked; OpenAI, which caches unasked, is sent no mark.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({
  ANTHROPIC_API_KEY: "k",
  ANTHROPIC_BASE_URL: "https://provider.test/v1",
  OPENAI_API_KEY: "k",
  OPENAI_BASE_URL: "https://provider.test/v1",
  CLIENT_TOKEN: "t",
});

const EPHEMERAL = { type: "ephemeral" };

/** The body the provider of `model` receives for a Messages request with `extra` (it answers 500: only the request matters). */
async function messagesBody(model: string, extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  const fake = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const sdk = new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env, upstream: fake }),
    maxRetries: 0,
  });
  await sdk.messages
    .create({ model, max_tokens: 1024, stream: true, messages: [], ...extra } as never)
    .catch(() => undefined);
  return fake.requests[0]!.body;
}

/** Claude Code's shape: its system blocks marked, its last user block marked. */
function claudeCodeTurn(ttl?: "1h") {
  const mark = { type: "ephemeral", ...(ttl && { ttl }) };
  return {
    system: [
      { type: "text", text: "You are Claude Code." },
      { type: "text", text: "Work in the repository.", cache_control: mark },
    ],
    tools: [{ name: "Bash", description: "Run", input_schema: { type: "object" }, cache_control: mark }],
    messages: [
      { role: "user", content: [{ type: "text", text: "List the files." }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "a.ts", cache_control: mark }],
      },
    ],
  };
}

describe("prompt caching: a Messages client's cache_control marks", () => {
  it("reach Anthropic as marks on the system prompt and on the last block", async () => {
    const body = await messagesBody("anthropic/claude-sonnet-4-6", claudeCodeTurn());
    expect(body["system"]).toEqual([
      { type: "text", text: "You are Claude Code.\nWork in the repository.", cache_control: EPHEMERAL },
    ]);
    const messages = body["messages"] as { content: Record<string, unknown>[] }[];
    const last = messages.at(-1)!.content;
    expect(last.at(-1)).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1", cache_control: EPHEMERAL });
    // Two marks in all (Anthropic takes four at most), none elsewhere.
    expect(JSON.stringify(body).split('"cache_control"').length - 1).toBe(2);
  });

  it("a one-hour mark anywhere makes both marks one hour long; a top-level mark counts", async () => {
    const body = await messagesBody("anthropic/claude-sonnet-4-6", claudeCodeTurn("1h"));
    const hour = { type: "ephemeral", ttl: "1h" };
    expect((body["system"] as Record<string, unknown>[])[0]!["cache_control"]).toEqual(hour);
    const top = await messagesBody("anthropic/claude-sonnet-4-6", {
      cache_control: { type: "ephemeral" },
      messages: [{ role: "user", content: "Hi." }],
    });
    expect(top["messages"]).toEqual([
      { role: "user", content: [{ type: "text", text: "Hi.", cache_control: EPHEMERAL }] },
    ]);
    expect(top).not.toHaveProperty("cache_control");
  });

  it("without a mark nothing is marked; a mark that is no ephemeral object is ignored, never a 400", async () => {
    const plain = await messagesBody("anthropic/claude-sonnet-4-6", {
      system: "Be brief.",
      messages: [{ role: "user", content: [{ type: "text", text: "Hi.", cache_control: { type: "other" } }] }],
    });
    expect(plain["system"]).toBe("Be brief.");
    expect(JSON.stringify(plain)).not.toContain("cache_control");
  });

  it("an OpenAI upstream, which caches unasked, is sent no mark", async () => {
    const body = await messagesBody("openai/gpt-5", claudeCodeTurn());
    expect(JSON.stringify(body)).not.toContain("cache_control");
  });
});

describe("prompt caching: an OpenAI client's prompt_cache_key", () => {
  async function chatBody(extra: Record<string, unknown>): Promise<Record<string, unknown>> {
    const fake = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const sdk = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env, upstream: fake }),
      maxRetries: 0,
    });
    await sdk.chat.completions
      .create({
        model: "anthropic/claude-sonnet-4-6",
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Hi." },
        ],
        ...extra,
      } as never)
      .catch(() => undefined);
    return fake.requests[0]!.body;
  }

  it("marks Anthropic's system prompt and last block; a 24h retention is Anthropic's 1h", async () => {
    const keyed = await chatBody({ prompt_cache_key: "conversation-1" });
    expect(keyed["system"]).toEqual([{ type: "text", text: "Be brief.", cache_control: EPHEMERAL }]);
    expect(keyed["messages"]).toEqual([
      { role: "user", content: [{ type: "text", text: "Hi.", cache_control: EPHEMERAL }] },
    ]);
    const day = await chatBody({ prompt_cache_key: "conversation-1", prompt_cache_retention: "24h" });
    expect((day["system"] as Record<string, unknown>[])[0]!["cache_control"]).toEqual({ type: "ephemeral", ttl: "1h" });
    expect(JSON.stringify(await chatBody({}))).not.toContain("cache_control");
  });

  it("a Responses client's (Codex's) prompt_cache_key too", async () => {
    const fake = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const sdk = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env, upstream: fake }),
      maxRetries: 0,
    });
    await sdk.responses
      .create({
        model: "anthropic/claude-sonnet-4-6",
        input: "Hi.",
        instructions: "Be brief.",
        prompt_cache_key: "c-1",
        store: false,
      })
      .catch(() => undefined);
    const body = fake.requests[0]!.body;
    expect(body["system"]).toEqual([{ type: "text", text: "Be brief.", cache_control: EPHEMERAL }]);
  });
});
