// Anthropic's server tools (web search, web fetch, code execution: a `type` with a date) through
// `/v1/messages`, `@anthropic-ai/sdk` as the client (issue 34). They run on Anthropic's side and
// bill the operator's key, so they reach an Anthropic upstream only when the deployment lists their
// kind in ANTHROPIC_SERVER_TOOLS, as given, after the client's tools, with a container's `skills`;
// otherwise they are dropped, and a `tool_choice` naming one (how Claude Code's WebSearch forces
// its `web_search` tool in the request it makes for a search) is a 400 in Anthropic's error shape
// that names it, not an answer that never searched.
import Anthropic from "@anthropic-ai/sdk";
import type {
  BetaCodeExecutionTool20250825,
  BetaWebFetchTool20250910,
  BetaWebSearchTool20250305,
} from "@anthropic-ai/sdk/resources/beta/messages/messages";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { anthropicSse, serverToolUseBlock, textBlock, textTurn } from "./anthropic-blocks.ts";
import { OPENAI_ANTHROPIC_ENV, workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const WEB_SEARCH: BetaWebSearchTool20250305 = {
  type: "web_search_20250305",
  name: "web_search",
  max_uses: 8,
  allowed_domains: ["example.com"],
};
const CODE: BetaCodeExecutionTool20250825 = { type: "code_execution_20250825", name: "code_execution" };
const WEB_FETCH: BetaWebFetchTool20250910 = { type: "web_fetch_20250910", name: "web_fetch", max_uses: 2 };
const OWN = { name: "read_file", description: "Reads a file.", input_schema: { type: "object" as const } };
const SKILLS = [{ type: "anthropic" as const, skill_id: "xlsx", version: "latest" }];

const anthropicEnv = (serverTools?: string): Env =>
  testEnv({
    ANTHROPIC_API_KEY: "k",
    ANTHROPIC_BASE_URL: "https://provider.test/v1",
    CLIENT_TOKEN: "t",
    ...(serverTools !== undefined ? { ANTHROPIC_SERVER_TOOLS: serverTools } : {}),
  });
const answer = (): FakeUpstream => new FakeUpstream({ kind: "sse", chunks: textTurn("Done.") });
const sdk = (env: Env, upstream: FakeUpstream): Anthropic =>
  new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });

/** Claude Code's request for a search: the server tool alone, forced. */
const search = (model = "anthropic/claude-x") =>
  ({
    model,
    max_tokens: 1024,
    messages: [{ role: "user" as const, content: "Perform a web search for the query: tide times Oban" }],
    tools: [WEB_SEARCH],
    tool_choice: { type: "tool" as const, name: "web_search" },
    stream: true as const,
  }) as Anthropic.MessageCreateParamsStreaming;

