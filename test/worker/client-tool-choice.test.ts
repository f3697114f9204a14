// What a client allowed on Chat Completions and Messages: `tool_choice` none, a forced tool and
// Chat's `allowed_tools` are held to on the answer, streamed and not, when the provider (or a
// compatible server) calls all the same or calls another tool: the calls left out go with all their
// events, the kept ones indexed from 0, and an answer left with no call finishes as a stop, but one
// those calls were all of (no text, no call left) is an error that says why, in the protocol's shape,
// as on /v1/responses, never an empty success. A call the provider ran itself (an Anthropic server
// tool's) is never one of them: its result names it.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { readMessageBlocks, workerFetch } from "./client-support.ts";
import { live, scripted, WEATHER } from "./open-responses-support.ts";
import { anthropicSse, serverToolUseBlock, toolUseBlock } from "./anthropic-blocks.ts";
import { FakeUpstream } from "./support.ts";

const TIME = {
  name: "get_time",
  parameters: { type: "object" as const, properties: { zone: { type: "string" } }, required: ["zone"] },
};
const PROVIDERS: Provider[] = ["openai", "anthropic", "gemini"];

/** The two tools, as Chat Completions offers them. */
const tools = [WEATHER, TIME].map(({ name, parameters }) => ({
  type: "function" as const,
  function: { name, parameters },
}));
/** The same, as Messages offers them. */
const anthropicTools = [WEATHER, TIME].map(({ name, parameters }) => ({
  name,
  input_schema: { ...parameters, type: "object" as const },
}));
/** A Messages request of `provider`'s test model asking `content`, with both tools and `tool_choice`. */
const messagesRequest = (provider: Provider, content: string, tool_choice: Anthropic.ToolChoice) => ({
  model: `${provider}/test-model`,
  max_tokens: 1024,
  messages: [{ role: "user" as const, content }],
  tools: anthropicTools,
  tool_choice,
});

/** A turn of text, then a call of `get_time` and one of `get_weather`, whatever the request said. */
const callsAnyway = (provider: Provider) =>
  scripted(provider, {
    text: "Here.",
    calls: [
      { name: "get_time", arguments: { zone: "CET" } },
      { name: "get_weather", arguments: { location: "Paris" } },
    ],
  });

/** The text the answer keeps: Gemini's scripted turn writes its calls alone. */
const textOf = (provider: Provider) => (provider === "gemini" ? "" : "Here.");

/**
 * The cases whose answer keeps text or a call: Gemini's calls alone, all left out, are an error
 * (the last describe), where they were an empty stop.
 */
const keepsSomething =
  (provider: Provider) =>
  ([, , names]: readonly [string, unknown, string[]]): boolean =>
    textOf(provider) !== "" || names.length > 0;

/** An SDK's options: the Worker's token, its fetch handler in front of a provider that calls anyway. */
const client = (provider: Provider) => ({
  apiKey: "t",
  fetch: workerFetch({ env: live(provider) as Env, upstream: callsAnyway(provider) }),
  maxRetries: 0,
});

describe("openai-node on POST /v1/chat/completions: tool_choice held to", () => {
  const weatherOnly = { type: "function" as const, function: { name: "get_weather" } };
  const choices: [string, OpenAI.ChatCompletionToolChoiceOption, string[]][] = [
    ["none", "none", []],
    ["a forced function", { type: "function", function: { name: "get_weather" } }, ["get_weather"]],
    [
      "allowed_tools",
      { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [weatherOnly] } },
      ["get_weather"],
    ],
  ];
  for (const provider of PROVIDERS)
    for (const [label, tool_choice, names] of choices.filter(keepsSomething(provider)))
      it(`${provider}, ${label}: the calls allowed alone, from index 0, streamed and not`, async () => {
        const sdk = new OpenAI({ baseURL: "http://localhost:8787/v1", ...client(provider) });
        const request = {
          model: `${provider}/test-model`,
          messages: [{ role: "user" as const, content: "Weather?" }],
          tools,
          tool_choice,
        };
        const finish = names.length > 0 ? "tool_calls" : "stop";
        const nameOf = (call: OpenAI.ChatCompletionMessageToolCall) => call.type === "function" && call.function.name;
        const whole = await sdk.chat.completions.create(request);
        expect(whole.choices[0]!.message.content || "").toBe(textOf(provider));
        expect((whole.choices[0]!.message.tool_calls ?? []).map(nameOf)).toEqual(names);
        expect(whole.choices[0]!.finish_reason).toBe(finish);

        const deltas: { index: number; id?: string; function?: { name?: string } }[] = [];
        let reason: string | null = null;
        for await (const chunk of await sdk.chat.completions.create({ ...request, stream: true })) {
          for (const choice of chunk.choices) {
            deltas.push(...(choice.delta.tool_calls ?? []));
            reason = choice.finish_reason ?? reason;
          }
        }
        // Each call kept started once, at the next index from 0; none of a call left out.
        const started = deltas.filter((delta) => delta.id !== undefined);
        expect(started.map((delta) => [delta.index, delta.function?.name])).toEqual(names.map((name, i) => [i, name]));
        expect(deltas.every((delta) => delta.index < names.length)).toBe(true);
        expect(reason).toBe(finish);
        const final = await sdk.chat.completions.stream(request).finalChatCompletion();
        expect((final.choices[0]!.message.tool_calls ?? []).map(nameOf)).toEqual(names);
      });
});

