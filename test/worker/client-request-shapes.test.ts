// Request shapes real clients send in late 2026, each through the Worker with the client itself:
// Codex's `view_image` output (an `input_image` of detail `original`, openai 6's
// ResponseInputImage) and its first input item, `additional_tools` (ResponseInputItem.AdditionalTools),
// the AI SDK's forced OpenAI web search (`toolChoice` of its `web_search` tool: `tool_choice:
// {type: "web_search"}`), Chat Completions' prompt-cache settings and `verbosity`, and an AG-UI
// 1.0 tool message whose content is parts, Chat's allowed tools, @anthropic-ai/sdk's search_result
// blocks. Each was a 400 (or, in a tool result, left out); asserted on the body the fake provider
// receives, or on the 400's field.
import { HttpAgent, type Message } from "@ag-ui/client";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, streamText, type ToolSet } from "ai";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { EMPTY_TURN } from "./anthropic-blocks.ts";
import { workerFetch } from "./client-support.ts";
import { live, scripted } from "./open-responses-support.ts";
import { FakeUpstream } from "./support.ts";

/** A 1x1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PNG_URL = `data:image/png;base64,${PNG}`;

const openai = (provider: Provider, upstream: FakeUpstream, vars: Partial<Env> = {}): OpenAI =>
  new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env: { ...live(provider), ...vars }, upstream }),
    maxRetries: 0,
  });
/** The OpenAI hosted tools these tests send, listed (OPENAI_SERVER_TOOLS: unset, OpenAI is sent none). */
const SEARCH_ON = { OPENAI_SERVER_TOOLS: "web_search" };
const MCP_ON = { OPENAI_SERVER_TOOLS: "mcp" };
/** The body the fake provider received. */
const sent = (upstream: FakeUpstream): Record<string, any> => upstream.requests[0]!.body as Record<string, any>;

describe("Codex's view_image output: an input_image of detail original", () => {
  /** Codex's turn after `view_image`: the call, then its output of one image at its own resolution. */
  const input: OpenAI.Responses.ResponseInput = [
    { role: "user", content: "What does the screenshot show?" },
    { type: "function_call", call_id: "call_1", name: "view_image", arguments: '{"path":"shot.png"}' },
    {
      type: "function_call_output",
      call_id: "call_1",
      output: [{ type: "input_image", image_url: PNG_URL, detail: "original" }],
    },
  ];
  const tools: OpenAI.Responses.Tool[] = [
    { type: "function", name: "view_image", parameters: { type: "object" }, strict: false },
  ];
  const through = async (provider: Provider): Promise<Record<string, any>> => {
    const upstream = scripted(provider, { text: "A cat." });
    const response = await openai(provider, upstream)
      .responses.stream({ model: `${provider}/m`, input, tools, store: false })
      .finalResponse();
    expect(response.output_text).toBe("A cat.");
    return sent(upstream);
  };

  it("an OpenAI Responses upstream gets it as Codex sent it", async () => {
    expect((await through("openai-responses"))["input"][2]).toEqual(input[2]);
  });

  it("Anthropic gets the image as the tool result's one block", async () => {
    // The image alone: no empty text block before it, which Anthropic refuses.
    expect((await through("anthropic"))["messages"][2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "call_1",
          content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: PNG } }],
        },
      ],
    });
  });

  it("OpenAI Chat, which has no original detail, gets its closest: high", async () => {
    const upstream = scripted("openai", { text: "A cat." });
    await openai("openai", upstream)
      .responses.stream({
        model: "openai/m",
        input: [{ role: "user", content: [{ type: "input_image", image_url: PNG_URL, detail: "original" }] }],
      })
      .finalResponse();
    expect(sent(upstream)["messages"][0].content).toEqual([
      { type: "image_url", image_url: { url: PNG_URL, detail: "high" } },
    ]);
  });
});

