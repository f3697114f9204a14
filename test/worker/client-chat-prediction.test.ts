// Predicted Outputs on /v1/chat/completions: openai-node's `ChatCompletionPredictionContent`
// (`{type: "content", content: string | ChatCompletionContentPartText[]}`), which the AI SDK's
// OpenAI chat model sends from `providerOptions.openai.prediction`. Checked as OpenAI checks it (a
// 400 naming its path) and sent to no provider, as `service_tier` goes nowhere: a prediction's
// rejected tokens bill the operator's key ("still counted in the total completion tokens for
// purposes of billing", openai-node's CompletionTokensDetails), and OpenAI's guide lists tools among
// what Predicted Outputs refuse. The client gets its answer, only without the speed-up.
import { createOpenAI } from "@ai-sdk/openai";
import { generateText } from "ai";
import type OpenAI from "openai";
import { BadRequestError } from "openai";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { openAIClient, workerFetch } from "./client-support.ts";
import { live, scripted } from "./open-responses-support.ts";
import type { FakeUpstream } from "./support.ts";

const FILE = "export const answer = 42;\n";
const PREDICTION = { type: "content", content: FILE } as const;
/** OpenAI Chat at OpenAI itself, where the Worker sends OpenAI's own fields (not `prediction`). */
const AT_OPENAI: Env = { ...live("openai"), OPENAI_BASE_URL: "https://api.openai.com/v1" };
const sent = (upstream: FakeUpstream): Record<string, unknown> => upstream.requests[0]!.body;
const ask = (prediction: unknown) => ({
  messages: [{ role: "user" as const, content: "Rename answer to result." }],
  prediction: prediction as OpenAI.Chat.ChatCompletionPredictionContent,
});

describe("/v1/chat/completions: prediction (Predicted Outputs)", () => {
  it("openai-node: OpenAI Chat at api.openai.com answers, without the prediction (a string or text parts)", async () => {
    const parts = { type: "content", content: [{ type: "text", text: FILE }] } as const;
    for (const prediction of [PREDICTION, parts]) {
      const upstream = scripted("openai", { text: "export const result = 42;" });
      const completion = await openAIClient(upstream, AT_OPENAI).chat.completions.create({
        model: "openai/gpt-4.1",
        ...ask(prediction),
      });
      expect(completion.choices[0]?.message.content).toBe("export const result = 42;");
      expect(sent(upstream)).not.toHaveProperty("prediction");
      expect(JSON.stringify(sent(upstream))).not.toContain("answer = 42");
    }
  });

  it("the AI SDK's providerOptions.openai.prediction: an answer, no prediction sent", async () => {
    const upstream = scripted("openai", { text: "export const result = 42;" });
    const model = createOpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env: AT_OPENAI, upstream }),
    }).chat("openai/gpt-4.1");
    const { text } = await generateText({
      model,
      prompt: "Rename answer to result.",
      providerOptions: { openai: { prediction: PREDICTION } },
    });
    expect(text).toBe("export const result = 42;");
    expect(sent(upstream)).not.toHaveProperty("prediction");
  });

  const others: [string, Provider, Env][] = [
    ["a compatible server", "openai", live("openai")],
    ["OpenAI Responses", "openai-responses", live("openai-responses")],
    ["Anthropic", "anthropic", live("anthropic")],
    ["Gemini", "gemini", live("gemini")],
  ];
  for (const [name, provider, env] of others)
    it(`${name} answers without it`, async () => {
      const upstream = scripted(provider, { text: "export const result = 42;" });
      const completion = await openAIClient(upstream, env).chat.completions.create({
        model: `${provider}/m`,
        ...ask(PREDICTION),
      });
      expect(completion.choices[0]?.message.content).toBe("export const result = 42;");
      expect(JSON.stringify(sent(upstream))).not.toContain("answer = 42");
    });

  it("one not of ChatCompletionPredictionContent's shape is a 400 naming its path", async () => {
    const cases: [unknown, string][] = [
      ["text", "prediction"],
      [{ type: "text", content: FILE }, "prediction.type"],
      [{ type: "content" }, "prediction.content"],
      [
        { type: "content", content: [{ type: "image_url", image_url: { url: "https://x.test/a.png" } }] },
        "prediction.content[0].type",
      ],
      [{ type: "content", content: [{ type: "text" }] }, "prediction.content[0].text"],
      [{ type: "content", content: FILE, extra: 1 }, "prediction.extra"],
      [{ type: "content", content: [{ type: "text", text: FILE, extra: 1 }] }, "prediction.content[0].extra"],
    ];
    for (const [prediction, param] of cases) {
      const upstream = scripted("openai", { text: "x" });
      const error = await openAIClient(upstream, AT_OPENAI)
        .chat.completions.create({ model: "openai/gpt-4.1", ...ask(prediction) })
        .catch((caught: unknown) => caught);
      expect(error, JSON.stringify(prediction)).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).param, JSON.stringify(prediction)).toBe(param);
      expect(upstream.requests).toHaveLength(0);
    }
  });
});
