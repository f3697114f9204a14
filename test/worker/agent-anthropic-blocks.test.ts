// Claude Code's conversation through `/v1/messages` to an Anthropic upstream keeps what Anthropic
// needs back (issue 34): a `tool_use`'s `caller` (programmatic tool calling) and `toolset_name`, and the `compaction`
// and `fallback` blocks in their place among the thinking blocks, asserted on the exact body the
// fake Anthropic receives; and the Worker's answer to a server-tools-only turn ends `end_turn`.
import Anthropic from "@anthropic-ai/sdk";
import type { BetaMessageParam } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import { describe, expect, it } from "vitest";
import { anthropicSse, FALLBACK, thinkingBlock } from "./anthropic-blocks.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });
const sdk = (upstream: FakeUpstream): Anthropic =>
  new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });

const CALLER = { type: "code_execution_20250825", tool_id: "srvtoolu_code_1" } as const;
const COMPACTION = { type: "compaction", content: "Earlier: planning a trip.", encrypted_content: "ENC1" } as const;

/** The messages a fake Anthropic was sent for `messages` with one client tool `name` (it answers 500: the request is what is checked). */
async function sentMessages(name: string, messages: BetaMessageParam[]): Promise<BetaMessageParam[]> {
  const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const tools = [{ name, input_schema: { type: "object" as const } }];
  await sdk(upstream)
    .beta.messages.create({ model: "anthropic/claude-x", max_tokens: 1024, stream: true, tools, messages })
    .catch(() => undefined);
  return (upstream.requests[0]!.body as { messages: BetaMessageParam[] }).messages;
}