describe("the AI SDK's forced OpenAI web search (tool_choice {type: web_search})", () => {
  const ask = (provider: Provider, upstream: FakeUpstream, tool: "webSearch" | "webSearchPreview") => {
    const model = createOpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env: { ...live(provider), ...SEARCH_ON }, upstream }),
    }).responses(`${provider}/m`);
    const name = tool === "webSearch" ? "web_search" : "web_search_preview";
    // The provider tool as ai's ToolSet takes it (its optional members are typed without `undefined`).
    const search = createOpenAI({ apiKey: "unused" }).tools[tool]({}) as unknown as ToolSet[string];
    return streamText({
      model,
      prompt: "When did Ruby 3.4 come out?",
      tools: { [name]: search },
      toolChoice: { type: "tool", toolName: name },
      providerOptions: { openai: { store: false } },
    });
  };

  for (const tool of ["webSearch", "webSearchPreview"] as const)
    it(`${tool}: an OpenAI Responses upstream is sent the search tool, allowed alone and required`, async () => {
      const upstream = scripted("openai-responses", { text: "December 2024." });
      const result = ask("openai-responses", upstream, tool);
      expect(await result.text).toBe("December 2024.");
      const body = sent(upstream);
      expect(body["tools"]).toEqual([{ type: tool === "webSearch" ? "web_search" : "web_search_preview" }]);
      expect(body["tool_choice"]).toEqual({
        type: "allowed_tools",
        mode: "required",
        tools: [{ type: tool === "webSearch" ? "web_search" : "web_search_preview" }],
      });
    });

  it("beside a function tool, an OpenAI Responses upstream is sent the search forced, not any tool", async () => {
    const upstream = scripted("openai-responses", { text: "December 2024." });
    await openai("openai-responses", upstream, SEARCH_ON)
      .responses.stream({
        model: "openai-responses/gpt-5",
        input: "When did Ruby 3.4 come out?",
        tools: [{ type: "web_search_preview" }, { type: "function", name: "lookup", parameters: {}, strict: false }],
        tool_choice: { type: "web_search_preview" },
        store: false,
      })
      .finalResponse();
    expect(sent(upstream)["tools"]).toHaveLength(2);
    expect(sent(upstream)["tool_choice"]).toEqual({
      type: "allowed_tools",
      mode: "required",
      tools: [{ type: "web_search_preview" }],
    });
  });

  it("to a provider without web search it is a 400 naming tool_choice.type; the provider is not called", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: EMPTY_TURN });
    const errors: unknown[] = [];
    const result = ask("anthropic", upstream, "webSearch");
    for await (const part of result.fullStream) if (part.type === "error") errors.push(part.error);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain("tool_choice.type");
    expect(JSON.stringify(errors[0])).toContain("forces a web search");
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("@ag-ui/client: a tool message whose content is parts (AG-UI 1.0's ToolMessage)", () => {
  it("its text and image reach Anthropic as the tool result's blocks", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: EMPTY_TURN });
    const messages: Message[] = [
      { id: "u1", role: "user", content: "Take a screenshot." },
      {
        id: "a1",
        role: "assistant",
        toolCalls: [{ id: "call_1", type: "function", function: { name: "screenshot", arguments: "{}" } }],
      },
      {
        id: "t1",
        role: "tool",
        toolCallId: "call_1",
        content: [
          { type: "text", text: "Taken." },
          { type: "image", source: { type: "data", value: PNG, mimeType: "image/png" } },
        ],
      },
    ];
    const agent = new HttpAgent({
      url: "http://localhost:8787/v1/ag-ui",
      threadId: "thread_1",
      initialMessages: messages,
      headers: { authorization: "Bearer t" },
      fetch: workerFetch({ env: live("anthropic"), upstream }),
    });
    await agent.runAgent({
      runId: "run_1",
      tools: [{ name: "screenshot", description: "Take a screenshot.", parameters: { type: "object" } }],
      forwardedProps: { model: "anthropic/claude-x" },
    });
    expect(sent(upstream)["messages"][2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "call_1",
          content: [
            { type: "text", text: "Taken." },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          ],
        },
      ],
    });
  });
});

