// Long and odd tool names through the agent endpoints: a Messages client may name a tool with up to
// 128 characters (Claude Code's MCP tools), a Responses client with up to 64; a provider with a
// stricter rule is sent a short name, and the client reads its own name back, streamed and not,
// while its next turn (the earlier calls, tool_choice) reaches the provider under the short name.
import Anthropic, { BadRequestError as AnthropicBadRequest } from "@anthropic-ai/sdk";
import OpenAI, { BadRequestError as OpenAIBadRequest } from "openai";
import { describe, expect, it } from "vitest";
import { ToolNames } from "../../worker/upstream/tool-names.ts";
import { upstreamProviders } from "../../worker/upstream/providers/index.ts";
import { recordingChunks } from "../../worker/upstream/replay/recording.ts";
import { workerFetch } from "./client-support.ts";
import { chatChunk, FakeUpstream, liveOpenAI, openAIChunks, testEnv } from "./support.ts";

/** An MCP tool as Claude Code names it: 76 characters, past OpenAI's 64. */
const MCP = "mcp__plugin_chrome-devtools-mcp_chrome-devtools__performance_analyze_insight";
const schema = { type: "object" as const, properties: { query: { type: "string" } } };

const anthropic = (upstream: FakeUpstream, env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" })) =>
  new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });
const openai = (upstream: FakeUpstream, env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" })) =>
  new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });

describe("/v1/messages: a tool name past the provider's limit", () => {
  const short = new ToolNames([MCP], upstreamProviders.openai.toolNames).toProvider(MCP);
  const upstream = () =>
    new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([
        chatChunk({ tool_calls: [{ index: 0, id: "call_1", function: { name: short, arguments: '{"query":' } }] }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"lcp"}' } }] }),
        chatChunk({}, "tool_calls"),
      ]),
    });

  it("OpenAI is sent the short name; the client reads the full one, streamed and not", async () => {
    const fake = upstream();
    const request = {
      model: "openai/gpt-4o-mini",
      max_tokens: 256,
      tools: [
        { name: MCP, input_schema: schema },
        { name: "Bash", input_schema: schema },
      ],
      messages: [{ role: "user" as const, content: "Why is the page slow?" }],
    };
    const final = await anthropic(fake).messages.stream(request).finalMessage();
    expect(final.content).toMatchObject([{ type: "tool_use", id: "call_1", name: MCP, input: { query: "lcp" } }]);
    expect(final.stop_reason).toBe("tool_use");
    const whole = await anthropic(fake).messages.create(request);
    expect(whole.content).toMatchObject([{ type: "tool_use", name: MCP }]);
    const sent = fake.requests[0]!.body as { tools: { function: { name: string } }[] };
    expect(sent.tools.map((tool) => tool.function.name)).toEqual([short, "Bash"]);
    expect(JSON.stringify(sent)).not.toContain(MCP);
  });

  it("the next turn's tool_use and tool_choice reach OpenAI under the same short name", async () => {
    const fake = upstream();
    await anthropic(fake).messages.create({
      model: "openai/gpt-4o-mini",
      max_tokens: 256,
      tools: [{ name: MCP, input_schema: schema }],
      tool_choice: { type: "tool", name: MCP },
      messages: [
        { role: "user", content: "Why is the page slow?" },
        { role: "assistant", content: [{ type: "tool_use", id: "call_1", name: MCP, input: { query: "lcp" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "LCP 4.1 s" }] },
      ],
    });
    const sent = fake.requests[0]!.body as {
      tools: { function: { name: string } }[];
      tool_choice: unknown;
      messages: { tool_calls?: { function: { name: string } }[] }[];
    };
    expect(sent.tools[0]!.function.name).toBe(short);
    expect(sent.tool_choice).toEqual({ type: "function", function: { name: short } });
    expect(sent.messages.flatMap((message) => message.tool_calls ?? []).map((call) => call.function.name)).toEqual([
      short,
    ]);
    expect(JSON.stringify(sent)).not.toContain(MCP);
  });

  it("Anthropic takes 128 characters: it is sent the name as it is; 129 is a 400 naming tools[0].name", async () => {
    const recording = upstreamProviders.anthropic.recordings[0]!;
    const fake = new FakeUpstream({ kind: "sse", chunks: recordingChunks(recording) });
    const env = testEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });
    const long = `mcp__${"a".repeat(123)}`;
    await anthropic(fake, env).messages.create({
      model: "anthropic/claude-sonnet-4-5",
      max_tokens: 256,
      tools: [{ name: long, input_schema: schema }],
      messages: [{ role: "user", content: "hi" }],
    });
    expect((fake.requests[0]!.body as { tools: { name: string }[] }).tools[0]!.name).toBe(long);
    const error = await anthropic(fake, env)
      .messages.create({
        model: "anthropic/claude-sonnet-4-5",
        max_tokens: 256,
        tools: [{ name: `${long}x`, input_schema: schema }],
        messages: [{ role: "user", content: "hi" }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnthropicBadRequest);
    expect((error as Error).message).toContain("`tools[0].name` must be a tool name");
  });
});