describe("/v1/messages to an Anthropic upstream: caller, compaction and fallback blocks", () => {
  it("the next turn sends the tool_use with its caller, and the compaction, MCP listing, upload and fallback blocks in place", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const assistant: BetaMessageParam = {
      role: "assistant",
      content: [
        COMPACTION,
        // Sent back unchanged too (@anthropic-ai/sdk 1.12: BetaMCPToolListingBlockParam, BetaContainerUploadBlockParam).
        { type: "mcp_tool_listing", mcp_server_name: "tickets", tools: [] },
        { type: "container_upload", file_id: "file_011" },
        { type: "thinking", thinking: "Refused model.", signature: "sigA" },
        FALLBACK,
        { type: "thinking", thinking: "Fallback model.", signature: "sigB" },
        { type: "text", text: "Rolling." },
        { type: "tool_use", id: "toolu_roll_1", name: "rollDie", input: { player: "p1" }, caller: CALLER },
      ],
    };
    await sdk(upstream)
      .beta.messages.create({
        model: "anthropic/claude-x",
        max_tokens: 1024,
        stream: true,
        tools: [{ name: "rollDie", input_schema: { type: "object", properties: { player: { type: "string" } } } }],
        messages: [
          { role: "user", content: "Play dice." },
          assistant,
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_roll_1", content: "4" }] },
        ],
      })
      .catch(() => undefined);
    const sent = upstream.requests[0]!.body as { messages: BetaMessageParam[] };
    expect(sent.messages[1]).toEqual(assistant);
    expect(sent.messages[2]).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_roll_1", content: "4" }],
    });
  });

  // A toolset member's call (@anthropic-ai/sdk 1.12: BetaToolUseBlockParam.toolset_name, and
  // BetaToolResultBlockParam.toolset_name, "the toolset family of the paired tool_use").
  it("a toolset member's tool_use and its tool_result go back with their toolset_name", async () => {
    const member = {
      type: "tool_use",
      id: "toolu_nav",
      name: "navigate",
      input: { url: "https://example.com" },
    } as const;
    const result = { type: "tool_result", tool_use_id: "toolu_nav", content: "Loaded." } as const;
    const sent = await sentMessages("navigate", [
      { role: "user", content: "Open example.com" },
      { role: "assistant", content: [{ ...member, toolset_name: "browser", caller: CALLER }] },
      { role: "user", content: [{ ...result, toolset_name: "browser" }] },
    ]);
    expect(sent.slice(1)).toEqual([
      { role: "assistant", content: [{ ...member, caller: CALLER, toolset_name: "browser" }] },
      { role: "user", content: [{ ...result, toolset_name: "browser" }] },
    ]);
  });

  it("a tool_use right before a fallback block (the call the refusal cut off) is left out, with its tool_result", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const thinkingA = { type: "thinking" as const, thinking: "Refused model.", signature: "sigA" };
    const thinkingB = { type: "thinking" as const, thinking: "Fallback model.", signature: "sigB" };
    const ok = { type: "tool_use" as const, id: "toolu_ok", name: "rollDie", input: { player: "p1" } };
    await sdk(upstream)
      .beta.messages.create({
        model: "anthropic/claude-x",
        max_tokens: 1024,
        stream: true,
        tools: [{ name: "rollDie", input_schema: { type: "object", properties: { player: { type: "string" } } } }],
        messages: [
          { role: "user", content: "Play dice." },
          {
            role: "assistant",
            content: [
              thinkingA,
              { type: "text", text: "Rolling. " },
              { type: "tool_use", id: "toolu_cut", name: "rollDie", input: { player: "p" } },
              FALLBACK,
              thinkingB,
              { type: "text", text: "Rolling again." },
              ok,
            ],
          },
          // A client that ran both calls: one message of both results, then one of the cut call's alone.
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "toolu_cut", content: "3" },
              { type: "tool_result", tool_use_id: "toolu_ok", content: "4" },
            ],
          },
          { role: "assistant", content: "Done." },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_cut", content: "3" }] },
          { role: "user", content: "Again?" },
        ],
      })
      .catch(() => undefined);
    const sent = upstream.requests[0]!.body as { messages: BetaMessageParam[] };
    expect(sent.messages.slice(1)).toEqual([
      {
        role: "assistant",
        // In the client's block order: the first model's text before the fallback block.
        content: [
          thinkingA,
          { type: "text", text: "Rolling. " },
          FALLBACK,
          thinkingB,
          { type: "text", text: "Rolling again." },
          ok,
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_ok", content: "4" }] },
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
      { role: "user", content: [{ type: "text", text: "Again?" }] },
    ]);
  });

  it("the Worker's answer carries the caller and the compaction and fallback blocks, and they come back unchanged", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: anthropicSse(
        { type: "message_start", message: { id: "m", content: [], usage: { input_tokens: 50, output_tokens: 1 } } },
        { type: "content_block_start", index: 0, content_block: { type: "compaction", content: null } },
        { type: "content_block_delta", index: 0, delta: { ...COMPACTION, type: "compaction_delta" } },
        { type: "content_block_stop", index: 0 },
        ...thinkingBlock(1, "Refused model.", "sigA"),
        { type: "content_block_start", index: 2, content_block: FALLBACK },
        { type: "content_block_stop", index: 2 },
        ...thinkingBlock(3, "Fallback model.", "sigB"),
        { type: "content_block_start", index: 4, content_block: { type: "text", text: "Rolling." } },
        { type: "content_block_stop", index: 4 },
        {
          type: "content_block_start",
          index: 5,
          content_block: { type: "tool_use", id: "toolu_roll_1", name: "rollDie", input: {}, caller: CALLER },
        },
        { type: "content_block_delta", index: 5, delta: { type: "input_json_delta", partial_json: '{"player":"p1"}' } },
        { type: "content_block_stop", index: 5 },
        { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } },
        { type: "message_stop" },
      ),
    });
    const client = sdk(upstream);
    const tools = [
      { name: "rollDie", input_schema: { type: "object" as const, properties: { player: { type: "string" } } } },
    ];
    const first: BetaMessageParam = { role: "user", content: "Play dice." };
    const message = await client.beta.messages
      .stream({ model: "anthropic/claude-x", max_tokens: 1024, tools, messages: [first] })
      .finalMessage();
    const expected = [
      COMPACTION,
      { type: "thinking", thinking: "Refused model.", signature: "sigA" },
      FALLBACK,
      { type: "thinking", thinking: "Fallback model.", signature: "sigB" },
      { type: "text", text: "Rolling." },
      { type: "tool_use", id: "toolu_roll_1", name: "rollDie", input: { player: "p1" }, caller: CALLER },
    ];
    expect(message.content.map((block) => ({ ...block, citations: undefined }))).toEqual(
      expected.map((block) => ({ ...block, citations: undefined })),
    );
    expect(message.stop_reason).toBe("tool_use");
    // The next turn, as Claude Code sends it: the message's content back, and the call's result.
    await client.beta.messages
      .create({
        model: "anthropic/claude-x",
        max_tokens: 1024,
        stream: true,
        tools,
        messages: [
          first,
          { role: "assistant", content: message.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_roll_1", content: "4" }] },
        ],
      })
      .catch(() => undefined);
    const sent = upstream.requests[1]!.body as { messages: BetaMessageParam[] };
    expect(sent.messages[1]).toEqual({ role: "assistant", content: expected });
  });

  it("a tool's eager_input_streaming reaches Anthropic's tools as Claude Code set it", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    await sdk(upstream)
      .messages.create({
        model: "anthropic/claude-x",
        max_tokens: 1024,
        stream: true,
        tools: [
          { name: "Write", input_schema: { type: "object" }, eager_input_streaming: true },
          { name: "Read", input_schema: { type: "object" } },
        ],
        messages: [{ role: "user", content: "Write it." }],
      })
      .catch(() => undefined);
    const tools = (upstream.requests[0]!.body as { tools: Record<string, unknown>[] }).tools;
    expect(tools.map((tool) => [tool["name"], tool["eager_input_streaming"]])).toEqual([
      ["Write", true],
      ["Read", undefined],
    ]);
  });

  it("a block that is not Anthropic's to keep is a 400 naming it", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const error = await sdk(upstream)
      .messages.create({
        model: "anthropic/claude-x",
        max_tokens: 1024,
        messages: [
          { role: "user", content: "Hi" },
          { role: "assistant", content: [{ type: "mystery", data: "x" } as never] },
        ],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((error as Error).message)).toContain("messages[1].content[0].type");
    expect(upstream.requests).toHaveLength(0);
  });

  it("an upstream turn of server tools alone ends end_turn for the client, not tool_use", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: anthropicSse(
        { type: "message_start", message: { id: "m", content: [], usage: { input_tokens: 5, output_tokens: 1 } } },
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "tides" } },
        },
        { type: "content_block_stop", index: 0 },
        {
          type: "content_block_start",
          index: 1,
          content_block: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
        },
        { type: "content_block_stop", index: 1 },
        { type: "content_block_start", index: 2, content_block: { type: "text", text: "High tide at 14:05." } },
        { type: "content_block_stop", index: 2 },
        { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 9 } },
        { type: "message_stop" },
      ),
    });
    const message = await sdk(upstream)
      .messages.stream({
        model: "anthropic/claude-x",
        max_tokens: 1024,
        messages: [{ role: "user", content: "Tides?" }],
      })
      .finalMessage();
    expect(message.stop_reason).toBe("end_turn");
    expect(message.content.filter((block) => block.type === "tool_use")).toEqual([]);
    expect(message.content.filter((block) => block.type === "text").map((block) => block.text)).toEqual([
      "High tide at 14:05.",
    ]);
  });
});
