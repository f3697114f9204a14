// Sampling settings beyond `temperature`, sent in each client's own protocol (openai-node's Chat
// `top_p`, `stop`, `seed` and penalties, Responses' `top_p`, @anthropic-ai/sdk's `top_p`, `top_k`
// and `stop_sequences`, the AI SDK's `topP`/`stopSequences`/`seed`, AG-UI's `forwardedProps`),
// reach every provider in its own form; each was dropped before. A value out of bounds, or a
// setting the provider has no field for, is a 400 naming the field, the provider not called; stop
// sequences a provider has no field for the Worker applies itself (client-stop-sequences.test.ts).
import { createOpenAI } from "@ai-sdk/openai";
import Anthropic from "@anthropic-ai/sdk";
import { generateText } from "ai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import { workerFetch } from "./client-support.ts";
import { agUIRun, live, scripted } from "./open-responses-support.ts";
import type { FakeUpstream } from "./support.ts";

const fetchOf = (provider: Provider, upstream: FakeUpstream) => workerFetch({ env: live(provider), upstream });
/** The body the fake provider received. */
const sent = (upstream: FakeUpstream): Record<string, any> => upstream.requests[0]!.body as Record<string, any>;
const openai = (provider: Provider, upstream: FakeUpstream) =>
  new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch: fetchOf(provider, upstream), maxRetries: 0 });
const anthropic = (provider: Provider, upstream: FakeUpstream) =>
  new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch: fetchOf(provider, upstream), maxRetries: 0 });
/** Where the provider takes its sampling settings: the body, or Gemini's, Ollama's or Bedrock's object. */
const AT: Partial<Record<Provider, string>> = {
  gemini: "generationConfig",
  ollama: "options",
  bedrock: "inferenceConfig",
};
const formOf = (provider: Provider, upstream: FakeUpstream): unknown => {
  const at = AT[provider];
  return at === undefined ? sent(upstream) : sent(upstream)[at];
};
const USER = [{ role: "user" as const, content: "Count to ten." }];

