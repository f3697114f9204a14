// One call at a time on Chat Completions and Messages: a client's `parallel_tool_calls: false`
// (openai-node) or `tool_choice.disable_parallel_tool_use: true` (@anthropic-ai/sdk) is told to the
// providers with a field for it and held to on the answer, streamed and not, whatever the provider
// makes: OpenAI Chat calls interleaved by index, Anthropic's and Gemini's scripted turns of three.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { post, readMessageBlocks, workerFetch } from "./client-support.ts";
import { AUTH, live, scripted, WEATHER } from "./open-responses-support.ts";
import { chatChunk, FakeUpstream, openAIChunks, worker } from "./support.ts";

const CITIES = ["Paris", "Tokyo", "Lima"];

/** OpenAI Chat answering three calls whose starts and argument fragments interleave by index. */
function interleavedChat(): FakeUpstream {
  const args = CITIES.map((location) => JSON.stringify({ location }));
  return new FakeUpstream({
    kind: "sse",
    chunks: openAIChunks([
      chatChunk({ role: "assistant", content: null }),
      ...CITIES.map((_, index) =>
        chatChunk({
          tool_calls: [
            { index, id: `call_${index}`, type: "function", function: { name: "get_weather", arguments: "" } },
          ],
        }),
      ),
      ...args.flatMap((_, index) =>
        [0, 1].map((half) => {
          const text = args[index]!;
          const piece = half === 0 ? text.slice(0, 5) : text.slice(5);
          return chatChunk({ tool_calls: [{ index, function: { arguments: piece } }] });
        }),
      ),
      chatChunk({}, "tool_calls"),
    ]),
  });
}

/** Each provider's answer of three calls, and the env that makes it live (OpenAI at its own host). */
const upstreams: [Provider, () => FakeUpstream, Env][] = [
  ["openai", interleavedChat, { ...live("openai"), OPENAI_BASE_URL: "https://api.openai.com/v1" }],
  ["anthropic", () => threeCalls("anthropic"), live("anthropic")],
  ["gemini", () => threeCalls("gemini"), live("gemini")],
];
const threeCalls = (provider: Provider) =>
  scripted(provider, { calls: CITIES.map((location) => ({ name: "get_weather", arguments: { location } })) });

/** The requests that asked for one call told the provider, when it has a field for it (the first did not ask). */
function expectTold(provider: Provider, upstream: FakeUpstream): void {
  const [free, ...held] = upstream.requests.map((seen) => JSON.stringify(seen.body));
  expect(free).not.toMatch(/parallel/);
  const told: Partial<Record<Provider, string>> = {
    openai: '"parallel_tool_calls":false',
    anthropic: '"tool_choice":{"type":"auto","disable_parallel_tool_use":true}',
  };
  for (const body of held)
    expect(told[provider] === undefined ? !/parallel/.test(body) : body.includes(told[provider])).toBe(true);
}

/** An SDK's options: the Worker's token, its fetch handler in front of `upstream`, no retries. */
const client = (env: Env, upstream: FakeUpstream) => ({
  apiKey: "t",
  fetch: workerFetch({ env, upstream }),
  maxRetries: 0,
});

const locationOf = (args: unknown) =>
  (typeof args === "string" ? (JSON.parse(args) as { location: string }) : (args as { location: string })).location;