describe("/v1/messages with Anthropic's server tools", () => {
  it("off (the default): the client's tools reach Anthropic without the server tools, and a container without its skills", async () => {
    const upstream = answer();
    const message = await sdk(anthropicEnv(), upstream)
      .beta.messages.stream({
        model: "anthropic/claude-x",
        max_tokens: 1024,
        messages: [{ role: "user", content: "Sum the sheet." }],
        tools: [OWN, WEB_SEARCH, CODE],
        container: { id: "cntr_1", skills: SKILLS },
      })
      .finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(["text"]);
    const body = upstream.requests[0]!.body;
    expect((body["tools"] as { name: string }[]).map((tool) => tool.name)).toEqual(["read_file"]);
    expect(body["container"]).toBe("cntr_1");
  });

  it("off: a tool_choice naming a server tool is a 400 in Anthropic's shape naming it, and nothing reaches the provider", async () => {
    const upstream = answer();
    const error = await sdk(anthropicEnv(), upstream)
      .messages.create(search())
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const { error: body } = (error as InstanceType<typeof Anthropic.BadRequestError>).error as {
      error: { type: string; message: string };
    };
    expect(body.type).toBe("invalid_request_error");
    expect(body.message).toContain("tool_choice.name");
    expect(body.message).toContain("web_search_20250305");
    expect(body.message).toContain("ANTHROPIC_SERVER_TOOLS");
    expect(upstream.requests).toHaveLength(0);
  });

  it("on: the listed kinds reach Anthropic as given after the client's tools, forced when tool_choice names one, with the container's skills", async () => {
    const upstream = answer();
    await sdk(anthropicEnv("web_search, code_execution"), upstream)
      .beta.messages.stream({
        model: "anthropic/claude-x",
        max_tokens: 1024,
        messages: [{ role: "user", content: "Search, then sum the sheet." }],
        tools: [WEB_SEARCH, OWN, WEB_FETCH, CODE],
        tool_choice: { type: "tool", name: "web_search" },
        container: { id: "cntr_1", skills: SKILLS },
      })
      .finalMessage();
    const body = upstream.requests[0]!.body;
    expect((body["tools"] as unknown[]).slice(1)).toEqual([WEB_SEARCH, CODE]); // web_fetch is not listed
    expect((body["tools"] as { name: string }[])[0]!.name).toBe("read_file");
    expect(body["tool_choice"]).toEqual({ type: "tool", name: "web_search" });
    expect(body["container"]).toEqual({ id: "cntr_1", skills: SKILLS });
  });

  it("on: Claude Code's search request reaches Anthropic with its server tool forced", async () => {
    const upstream = answer();
    const stream = await sdk(anthropicEnv("web_search"), upstream).messages.create(search());
    for await (const _event of stream);
    const body = upstream.requests[0]!.body;
    expect([body["tools"], body["tool_choice"]]).toEqual([[WEB_SEARCH], { type: "tool", name: "web_search" }]);
  });

  it("on, another provider: dropped, and a tool_choice naming one is the same 400", async () => {
    const upstream = answer();
    const env = { ...OPENAI_ANTHROPIC_ENV, ANTHROPIC_SERVER_TOOLS: "web_search" };
    const error = await sdk(env, upstream)
      .messages.create(search("openai/gpt-5"))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const { error: body } = (error as InstanceType<typeof Anthropic.BadRequestError>).error as {
      error: { type: string; message: string };
    };
    expect(body.type).toBe("invalid_request_error");
    expect(body.message).toContain("tool_choice.name");
    expect(upstream.requests).toHaveLength(0);
  });

  it("on: the answer's server call and result reach the client as Anthropic sent them, and go back in place next turn", async () => {
    const HITS = {
      type: "web_search_tool_result",
      tool_use_id: "srvtoolu_1",
      content: [{ type: "web_search_result", url: "https://tides.example", title: "Tides", encrypted_content: "Eo8B" }],
    };
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: anthropicSse(
        { type: "message_start", message: { id: "msg_1", content: [], usage: { input_tokens: 5, output_tokens: 1 } } },
        ...serverToolUseBlock(0, "srvtoolu_1", "web_search", '{"query":"tides Oban"}'),
        { type: "content_block_start", index: 1, content_block: HITS },
        { type: "content_block_stop", index: 1 },
        ...textBlock(2, "High tide at 14:05."),
        { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 9 } },
        { type: "message_stop" },
      ),
    });
    const client = sdk(anthropicEnv("web_search"), upstream);
    const request = { ...search(), stream: false as const };
    const message = await client.beta.messages.stream({ ...request, tool_choice: { type: "auto" } }).finalMessage();
    const searched = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "tides Oban" } };
    expect(message.content.slice(0, 2)).toEqual([searched, HITS]);
    expect(message.stop_reason).toBe("end_turn");
    // The next turn, as an SDK client sends it: the answer's content as it came.
    const nextTurn = async (env: Env, tools?: (typeof OWN)[]) => {
      const next = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
      await sdk(env, next)
        .beta.messages.create({
          ...request,
          ...(tools ? { tools } : {}),
          tool_choice: { type: "auto" },
          messages: [
            ...request.messages,
            { role: "assistant", content: message.content },
            { role: "user", content: "And tomorrow?" },
          ],
        })
        .catch(() => undefined);
      return next.requests[0]!.body["messages"] as { role: string; content: { type: string }[] }[];
    };
    const sent = await nextTurn(anthropicEnv("web_search"));
    expect(sent[1]!.content.map((block) => block.type)).toEqual(["server_tool_use", "web_search_tool_result", "text"]);
    expect(sent[1]!.content.slice(0, 2)).toEqual([searched, HITS]);
    // Off, the same history reaches Anthropic without them.
    const dropped = await nextTurn(anthropicEnv(), [OWN]);
    expect(dropped[1]!.content.map((block) => block.type)).toEqual(["text"]);
  });

  it("on: a server call without its result goes back in a turn that also calls a client tool, not in a paused one", async () => {
    const call = {
      type: "server_tool_use" as const,
      id: "srvtoolu_2",
      name: "web_search" as const,
      input: { query: "ferries" },
    };
    const sent = async (content: Anthropic.Beta.BetaContentBlockParam[], next: Anthropic.Beta.BetaMessageParam) => {
      const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
      await sdk(anthropicEnv("web_search"), upstream)
        .beta.messages.create({
          model: "anthropic/claude-x",
          max_tokens: 256,
          tools: [OWN, WEB_SEARCH],
          messages: [{ role: "user", content: "Ferries and the file?" }, { role: "assistant", content }, next],
        })
        .catch(() => undefined);
      const messages = upstream.requests[0]!.body["messages"] as { content: { type: string }[] }[];
      return messages[1]!.content.map((block) => block.type);
    };
    const use = { type: "tool_use" as const, id: "toolu_3", name: "read_file", input: { path: "a" } };
    const result = { type: "tool_result" as const, tool_use_id: "toolu_3", content: "A." };
    expect(await sent([call, use], { role: "user", content: [result] })).toEqual(["server_tool_use", "tool_use"]);
    expect(await sent([{ type: "text", text: "Searching." }, call], { role: "user", content: "Go on." })).toEqual([
      "text",
    ]);
  });

  it("on for another kind: a server call without its result whose tool is not forwarded is left out, so history cannot run it on the operator's key", async () => {
    const call = {
      type: "server_tool_use" as const,
      id: "srvtoolu_4",
      name: "web_search" as const,
      input: { query: "ferries" },
    };
    const use = { type: "tool_use" as const, id: "toolu_5", name: "read_file", input: { path: "a" } };
    const result = { type: "tool_result" as const, tool_use_id: "toolu_5", content: "A." };
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    await sdk(anthropicEnv("code_execution"), upstream)
      .beta.messages.create({
        model: "anthropic/claude-x",
        max_tokens: 256,
        tools: [OWN, CODE, WEB_SEARCH],
        messages: [
          { role: "user", content: "Ferries and the file?" },
          { role: "assistant", content: [call, use] },
          { role: "user", content: [result] },
        ],
      })
      .catch(() => undefined);
    const body = upstream.requests[0]!.body;
    const messages = body["messages"] as { content: { type: string }[] }[];
    expect(messages[1]!.content.map((block) => block.type)).toEqual(["tool_use"]);
    expect((body["tools"] as { name: string }[]).map((tool) => tool.name)).toEqual(["read_file", "code_execution"]);
  });
});