describe("@anthropic-ai/sdk on POST /v1/messages: tool_choice held to", () => {
  const choices: [string, Anthropic.ToolChoice, string[]][] = [
    ["none", { type: "none" }, []],
    ["a forced tool", { type: "tool", name: "get_weather" }, ["get_weather"]],
  ];
  for (const provider of PROVIDERS)
    for (const [label, tool_choice, names] of choices.filter(keepsSomething(provider)))
      it(`${provider}, ${label}: the tool_use blocks allowed alone, indexes contiguous, streamed and not`, async () => {
        const sdk = new Anthropic({ baseURL: "http://localhost:8787", ...client(provider) });
        const request = messagesRequest(provider, "Weather?", tool_choice);
        const stop = names.length > 0 ? "tool_use" : "end_turn";
        const uses = (message: Anthropic.Message) =>
          message.content.flatMap((block) => (block.type === "tool_use" ? [block.name] : []));
        const whole = await sdk.messages.create(request);
        expect([uses(whole), whole.stop_reason]).toEqual([names, stop]);
        const text = whole.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
        expect(text.join("")).toBe(textOf(provider));

        const streamed = await readMessageBlocks(await sdk.messages.create({ ...request, stream: true }));
        expect(streamed).toEqual({ toolNames: names, stopReason: stop });
        const final = await sdk.messages.stream(request).finalMessage();
        expect([uses(final), final.stop_reason]).toEqual([names, stop]);
      });
});

describe("@anthropic-ai/sdk on POST /v1/messages: a call the provider ran is no call the choice leaves out", () => {
  // Anthropic searched (a server tool the deployment forwards) before the forced tool's call: the
  // search ran whatever the choice, and its result block names it, so both reach the client.
  const upstream = () =>
    new FakeUpstream({
      kind: "sse",
      chunks: anthropicSse(
        { type: "message_start", message: { id: "msg_1", content: [], usage: { input_tokens: 5, output_tokens: 1 } } },
        ...serverToolUseBlock(0, "srvtoolu_1", "web_search", '{"query":"Paris"}'),
        {
          type: "content_block_start",
          index: 1,
          content_block: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
        },
        { type: "content_block_stop", index: 1 },
        ...toolUseBlock(2, "toolu_1", "get_weather", '{"location":"Paris"}'),
        { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } },
        { type: "message_stop" },
      ),
    });
  const request = {
    model: "anthropic/claude-x",
    max_tokens: 1024,
    messages: [{ role: "user" as const, content: "Weather?" }],
    tools: [
      { name: WEATHER.name, input_schema: { ...WEATHER.parameters, type: "object" as const } },
      { type: "web_search_20250305" as const, name: "web_search" as const },
    ],
    tool_choice: { type: "tool" as const, name: "get_weather" },
  };
  const env = { ...live("anthropic"), ANTHROPIC_SERVER_TOOLS: "web_search" } as Env;
  const sdk = () =>
    new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      maxRetries: 0,
      fetch: workerFetch({ env, upstream: upstream() }),
    });
  const kinds = ["server_tool_use", "web_search_tool_result", "tool_use"];

  it("the search's blocks and the forced call, streamed and not", async () => {
    const whole = await sdk().messages.create(request);
    expect([whole.content.map((block) => block.type), whole.stop_reason]).toEqual([kinds, "tool_use"]);
    const started: string[] = [];
    for await (const event of await sdk().messages.create({ ...request, stream: true }))
      if (event.type === "content_block_start") started.push(event.content_block.type);
    expect(started).toEqual(kinds);
  });
});