describe("openai-node, parallel_tool_calls: false on POST /v1/chat/completions", () => {
  const tools = [{ type: "function" as const, function: { name: WEATHER.name, parameters: WEATHER.parameters } }];
  for (const [provider, answer, env] of upstreams)
    it(`${provider}: the first call alone, streamed and not; the provider told when it has a field`, async () => {
      const upstream = answer();
      const sdk = new OpenAI({ baseURL: "http://localhost:8787/v1", ...client(env, upstream) });
      const request = { model: `${provider}/test-model`, messages: [{ role: "user" as const, content: "Weather?" }] };
      const all = await sdk.chat.completions.create({ ...request, tools });
      expect(all.choices[0]!.message.tool_calls?.map((call) => call.type === "function" && call.function.name)).toEqual(
        CITIES.map(() => "get_weather"),
      );

      const one = { ...request, tools, parallel_tool_calls: false };
      const whole = await sdk.chat.completions.create(one);
      const calls = whole.choices[0]!.message.tool_calls ?? [];
      expect(calls.map((call) => call.type === "function" && locationOf(call.function.arguments))).toEqual(["Paris"]);
      expect(whole.choices[0]!.finish_reason).toBe("tool_calls");

      const deltas: { index: number; id?: string }[] = [];
      let finish: string | null = null;
      for await (const chunk of await sdk.chat.completions.create({ ...one, stream: true })) {
        for (const choice of chunk.choices) {
          deltas.push(...(choice.delta.tool_calls ?? []));
          finish = choice.finish_reason ?? finish;
        }
      }
      // One call, at index 0, started once: what the client runs is the first call alone.
      expect([...new Set(deltas.map((delta) => delta.index))]).toEqual([0]);
      expect(deltas.filter((delta) => delta.id !== undefined)).toHaveLength(1);
      expect(finish).toBe("tool_calls");
      const final = await sdk.chat.completions.stream(one).finalChatCompletion();
      expect(final.choices[0]!.message.tool_calls?.map((call) => locationOf(call.function.arguments))).toEqual([
        "Paris",
      ]);

      expectTold(provider, upstream);
    });
});

describe("@anthropic-ai/sdk, tool_choice.disable_parallel_tool_use: true on POST /v1/messages", () => {
  const tools = [{ name: WEATHER.name, input_schema: { ...WEATHER.parameters, type: "object" as const } }];
  for (const [provider, answer, env] of upstreams)
    it(`${provider}: the first call alone, streamed and not; the provider told when it has a field`, async () => {
      const upstream = answer();
      const sdk = new Anthropic({ baseURL: "http://localhost:8787", ...client(env, upstream) });
      const request = {
        model: `${provider}/test-model`,
        max_tokens: 1024,
        messages: [{ role: "user" as const, content: "Weather?" }],
        tools,
      };
      const all = await sdk.messages.create({ ...request, tool_choice: { type: "auto" } });
      expect(all.content.filter((block) => block.type === "tool_use")).toHaveLength(CITIES.length);

      const one = { ...request, tool_choice: { type: "auto" as const, disable_parallel_tool_use: true } };
      const uses = (message: Anthropic.Message) =>
        message.content.flatMap((block) => (block.type === "tool_use" ? [locationOf(block.input)] : []));
      const whole = await sdk.messages.create(one);
      expect([uses(whole), whole.stop_reason]).toEqual([["Paris"], "tool_use"]);

      // Block indexes contiguous from 0, each started once and stopped once; one tool_use block.
      const streamed = await readMessageBlocks(await sdk.messages.create({ ...one, stream: true }));
      expect(streamed).toEqual({ toolNames: [WEATHER.name], stopReason: "tool_use" });
      const final = await sdk.messages.stream(one).finalMessage();
      expect([uses(final), final.stop_reason]).toEqual([["Paris"], "tool_use"]);

      expectTold(provider, upstream);
    });

  it("a choice of none calls no tool: disable_parallel_tool_use means nothing there, and is a boolean", async () => {
    // Text beside the calls left out: an answer of those calls alone is an error (client-tool-choice.test.ts).
    const calls = CITIES.map((location) => ({ name: "get_weather", arguments: { location } }));
    const upstream = scripted("anthropic", { text: "Sunny.", calls });
    const send = async (tool_choice: Record<string, unknown>) => {
      const body = { model: "anthropic/test-model", max_tokens: 64, messages: [{ role: "user", content: "Hi" }] };
      return worker(upstream).call(post("/v1/messages", { ...body, tools, tool_choice }, AUTH), live("anthropic"));
    };
    expect((await send({ type: "none", disable_parallel_tool_use: true })).status).toBe(200);
    expect(upstream.requests[0]!.body["tool_choice"]).toEqual({ type: "none" });
    const wrong = await send({ type: "auto", disable_parallel_tool_use: "yes" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("tool_choice.disable_parallel_tool_use");
  });
});