describe("openai-node: Chat Completions' sampling", () => {
  const chat = (provider: Provider, upstream: FakeUpstream, settings: Record<string, unknown>) =>
    openai(provider, upstream).chat.completions.create({
      model: `${provider}/m`,
      messages: USER,
      ...settings,
    } as never);
  const ALL = { top_p: 0.5, stop: ["END", "STOP"], seed: 7, frequency_penalty: 0.25, presence_penalty: -0.5 };

  it("reaches OpenAI Chat, Gemini, Cohere and Ollama, each in its form", async () => {
    const bodies: Record<string, unknown> = {};
    for (const provider of ["openai", "gemini", "cohere", "ollama"] as const) {
      const upstream = scripted(provider, { text: "one" });
      await chat(provider, upstream, ALL);
      bodies[provider] = formOf(provider, upstream);
    }
    expect(bodies).toMatchObject({
      openai: ALL,
      gemini: { topP: 0.5, stopSequences: ["END", "STOP"], seed: 7, frequencyPenalty: 0.25, presencePenalty: -0.5 },
      cohere: { p: 0.5, stop_sequences: ["END", "STOP"], seed: 7, frequency_penalty: 0.25, presence_penalty: -0.5 },
      ollama: { top_p: 0.5, stop: ["END", "STOP"], seed: 7, frequency_penalty: 0.25, presence_penalty: -0.5 },
    });
  });

  it("a top_p of 1 or 0 reaches Cohere within its p of 0.01 to 0.99", async () => {
    // `top_p: 1` is Chat's neutral value, which openai-node clients send by default; Cohere
    // documents `p` from 0.01 to 0.99 (docs.cohere.com/reference/chat).
    const ps: unknown[] = [];
    for (const top_p of [1, 0, 0.5]) {
      const upstream = scripted("cohere", { text: "one" });
      await chat("cohere", upstream, { top_p });
      ps.push(sent(upstream)["p"]);
    }
    expect(ps).toEqual([0.99, 0.01, 0.5]);
  });

  it("reaches Anthropic, Bedrock, OpenAI Responses and Interactions as far as each has a field", async () => {
    const bodies: Record<string, unknown> = {};
    for (const provider of ["anthropic", "bedrock", "openai-responses", "gemini-interactions"] as const) {
      const upstream = scripted(provider, { text: "one" });
      // A stop string is one sequence; seed is best-effort and left out where there is none.
      const stop = provider === "openai-responses" ? {} : { stop: "END" };
      await chat(provider, upstream, { top_p: 0.5, seed: 7, presence_penalty: 0, ...stop });
      bodies[provider] = formOf(provider, upstream);
    }
    expect(bodies).toMatchObject({
      anthropic: { top_p: 0.5, stop_sequences: ["END"] },
      bedrock: { topP: 0.5, stopSequences: ["END"] },
      "openai-responses": { top_p: 0.5 },
      "gemini-interactions": { generation_config: { top_p: 0.5, stop_sequences: ["END"], seed: 7 } },
    });
    for (const body of [bodies["anthropic"], bodies["openai-responses"]] as Record<string, unknown>[]) {
      expect(body).not.toHaveProperty("seed");
      expect(body).not.toHaveProperty("presence_penalty");
    }
  });

  it("a seed beyond 32 bits reaches OpenAI, whose seed is a 64-bit integer (accepted and dropped before)", async () => {
    const upstream = scripted("openai", { text: "one" });
    await chat("openai", upstream, { seed: 2 ** 40 });
    expect(sent(upstream)).toMatchObject({ seed: 2 ** 40 });
  });

  it.each([
    ["top_p", { top_p: 1.5 }],
    ["stop", { stop: Array.from({ length: 17 }, (_, i) => `s${i}`) }],
    ["stop", { stop: [""] }],
    ["seed", { seed: 1.5 }],
    ["frequency_penalty", { frequency_penalty: 3 }],
  ] as const)("%s out of bounds: a 400 naming it, the provider not called", async (param, settings) => {
    const upstream = scripted("openai", { text: "one" });
    // Its bounds in words (before, any value but the default was refused as unsupported).
    const bounds = expect.stringContaining(`\`${param}\` must be`);
    await expect(chat("openai", upstream, settings)).rejects.toMatchObject({ status: 400, param, message: bounds });
    expect(upstream.requests).toHaveLength(0);
  });

  it("a penalty to a provider without one: a 400 naming it, the provider not called", async () => {
    const upstream = scripted("anthropic", { text: "one" });
    const asked = chat("anthropic", upstream, { frequency_penalty: 0.5 });
    const message = expect.stringContaining("with provider anthropic");
    await expect(asked).rejects.toMatchObject({ status: 400, param: "frequency_penalty", message });
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("@anthropic-ai/sdk: Messages' sampling", () => {
  const message = (provider: Provider, upstream: FakeUpstream, settings: Record<string, unknown>) =>
    anthropic(provider, upstream).messages.create({
      model: `${provider}/claude-sonnet-4-5`,
      max_tokens: 256,
      messages: USER,
      ...settings,
    } as Anthropic.MessageCreateParamsNonStreaming);
  const ALL = { top_p: 0.5, top_k: 20, stop_sequences: ["END"] };

  it("reaches Anthropic, OpenAI Chat, Gemini, Bedrock, Cohere and Ollama in their forms", async () => {
    const bodies: Record<string, unknown> = {};
    for (const provider of ["anthropic", "gemini", "cohere", "ollama"] as const) {
      const upstream = scripted(provider, { text: "one" });
      await message(provider, upstream, ALL);
      bodies[provider] = formOf(provider, upstream);
    }
    for (const provider of ["openai", "bedrock"] as const) {
      const upstream = scripted(provider, { text: "one" });
      await message(provider, upstream, { top_p: 0.5, stop_sequences: ["END"] });
      bodies[provider] = formOf(provider, upstream);
    }
    expect(bodies).toMatchObject({
      anthropic: ALL,
      gemini: { topP: 0.5, topK: 20, stopSequences: ["END"] },
      cohere: { p: 0.5, k: 20, stop_sequences: ["END"] },
      ollama: { top_p: 0.5, top_k: 20, stop: ["END"] },
      openai: { top_p: 0.5, stop: ["END"] },
      bedrock: { topP: 0.5, stopSequences: ["END"] },
    });
  });

  it("with thinking, Anthropic gets top_p and no top_k (which it refuses with thinking, as a temperature)", async () => {
    const upstream = scripted("anthropic", { text: "one" });
    await message("anthropic", upstream, {
      ...ALL,
      top_p: 0.95,
      thinking: { type: "enabled", budget_tokens: 1024 },
      max_tokens: 4096,
    });
    expect(sent(upstream)).toMatchObject({ top_p: 0.95, stop_sequences: ["END"], thinking: { type: "enabled" } });
    expect(sent(upstream)).not.toHaveProperty("top_k");
  });

  it("Claude takes a temperature or a top_p, not both: the temperature wins, as thinking wins over both", async () => {
    // Claude from 4.5 refuses the two together ("cannot both be specified"), and with thinking a
    // top_p below 0.95; before top_p was carried, a client sending both was answered.
    const direct = scripted("anthropic", { text: "one" });
    await message("anthropic", direct, { temperature: 0.2, top_p: 0.5 });
    expect(sent(direct)).toMatchObject({ temperature: 0.2 });
    expect(sent(direct)).not.toHaveProperty("top_p");
    const bedrock = scripted("bedrock", { text: "one" });
    await message("bedrock", bedrock, { temperature: 0.2, top_p: 0.5 });
    expect(formOf("bedrock", bedrock)).toEqual({ maxTokens: 256, temperature: 0.2 });
    const thinking = scripted("anthropic", { text: "one" });
    await message("anthropic", thinking, {
      top_p: 0.9,
      thinking: { type: "enabled", budget_tokens: 1024 },
      max_tokens: 4096,
    });
    expect(sent(thinking)).not.toHaveProperty("top_p");
    const alone = scripted("anthropic", { text: "one" });
    await message("anthropic", alone, {
      top_p: 0.96,
      thinking: { type: "enabled", budget_tokens: 1024 },
      max_tokens: 4096,
    });
    expect(sent(alone)).toMatchObject({ top_p: 0.96 });
  });

  it("one the provider has no field for is not sent, as an agent sends it by default", async () => {
    // Claude Code's auto-mode classifier asks with `stop_sequences: ["</block>"]`; OpenAI Responses
    // has no stop sequences (the Worker applies them), OpenAI Chat no top_k (left out). Refused,
    // the agent's turn would fail there.
    const responses = scripted("openai-responses", { text: "one" });
    await message("openai-responses", responses, { top_k: 20, stop_sequences: ["</block>"] });
    expect(sent(responses)).not.toHaveProperty("stop");
    expect(sent(responses)).not.toHaveProperty("top_k");
    const chat = scripted("openai", { text: "one" });
    await message("openai", chat, { top_k: 20, stop_sequences: ["</block>"] });
    expect(sent(chat)).toMatchObject({ stop: ["</block>"] });
    expect(sent(chat)).not.toHaveProperty("top_k");
  });

  it("to OpenAI Chat's reasoning models, which refuse `stop`, an agent's stop sequences are not sent", async () => {
    // gpt-5 and the o-series answer `stop` with "Unsupported parameter"; Claude Code's classifier
    // sends `stop_sequences` (worker/env.ts's example alias is claude-sonnet-4-6=openai/gpt-5): the
    // Worker applies them itself.
    const stops: unknown[] = [];
    for (const model of ["openai/gpt-5", "openai/o4-mini", "openai/gpt-4.1"]) {
      const upstream = scripted("openai", { text: "one" });
      await message("openai", upstream, { model, stop_sequences: ["</block>"] });
      stops.push(sent(upstream)["stop"]);
    }
    expect(stops).toEqual([undefined, undefined, ["</block>"]]);
  });

  it.each([
    ["top_k", "anthropic", { top_k: 0 }],
    ["top_p", "anthropic", { top_p: -0.1 }],
    ["stop_sequences", "anthropic", { stop_sequences: ["x".repeat(1001)] }],
  ] as const)("%s (%s) out of bounds: a 400 naming it, the provider not called", async (field, provider, settings) => {
    const upstream = scripted(provider, { text: "one" });
    const error = await message(provider, upstream, settings).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400 });
    expect(JSON.stringify((error as { error?: unknown }).error)).toContain(`\`${field}\``);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("openai-node: Responses' top_p and penalties", () => {
  it("reaches OpenAI Responses and Anthropic; out of bounds it is a 400 naming it", async () => {
    for (const provider of ["openai-responses", "anthropic"] as const) {
      const upstream = scripted(provider, { text: "one" });
      await openai(provider, upstream).responses.create({ model: `${provider}/m`, input: "Count.", top_p: 0.5 });
      expect(sent(upstream)).toMatchObject({ top_p: 0.5 });
    }
    const upstream = scripted("openai-responses", { text: "one" });
    const asked = openai("openai-responses", upstream).responses.create({
      model: "openai-responses/m",
      input: "Count.",
      top_p: 2,
    });
    await expect(asked).rejects.toMatchObject({ status: 400, param: "top_p" });
    expect(upstream.requests).toHaveLength(0);
  });

  // Open Responses' penalties, which the response repeats: they were echoed and dropped before.
  it("the penalties reach Gemini and Cohere; to Anthropic, which has none, a 400 naming it", async () => {
    const create = (provider: Provider, upstream: FakeUpstream, penalties: Record<string, number>) =>
      openai(provider, upstream).responses.create({ model: `${provider}/m`, input: "Count.", ...penalties } as never);
    const penalties = { presence_penalty: 0.5, frequency_penalty: -0.25 };
    const bodies: Record<string, unknown> = {};
    for (const provider of ["gemini", "cohere"] as const) {
      const upstream = scripted(provider, { text: "one" });
      expect(await create(provider, upstream, penalties)).toMatchObject(penalties);
      bodies[provider] = formOf(provider, upstream);
    }
    expect(bodies).toMatchObject({
      gemini: { presencePenalty: 0.5, frequencyPenalty: -0.25 },
      cohere: { presence_penalty: 0.5, frequency_penalty: -0.25 },
    });
    const upstream = scripted("anthropic", { text: "one" });
    await expect(create("anthropic", upstream, { frequency_penalty: 1 })).rejects.toMatchObject({
      status: 400,
      param: "frequency_penalty",
    });
    // At 0, the default everywhere, it is nothing to refuse.
    await create("anthropic", upstream, { presence_penalty: 0 });
    expect(upstream.requests).toHaveLength(1);
  });
});

describe("the AI SDK and AG-UI", () => {
  it("the AI SDK's topP, stopSequences and seed reach the provider through Chat Completions", async () => {
    const upstream = scripted("gemini", { text: "one" });
    const model = createOpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: fetchOf("gemini", upstream),
    });
    await generateText({ model: model.chat("gemini/m"), prompt: "Count.", topP: 0.5, stopSequences: ["END"], seed: 3 });
    expect(sent(upstream)["generationConfig"]).toMatchObject({ topP: 0.5, stopSequences: ["END"], seed: 3 });
  });

  it("AG-UI's forwardedProps carry them; out of bounds, a 400 names forwardedProps.top_k", async () => {
    const input = (props: Record<string, unknown>) => agUIRun({ model: "ollama/m", ...props });
    const upstream = scripted("ollama", { text: "one" });
    const response = await fetchOf("ollama", upstream)(
      "http://localhost:8787/v1/ag-ui",
      input({ top_k: 5, stop: "END" }),
    );
    await response.text();
    expect(sent(upstream)["options"]).toMatchObject({ top_k: 5, stop: ["END"] });
    const refused = await fetchOf("ollama", upstream)("http://localhost:8787/v1/ag-ui", input({ top_k: 5000 }));
    expect(refused.status).toBe(400);
    // AG-UI's own error shape, naming the field where the client put it.
    expect(await refused.json()).toMatchObject({
      type: "RUN_ERROR",
      message: expect.stringContaining("`forwardedProps.top_k`"),
    });
    expect(upstream.requests).toHaveLength(1);
  });
});