describe("/v1/responses: a tool name another provider's rule refuses", () => {
  /** Codex names MCP tools `<server>__<tool>`; a server name with a dash is one Cohere refuses. */
  const NAME = "mcp__issue-tracker__search_issues";
  const short = new ToolNames([NAME], upstreamProviders.cohere.toolNames).toProvider(NAME);
  const cohereEnv = testEnv({ COHERE_API_KEY: "k", COHERE_BASE_URL: "https://provider.test/v2", CLIENT_TOKEN: "t" });
  const event = (payload: { type: string; [field: string]: unknown }) =>
    `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;
  const upstream = () =>
    new FakeUpstream({
      kind: "sse",
      chunks: [
        event({ type: "message-start", delta: { message: { role: "assistant" } } }),
        event({
          type: "tool-call-start",
          index: 0,
          delta: {
            message: { tool_calls: { id: "c_1", type: "function", function: { name: short, arguments: "" } } },
          },
        }),
        event({
          type: "tool-call-delta",
          index: 0,
          delta: { message: { tool_calls: { function: { arguments: '{"query":"flaky"}' } } } },
        }),
        event({ type: "tool-call-end", index: 0 }),
        event({ type: "message-end", delta: { finish_reason: "TOOL_CALL" } }),
      ],
    });

  it("Cohere is sent a name without the dash; the client reads its own, streamed and not, and its next turn maps again", async () => {
    const fake = upstream();
    const tools = [{ type: "function" as const, name: NAME, parameters: schema, strict: false }];
    const final = await openai(fake, cohereEnv)
      .responses.stream({ model: "cohere/command-a", input: "Find flaky tests", tools })
      .finalResponse();
    expect(final.output).toMatchObject([{ type: "function_call", call_id: "c_1", name: NAME }]);
    const whole = await openai(fake, cohereEnv).responses.create({ model: "cohere/command-a", input: "Find", tools });
    expect(whole.output).toMatchObject([{ type: "function_call", name: NAME }]);
    expect(short).toMatch(/^mcp__issue_tracker__search_issues_[0-9a-f]{8}$/);
    expect((fake.requests[0]!.body as { tools: { function: { name: string } }[] }).tools[0]!.function.name).toBe(short);

    await openai(fake, cohereEnv).responses.create({
      model: "cohere/command-a",
      tools,
      tool_choice: { type: "function", name: NAME },
      input: [
        { role: "user", content: "Find flaky tests" },
        { type: "function_call", call_id: "c_1", name: NAME, arguments: '{"query":"flaky"}' },
        { type: "function_call_output", call_id: "c_1", output: "3 found" },
      ],
    });
    const next = JSON.stringify(fake.requests[2]!.body);
    expect(next).not.toContain(NAME);
    expect(next.split(short).length - 1).toBe(2); // the tool and the earlier call
  });

  it("a name past OpenAI's 64 characters is a 400 naming tools[0].name", async () => {
    const error = await openai(upstream(), cohereEnv)
      .responses.create({
        model: "cohere/command-a",
        input: "hi",
        tools: [{ type: "function", name: "x".repeat(65), parameters: schema, strict: false }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIBadRequest);
    expect((error as OpenAIBadRequest).param).toBe("tools[0].name");
  });
});
