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
async function messagesBody(
  model: string,
  extra: Record<string, unknown>,
  settings: typeof env = env,
): Promise<Record<string, unknown>> {
  const fake = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const sdk = new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env: settings, upstream: fake }),
    maxRetries: 0,
  });
  await sdk.messages
    .create({ model, max_tokens: 1024, stream: true, messages: [], ...extra } as never)
    .catch(() => undefined);
  return fake.requests[0]!.body;
}

/** openai-node against the Worker, its provider `fake`. */
function openAI(fake: FakeUpstream): OpenAI {
  return new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env, upstream: fake }),
    maxRetries: 0,
  });
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
    await openAI(fake)
      .chat.completions.create({
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
    await openAI(fake)
      .responses.create({
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

// The Worker's own cache marks must not break Anthropic's rules together with the marks a client's
// kept blocks carry as they came (compaction, container_upload, mcp_tool_listing, fallback, server
// tool blocks go back unchanged, cache_control included): Anthropic allows at most 4 blocks with
// cache_control, and a ttl "1h" mark must not come after a "5m" (default) one. (Found by this stop's
// per-landing review: both failed on 11569600, the commit that added the Worker's marks.)
/** Every cache_control in the order Anthropic reads them (system, then messages' blocks). */
function marks(body: Record<string, unknown>): { ttl?: string }[] {
  const found: { ttl?: string }[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) walk(v);
    else if (value && typeof value === "object") {
      const mark = (value as Record<string, unknown>)["cache_control"];
      if (mark) found.push(mark as { ttl?: string });
      for (const [key, v] of Object.entries(value)) if (key !== "cache_control") walk(v);
    }
  };
  walk(body["tools"]);
  walk(body["system"]);
  walk(body["messages"]);
  return found;
}

const compaction = (n: number, mark: Record<string, unknown>) => ({
  type: "compaction",
  content: `Summary ${n}.`,
  cache_control: mark,
});

describe("prompt caching: the Worker's cache marks beside a client's kept blocks' own", () => {
  it("never more than 4 marks in all", async () => {
    const mark = { type: "ephemeral" };
    const body = await messagesBody("anthropic/claude-sonnet-4-6", {
      system: [{ type: "text", text: "Be brief.", cache_control: mark }],
      messages: [
        { role: "user", content: "Start." },
        { role: "assistant", content: [compaction(1, mark)] },
        { role: "user", content: "Go on." },
        { role: "assistant", content: [compaction(2, mark)] },
        { role: "user", content: "Go on." },
        { role: "assistant", content: [compaction(3, mark)] },
        { role: "user", content: [{ type: "text", text: "And now?", cache_control: mark }] },
      ],
    });
    expect(marks(body).length).toBeLessThanOrEqual(4);
  });

  it("no 1h mark after a 5m one", async () => {
    const body = await messagesBody("anthropic/claude-sonnet-4-6", {
      system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral", ttl: "1h" } }],
      messages: [
        { role: "user", content: "Start." },
        { role: "assistant", content: [compaction(1, { type: "ephemeral" })] },
        { role: "user", content: [{ type: "text", text: "And now?" }] },
      ],
    });
    const ttls = marks(body).map((m) => m.ttl ?? "5m");
    const first5m = ttls.indexOf("5m");
    expect(first5m !== -1 && ttls.slice(first5m).includes("1h"), ttls.join(",")).toBe(false);
    expect(ttls).toEqual(["1h", "1h"]); // the Worker's two, at the longest ttl asked; the compaction's own taken off
  });
});

// The last message's mark must survive the server calls the Worker leaves out after marking (a
// `server_tool_use` without its result whose tool ANTHROPIC_SERVER_TOOLS does not forward): the
// mark the Worker put on such a block, when it was the last, went with it, and the next turn read
// the conversation from no cache. (Failed on 968b299e: the last message had no mark.)
describe("prompt caching: the last mark beside a server call left out", () => {
  it("moves to the block before it", async () => {
    const use = { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a" } };
    const unlisted = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "tides" } };
    const body = await messagesBody(
      "anthropic/claude-sonnet-4-6",
      {
        system: [{ type: "text", text: "Be brief.", cache_control: EPHEMERAL }],
        tools: [{ name: "read_file", input_schema: { type: "object" } }],
        messages: [
          { role: "user", content: "Tides at Oban, and the file?" },
          { role: "assistant", content: [use, unlisted] },
        ],
      },
      { ...env, ANTHROPIC_SERVER_TOOLS: "code_execution" },
    );
    const messages = body["messages"] as { content: Record<string, unknown>[] }[];
    expect(messages.at(-1)!.content).toEqual([{ ...use, cache_control: EPHEMERAL }]);
    expect(marks(body)).toHaveLength(2);
  });
});
