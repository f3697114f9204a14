// OpenAI Chat's deprecated function calling on POST /v1/chat/completions, through openai-node (which
// still types `functions`, `function_call`, `ChatCompletionMessage.function_call`,
// `ChoiceDelta.function_call` and `finish_reason: "function_call"`), against scripted OpenAI and
// Anthropic upstreams: the functions reach each provider as its tools, the answer is the legacy
// shape (one call at most), streamed and not; the history's `function_call` and `role: "function"`
// messages reach the provider as a call and its result whose ids match; bad shapes are 400s
// naming the client's own field.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { workerFetch } from "./client-support.ts";
import { live, scripted } from "./open-responses-support.ts";
import { FakeUpstream } from "./support.ts";

const WEATHER: OpenAI.Chat.ChatCompletionCreateParams.Function = {
  name: "get_weather",
  description: "The weather in a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const PROVIDERS: Provider[] = ["openai", "anthropic"];
const client = (provider: Provider, upstream: FakeUpstream) =>
  new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    maxRetries: 0,
    fetch: workerFetch({ env: live(provider) as Env, upstream }),
  });
const body = (provider: Provider) => ({
  model: `${provider}/test-model`,
  messages: [{ role: "user" as const, content: "Weather in Paris?" }],
  functions: [WEATHER],
});
const PARIS = { name: "get_weather", arguments: { city: "Paris" } };
const ROME = { name: "get_weather", arguments: { city: "Rome" } };

describe("openai-node with `functions`: the legacy answer", () => {
  for (const provider of PROVIDERS) {
    it(`${provider}: message.function_call and finish_reason function_call, the provider's second call left out`, async () => {
      const upstream = scripted(provider, { calls: [PARIS, ROME] });
      const completion = await client(provider, upstream).chat.completions.create(body(provider));
      const choice = completion.choices[0]!;
      expect(choice.finish_reason).toBe("function_call");
      expect(choice.message.function_call).toEqual({ name: "get_weather", arguments: '{"city":"Paris"}' });
      expect(choice.message.tool_calls).toBeUndefined();
      const sent = upstream.requests[0]!.body as any;
      if (provider === "openai") {
        expect(sent.tools).toEqual([{ type: "function", function: WEATHER }]);
      } else
        expect(sent.tools).toEqual([
          { name: WEATHER.name, description: WEATHER.description, input_schema: WEATHER.parameters },
        ]);
    });

    it(`${provider}: streamed as delta.function_call fragments, one call`, async () => {
      const upstream = scripted(provider, { calls: [PARIS, ROME] });
      const stream = await client(provider, upstream).chat.completions.create({ ...body(provider), stream: true });
      const calls: OpenAI.Chat.ChatCompletionChunk.Choice.Delta.FunctionCall[] = [];
      const reasons: unknown[] = [];
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (choice?.delta.function_call) calls.push(choice.delta.function_call);
        expect(choice?.delta.tool_calls).toBeUndefined();
        if (choice?.finish_reason) reasons.push(choice.finish_reason);
      }
      expect(calls[0]!.name).toBe("get_weather");
      expect(calls.slice(1).every((call) => call.name === undefined)).toBe(true);
      expect(calls.map((call) => call.arguments ?? "").join("")).toBe('{"city":"Paris"}');
      expect(reasons).toEqual(["function_call"]);
    });

    it(`${provider}: the history's function_call and function message are a call and its result, ids matching`, async () => {
      const upstream = scripted(provider, { text: "18 degrees." });
      await client(provider, upstream).chat.completions.create({
        ...body(provider),
        function_call: { name: "get_weather" },
        messages: [
          { role: "user", content: "Weather in Paris?" },
          { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          { role: "function", name: "get_weather", content: '{"celsius":18}' },
        ],
      });
      const sent = upstream.requests[0]!.body as any;
      if (provider === "openai") {
        const [call, result] = [sent.messages[1], sent.messages[2]];
        expect(call.tool_calls[0]).toMatchObject({ function: { name: "get_weather", arguments: '{"city":"Paris"}' } });
        expect(result).toMatchObject({ role: "tool", tool_call_id: call.tool_calls[0].id, content: '{"celsius":18}' });
        expect(sent.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
      } else {
        const use = sent.messages[1].content.find((block: any) => block.type === "tool_use");
        const result = sent.messages[2].content.find((block: any) => block.type === "tool_result");
        expect(use).toMatchObject({ name: "get_weather", input: { city: "Paris" } });
        expect(result.tool_use_id).toBe(use.id);
        expect(sent.tool_choice).toMatchObject({ type: "tool", name: "get_weather" });
      }
    });
  }

  it("function_call none offers the functions and calls none", async () => {
    const upstream = scripted("openai", { text: "No call." });
    const completion = await client("openai", upstream).chat.completions.create({
      ...body("openai"),
      function_call: "none",
    });
    expect(completion.choices[0]!.finish_reason).toBe("stop");
    expect((upstream.requests[0]!.body as any).tool_choice).toBe("none");
  });
});

describe("bad legacy fields: a 400 naming the client's own field, and no provider request", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["functions with tools", { tools: [{ type: "function", function: WEATHER }] }, "tools"],
    ["functions with tool_choice", { tool_choice: "auto" }, "tool_choice"],
    ["a function's bad name", { functions: [{ ...WEATHER, name: "a b" }] }, "functions[0].name"],
    ["a function that is not an object", { functions: ["get_weather"] }, "functions[0]"],
    [
      "more functions than tools may be",
      { functions: Array.from({ length: 129 }, (_, i) => ({ ...WEATHER, name: `f${i}` })) },
      "functions",
    ],
    ["a function_call of another shape", { function_call: "required" }, "function_call"],
    ["a function_call naming no function", { function_call: { name: "nope" } }, "function_call"],
    ["function_call without functions", { functions: undefined, function_call: "auto" }, "function_call"],
    [
      "a function_call whose arguments are not text",
      { messages: [{ role: "assistant", content: null, function_call: { name: "get_weather", arguments: 5 } }] },
      "messages[0].function_call.arguments",
    ],
    [
      "a function message answering nothing",
      { messages: [{ role: "function", name: "get_weather", content: "x" }] },
      "messages[0]",
    ],
    [
      "a function message naming another function",
      {
        messages: [
          { role: "assistant", content: null, function_call: { name: "get_weather", arguments: "{}" } },
          { role: "function", name: "other", content: "x" },
        ],
      },
      "messages[1].name",
    ],
  ];
  for (const [name, change, param] of cases)
    it(name, async () => {
      const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
      const error = await client("openai", upstream)
        .chat.completions.create({ ...body("openai"), ...change } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming)
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 400, param });
      // Not the 400 an unknown field got before functions were taken.
      expect((error as { code?: unknown }).code).not.toBe("unknown_field");
      expect(upstream.requests).toHaveLength(0);
    });
  it("a function message answers the call just before it, not an earlier one left open", async () => {
    const upstream = scripted("openai", { text: "18 degrees." });
    await client("openai", upstream).chat.completions.create({
      ...body("openai"),
      messages: [
        { role: "user", content: "Weather in Paris?" },
        { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        { role: "user", content: "No, Rome." },
        { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Rome"}' } },
        { role: "function", name: "get_weather", content: '{"celsius":21}' },
      ],
    });
    const sent = upstream.requests[0]!.body as any;
    expect(sent.messages[3].tool_calls[0].function.arguments).toBe('{"city":"Rome"}');
    expect(sent.messages[4]).toMatchObject({ role: "tool", tool_call_id: sent.messages[3].tool_calls[0].id });
  });
});
