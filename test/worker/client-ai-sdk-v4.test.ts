// ai 7 with its own providers, @ai-sdk/openai 4 and @ai-sdk/anthropic 4 (ai 6's tests drive the
// 3.x providers), against the Worker in workerd: `generateText` and `streamText` tool loops on
// the OpenAI Responses model (stored by default: the SDK sends its earlier step back as an
// `item_reference`, read from the RESPONSES Durable Objects), the OpenAI Chat model and the
// Anthropic Messages model, each in front of Anthropic, OpenAI Chat, OpenAI Responses and Gemini
// fakes answering two steps (a call with text, then the answer): the tool runs once with the
// call's input, the steps finish `tool-calls` then `stop`, and the last request the provider gets
// holds the call and its result. Each SDK's request is the one it sends (no `fetch` rewriting).
import { createAnthropic } from "@ai-sdk/anthropic-v4";
import { createOpenAI } from "@ai-sdk/openai-v4";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai-v7";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import type { ScriptedTurn } from "../../worker/upstream/replay/scripted/script.ts";
import { workerFetch } from "./client-support.ts";
import { live, turns } from "./open-responses-support.ts";
import { responses } from "./support.ts";

const CALL = { name: "get_weather", arguments: { city: "Paris" } };
const STEPS: Partial<ScriptedTurn>[] = [{ text: "Checking Paris.", calls: [CALL] }, { text: "Paris is 18 °C." }];
/** Gemini's scripted turn is its calls alone, no text beside them: no message item for the SDK to reference. */
const TEXTLESS = new Set<Provider>(["gemini"]);
const CITY = { type: "object", properties: { city: { type: "string" } }, required: ["city"] } as const;
const BASE = "http://localhost:8787/v1";
/** Each of the SDK's models for `<provider>/<model>`, on `fetch`. */
const MODELS = {
  responses: (fetch: typeof globalThis.fetch, id: string) =>
    createOpenAI({ baseURL: BASE, apiKey: "t", fetch }).responses(`${id}/gpt-5`),
  chat: (fetch: typeof globalThis.fetch, id: string) =>
    createOpenAI({ baseURL: BASE, apiKey: "t", fetch }).chat(`${id}/gpt-5`),
  messages: (fetch: typeof globalThis.fetch, id: string) =>
    createAnthropic({ baseURL: BASE, apiKey: "t", fetch })(`${id}/claude-sonnet-4-5`),
};

/** Runs `kind`'s loop on `model` to its end: the steps' finish reasons, the text, the tool's inputs, the bodies sent. */
async function loop(kind: "generateText" | "streamText", model: keyof typeof MODELS, provider: Provider) {
  const upstream = turns(provider, TEXTLESS.has(provider) ? [{ calls: [CALL] }, STEPS[1]!] : STEPS);
  const toWorker = workerFetch({ env: { ...live(provider), RESPONSES: responses }, upstream });
  const sent: string[] = [];
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    sent.push(String(init?.body));
    return toWorker(input, init);
  }) as typeof globalThis.fetch;
  const cities: string[] = [];
  const execute = async ({ city }: { city: string }) => (cities.push(city), { city, temperature: 18 });
  const get_weather = tool({
    description: "The weather in a city",
    inputSchema: jsonSchema<{ city: string }>(CITY),
    execute,
  });
  const options = {
    model: MODELS[model](fetch, provider),
    prompt: "Weather in Paris?",
    tools: { get_weather },
    stopWhen: stepCountIs(4),
  };
  if (kind === "generateText") {
    const result = await generateText(options);
    return { reasons: result.steps.map((step) => step.finishReason), text: result.text, cities, sent, upstream };
  }
  let failure: unknown;
  const result = streamText({ ...options, onError: ({ error }) => void (failure = error) });
  const text = await result.text;
  if (failure) throw failure;
  return { reasons: (await result.steps).map((step) => step.finishReason), text, cities, sent, upstream };
}

for (const model of Object.keys(MODELS) as (keyof typeof MODELS)[])
  describe(`ai 7, @ai-sdk/${model === "messages" ? "anthropic" : "openai"} 4's ${model} model: a tool loop through the Worker`, () => {
    for (const kind of ["generateText", "streamText"] as const)
      for (const provider of ["anthropic", "openai", "openai-responses", "gemini"] as Provider[])
        it(`${kind}, ${provider}: the call, the tool run once, the answer from its result`, async () => {
          const { reasons, text, cities, sent, upstream } = await loop(kind, model, provider);
          expect([reasons, text, cities]).toEqual([["tool-calls", "stop"], "Paris is 18 °C.", ["Paris"]]);
          const last = JSON.stringify(upstream.requests.at(-1)!.body);
          for (const part of ["get_weather", "Paris", "18"]) expect(last).toContain(part);
          if (TEXTLESS.has(provider)) return;
          expect(last).toContain("Checking Paris.");
          // The Responses model stores by default: its earlier text goes back as a reference.
          if (model === "responses")
            expect(sent.map((body) => body.match(/"item_reference"/g)?.length ?? 0)).toEqual([0, 1]);
        });
  });