describe("an answer whose only calls the choice left out: an error that says why, never an empty stop", () => {
  /** A turn of one call of `get_time` alone, no text, whatever the request said. */
  const timeOnly = (provider: Provider) =>
    scripted(provider, { calls: [{ name: "get_time", arguments: { zone: "CET" } }] });
  const sdkOptions = (provider: Provider) => ({
    apiKey: "t",
    maxRetries: 0,
    fetch: workerFetch({ env: live(provider) as Env, upstream: timeOnly(provider) }),
  });
  const WHY = /tool_choice does not allow/;
  /** Drains a stream of events; what it threw. */
  const drain = async (events: AsyncIterable<unknown>): Promise<unknown> => {
    try {
      for await (const _ of events);
    } catch (error) {
      return error;
    }
    return undefined;
  };

  for (const provider of PROVIDERS) {
    it(`${provider}: Chat Completions (openai-node), streamed and not, none and a forced other tool`, async () => {
      const sdk = new OpenAI({ baseURL: "http://localhost:8787/v1", ...sdkOptions(provider) });
      const choices: OpenAI.ChatCompletionToolChoiceOption[] = [
        "none",
        { type: "function", function: { name: "get_weather" } },
      ];
      for (const tool_choice of choices) {
        const request = {
          model: `${provider}/test-model`,
          messages: [{ role: "user" as const, content: "Time?" }],
          tools,
          tool_choice,
        };
        await expect(sdk.chat.completions.create(request)).rejects.toMatchObject({
          status: 502,
          message: expect.stringMatching(WHY),
        });
        const thrown = await drain(await sdk.chat.completions.create({ ...request, stream: true }));
        expect(thrown, JSON.stringify(tool_choice)).toBeInstanceOf(OpenAI.APIError);
        expect((thrown as Error).message).toMatch(WHY);
        await expect(sdk.chat.completions.stream(request).finalChatCompletion()).rejects.toThrow(WHY);
      }
    });

    it(`${provider}: Messages (@anthropic-ai/sdk), streamed and not, none and a forced other tool`, async () => {
      const sdk = new Anthropic({ baseURL: "http://localhost:8787", ...sdkOptions(provider) });
      const choices: Anthropic.ToolChoice[] = [{ type: "none" }, { type: "tool", name: "get_weather" }];
      for (const tool_choice of choices) {
        const request = messagesRequest(provider, "Time?", tool_choice);
        const failed = await sdk.messages.create(request).catch((error: unknown) => error);
        expect(failed).toMatchObject({ status: 502, message: expect.stringMatching(WHY) });
        // The message alone: not the library's internal code after it.
        expect((failed as Error).message).not.toContain("provider-error");
        const thrown = await drain(await sdk.messages.create({ ...request, stream: true }));
        expect(thrown, JSON.stringify(tool_choice)).toBeInstanceOf(Anthropic.APIError);
        expect((thrown as Error).message).toMatch(WHY);
        expect((thrown as Error).message).not.toContain("provider-error");
        await expect(sdk.messages.stream(request).finalMessage()).rejects.toThrow(WHY);
      }
    });
  }
});

describe("the unstreamed error of an answer whose only calls the choice left out is not retried", () => {
  // The SDKs retry a 502 twice by default (openai-node's and @anthropic-ai/sdk's shouldRetry),
  // unless the server says `x-should-retry: false`: each retry is the same request, billed again.
  for (const provider of PROVIDERS) {
    const upstream = () => scripted(provider, { calls: [{ name: "get_time", arguments: { zone: "CET" } }] });
    it(`${provider}: openai-node and @anthropic-ai/sdk with their default retries ask once`, async () => {
      const openaiUpstream = upstream();
      const openai = new OpenAI({
        baseURL: "http://localhost:8787/v1",
        apiKey: "t",
        fetch: workerFetch({ env: live(provider) as Env, upstream: openaiUpstream }),
      });
      const chat = { model: `${provider}/test-model`, messages: [{ role: "user" as const, content: "Time?" }], tools };
      const failed = await openai.chat.completions.create({ ...chat, tool_choice: "none" }).catch((error) => error);
      expect(failed).toBeInstanceOf(OpenAI.APIError);
      expect([failed.status, failed.headers.get("x-should-retry")]).toEqual([502, "false"]);
      const anthropicUpstream = upstream();
      const anthropic = new Anthropic({
        baseURL: "http://localhost:8787",
        apiKey: "t",
        fetch: workerFetch({ env: live(provider) as Env, upstream: anthropicUpstream }),
      });
      await expect(
        anthropic.messages.create(messagesRequest(provider, "Time?", { type: "none" })),
      ).rejects.toMatchObject({
        status: 502,
      });
      expect([openaiUpstream.requests.length, anthropicUpstream.requests.length]).toEqual([1, 1]);
    });
  }
});