describe("Codex's additional_tools input item: tools made available at that item", () => {
  const lookup = { type: "function" as const, name: "lookup", parameters: { type: "object" }, strict: false };
  /** Codex's first item: its code-mode tool in a namespace, and a function beside it. */
  const added: OpenAI.Responses.ResponseInputItem = {
    type: "additional_tools",
    role: "developer",
    tools: [
      { type: "namespace", name: "functions", description: "Code mode.", tools: [{ type: "custom", name: "exec" }] },
      { ...lookup, name: "list_agents" },
      lookup,
    ],
  };
  const input: OpenAI.Responses.ResponseInput = [added, { role: "user", content: "Hi" }];

  for (const provider of ["openai-responses", "anthropic"] as const)
    it(`${provider}: its tools join the request's (a name offered before once, a namespace dropped as in tools)`, async () => {
      const upstream = scripted(provider, { text: "Hello." });
      const response = await openai(provider, upstream)
        .responses.stream({ model: `${provider}/m`, input, tools: [lookup], store: false })
        .finalResponse();
      expect(response.output_text).toBe("Hello.");
      expect(sent(upstream)["tools"].map((tool: { name: string }) => tool.name)).toEqual(["lookup", "list_agents"]);
      expect(JSON.stringify(sent(upstream))).not.toContain("additional_tools");
    });

  it("a tool this Worker refuses in tools is refused there too, by its path", async () => {
    const upstream = scripted("anthropic", { text: "Hello." });
    const error = await openai("anthropic", upstream)
      .responses.create({
        model: "anthropic/m",
        input: [
          { type: "additional_tools", role: "developer", tools: [{ type: "image_generation" }] },
          ...input.slice(1),
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400, param: "input[0].tools[0].type" });
    expect(upstream.requests).toHaveLength(0);
  });

  it("a name offered before keeps its kind: a function, not the item's custom tool of that name", async () => {
    const upstream = scripted("anthropic", { calls: [{ name: "exec", arguments: { cmd: "ls" } }] });
    const response = await openai("anthropic", upstream)
      .responses.stream({
        model: "anthropic/m",
        input: [{ type: "additional_tools", role: "developer", tools: [{ type: "custom", name: "exec" }] }, input[1]!],
        tools: [{ ...lookup, name: "exec" }],
        store: false,
      })
      .finalResponse();
    expect(response.output).toMatchObject([{ type: "function_call", name: "exec", arguments: '{"cmd":"ls"}' }]);
  });

  it("more tools than the agent bound, counted across items, is a 400 at the item that goes over", async () => {
    const many = (from: number, count: number): OpenAI.Responses.Tool[] =>
      Array.from({ length: count }, (_, i) => ({ ...lookup, name: `t${from + i}` }));
    const upstream = scripted("anthropic", { text: "Hello." });
    const error = await openai("anthropic", upstream)
      .responses.create({
        model: "anthropic/m",
        input: [
          { type: "additional_tools", role: "developer", tools: many(0, 1000) },
          { type: "additional_tools", role: "developer", tools: [...many(0, 1000), ...many(1000, 30)] },
          ...input.slice(1),
        ],
        tools: [lookup],
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400, param: "input[1].tools" });
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("Chat Completions: prompt-cache settings and verbosity are hints", () => {
  it("verbosity reaches an OpenAI Chat upstream, which takes it", async () => {
    const upstream = scripted("openai", { text: "Hello." });
    await openai("openai", upstream).chat.completions.create({
      model: "openai/m",
      messages: [{ role: "user", content: "Hi" }],
      verbosity: "low",
    });
    expect(sent(upstream)["verbosity"]).toBe("low");
  });

  it("prompt_cache_retention, prompt_cache_options and verbosity are accepted and not sent on", async () => {
    const upstream = scripted("anthropic", { text: "Hello." });
    const completion = await openai("anthropic", upstream).chat.completions.create({
      model: "anthropic/m",
      messages: [{ role: "user", content: "Hi" }],
      prompt_cache_key: "session-1",
      prompt_cache_retention: "24h",
      prompt_cache_options: { mode: "implicit" },
      verbosity: "low",
    });
    expect(completion.choices[0]!.message.content).toBe("Hello.");
    expect(Object.keys(sent(upstream)).filter((key) => /prompt_cache|verbosity/.test(key))).toEqual([]);
  });
});

describe("Chat Completions: tool_choice allowed_tools (openai 6's ChatCompletionAllowedToolChoice)", () => {
  const tool = (name: string): OpenAI.Chat.ChatCompletionFunctionTool => ({
    type: "function",
    function: { name, parameters: { type: "object" } },
  });
  const ask = (upstream: FakeUpstream, allowed: string) =>
    openai("openai", upstream).chat.completions.create({
      model: "openai/m",
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [tool("get_weather"), tool("send_email")],
      tool_choice: {
        type: "allowed_tools",
        allowed_tools: { mode: "required", tools: [{ type: "function", function: { name: allowed } }] },
      },
    });

  it("the provider is offered the listed tools alone, the mode as its choice", async () => {
    const upstream = scripted("openai", { text: "Sunny." });
    await ask(upstream, "get_weather");
    const body = sent(upstream);
    expect(body["tools"].map((entry: { function: { name: string } }) => entry.function.name)).toEqual(["get_weather"]);
    expect(body["tool_choice"]).toBe("required");
  });

  it("a tool it lists that tools has not is a 400 naming it", async () => {
    const upstream = scripted("openai", { text: "Sunny." });
    await expect(ask(upstream, "book_flight")).rejects.toMatchObject({
      status: 400,
      param: "tool_choice.allowed_tools.tools[0].function.name",
    });
    expect(upstream.requests).toHaveLength(0);
  });

  // Mode auto was sent on as `tool_choice: "auto"` with no `tools`, which OpenAI refuses.
  for (const mode of ["required", "auto"] as const)
    it(`mode ${mode} with no tool listed is OpenAI's empty_array 400 naming the list, as on /v1/responses`, async () => {
      const upstream = scripted("openai", { text: "Sunny." });
      const error = await openai("openai", upstream)
        .chat.completions.create({
          model: "openai/m",
          messages: [{ role: "user", content: "Weather in Paris?" }],
          tools: [tool("get_weather")],
          tool_choice: { type: "allowed_tools", allowed_tools: { mode, tools: [] } },
        })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        status: 400,
        param: "tool_choice.allowed_tools.tools",
        code: "empty_array",
        error: {
          message:
            "Invalid 'tool_choice.allowed_tools.tools': empty array. Expected an array with minimum length 1, but got an empty array instead.",
        },
      });
      expect(upstream.requests).toHaveLength(0);
    });

  // Past OpenAI's 128 entries it was sent on, where /v1/responses answers array_above_max_length.
  it("a list of 129 entries is OpenAI's array_above_max_length 400 naming the list, as on /v1/responses", async () => {
    const upstream = scripted("openai", { text: "Sunny." });
    const entry = { type: "function" as const, function: { name: "get_weather" } };
    const error = await openai("openai", upstream)
      .chat.completions.create({
        model: "openai/m",
        messages: [{ role: "user", content: "Weather in Paris?" }],
        tools: [tool("get_weather")],
        tool_choice: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: Array(129).fill(entry) } },
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 400,
      param: "tool_choice.allowed_tools.tools",
      code: "array_above_max_length",
    });
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("@anthropic-ai/sdk: search_result blocks (SearchResultBlockParam), in a tool result and a user message", () => {
  const result: Anthropic.SearchResultBlockParam = {
    type: "search_result",
    source: "https://docs.example/ruby",
    title: "Ruby 3.4",
    content: [{ type: "text", text: "Ruby 3.4 was released on 2024-12-25." }],
    citations: { enabled: true },
  };
  const said = "Ruby 3.4 (https://docs.example/ruby)\nRuby 3.4 was released on 2024-12-25.";
  const ask = (provider: Provider, upstream: FakeUpstream) =>
    new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      fetch: workerFetch({ env: live(provider), upstream }),
      maxRetries: 0,
    }).messages.create({
      model: `${provider}/m`,
      max_tokens: 256,
      tools: [{ name: "search", input_schema: { type: "object" } }],
      messages: [
        { role: "user", content: [result, { type: "text", text: "When did Ruby 3.4 come out?" }] },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "search", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [result] }] },
      ],
    });

  it("Anthropic gets each as its text: title, source, then the text", async () => {
    const upstream = scripted("anthropic", { text: "On Christmas 2024." });
    await ask("anthropic", upstream);
    const messages = sent(upstream)["messages"];
    // The user's blocks are one text, as a user message's text blocks are joined.
    expect(messages[0].content).toEqual([{ type: "text", text: `${said}\nWhen did Ruby 3.4 come out?` }]);
    expect(messages[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1" });
    expect(messages[2].content[0].content).toBe(said);
  });

  it("OpenAI Chat gets the same text in the user message and the tool message", async () => {
    const upstream = scripted("openai", { text: "On Christmas 2024." });
    await ask("openai", upstream);
    const messages = sent(upstream)["messages"];
    expect(messages[0].content).toBe(`${said}\nWhen did Ruby 3.4 come out?`);
    expect(messages[2]).toMatchObject({ role: "tool", tool_call_id: "toolu_1", content: said });
  });
});

describe("Responses: tool_choice of an MCP server (openai 6's ToolChoiceMcp)", () => {
  const mcp: OpenAI.Responses.Tool = {
    type: "mcp",
    server_label: "links",
    server_url: "https://links.example.com/mcp",
    require_approval: "never",
  };
  const ask = (upstream: FakeUpstream, label: string) =>
    openai("openai-responses", upstream, MCP_ON)
      .responses.stream({
        model: "openai-responses/gpt-5",
        input: "Shorten https://example.com/a/long/path.",
        tools: [mcp],
        tool_choice: { type: "mcp", server_label: label },
        store: false,
      })
      .finalResponse();

  it("an OpenAI Responses upstream is sent the MCP tool and the choice of its server", async () => {
    const upstream = scripted("openai-responses", { text: "Done." });
    expect((await ask(upstream, "links")).output_text).toBe("Done.");
    expect(sent(upstream)["tools"]).toEqual([mcp]);
    expect(sent(upstream)["tool_choice"]).toEqual({ type: "mcp", server_label: "links" });
  });

  it("beside a function tool, the server (and the tool named on it) is forced, not any tool", async () => {
    const upstream = scripted("openai-responses", { text: "Done." });
    await openai("openai-responses", upstream, MCP_ON)
      .responses.stream({
        model: "openai-responses/gpt-5",
        input: "Shorten https://example.com/a/long/path.",
        tools: [mcp, { type: "function", name: "lookup", parameters: {}, strict: false }],
        tool_choice: { type: "mcp", server_label: "links", name: "shorten" },
        store: false,
      })
      .finalResponse();
    expect(sent(upstream)["tools"]).toHaveLength(2);
    expect(sent(upstream)["tool_choice"]).toEqual({ type: "mcp", server_label: "links", name: "shorten" });
  });

  it("a tool name that is not a string is a 400 naming tool_choice.name", async () => {
    const upstream = scripted("openai-responses", { text: "Done." });
    const error = await openai("openai-responses", upstream, MCP_ON)
      .responses.create({
        model: "openai-responses/gpt-5",
        input: "Shorten it.",
        tools: [mcp],
        tool_choice: { type: "mcp", server_label: "links", name: 7 as unknown as string },
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400, param: "tool_choice.name" });
    expect(upstream.requests).toHaveLength(0);
  });

  it("a server no mcp tool of tools names is a 400 naming tool_choice.server_label", async () => {
    const upstream = scripted("openai-responses", { text: "Done." });
    await expect(ask(upstream, "other")).rejects.toMatchObject({ status: 400, param: "tool_choice.server_label" });
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("@anthropic-ai/sdk: a document of a content source (ContentBlockSource)", () => {
  it("goes to the provider as a plain-text document of its text blocks", async () => {
    const upstream = scripted("anthropic", { text: "Two facts." });
    await new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      fetch: workerFetch({ env: live("anthropic"), upstream }),
      maxRetries: 0,
    }).messages.create({
      model: "anthropic/m",
      max_tokens: 256,
      messages: [
        {
          role: "user",
          content: [
            {
              type: "document",
              title: "Facts",
              source: {
                type: "content",
                content: [
                  { type: "text", text: "The sky is blue." },
                  { type: "text", text: "Water is wet." },
                ],
              },
            },
            { type: "text", text: "How many facts?" },
          ],
        },
      ],
    });
    expect(sent(upstream)["messages"][0].content[0]).toEqual({
      type: "document",
      source: { type: "text", media_type: "text/plain", data: "The sky is blue.\nWater is wet." },
      title: "Facts",
    });
  });
});

describe("the AI SDK's Anthropic provider: a mid-conversation effort (a system message of output_config alone)", () => {
  it("is left out: no empty system message reaches the provider", async () => {
    const upstream = scripted("openai", { text: "Done." });
    const model = createAnthropic({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env: live("openai"), upstream }),
    });
    const { text } = await generateText({
      model: model("openai/m"),
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello." },
        { role: "system", content: "", providerOptions: { anthropic: { effort: "low" } } },
        { role: "user", content: "Bye" },
      ],
    });
    expect(text).toBe("Done.");
    expect(sent(upstream)["messages"]).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello." },
      { role: "user", content: "Bye" },
    ]);
  });
});
