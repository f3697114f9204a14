// The AI SDK's Responses provider (`@ai-sdk/openai`'s `openai.responses()`, what `openai()` is since
// AI SDK 5) against POST /v1/responses in workerd with the RESPONSES Durable Objects: it stores by
// default and sends each earlier step's output back as `item_reference` items, so its tool loops
// (`generateText` and `streamText` with a tool and `stopWhen`) need the Worker's stored
// responses. Run on the offline scripted model and on fakes of the providers whose scripted turn
// writes text beside its calls (a `message` item to reference) answering three
// steps (a call, another call, the answer); what each provider is sent on the last step holds
// both calls and their results in its own shape. openai-node 6 and 7 chain `responses.create`
// with `previous_response_id`.
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import OpenAI6 from "openai";
import OpenAI7 from "openai-v7";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import type { ScriptedTurn } from "../../worker/upstream/replay/scripted/script.ts";
import { workerFetch } from "./client-support.ts";
import { live, turns } from "./open-responses-support.ts";
import { type FakeUpstream, responses, testEnv } from "./support.ts";

// Each step's text is a `message` item, which the AI SDK sends back as an `item_reference`.
const THREE_STEPS: Partial<ScriptedTurn>[] = [
  { text: "Checking Paris first.", calls: [{ name: "get_weather", arguments: { city: "Paris" } }] },
  { text: "Now Tokyo.", calls: [{ name: "get_weather", arguments: { city: "Tokyo" } }] },
  { text: "Paris is 18 °C, Tokyo 24 °C." },
];

/** The AI SDK's Responses model on the Worker, and the tool it runs (which records its inputs). */
function sdk(env: Env, upstream?: FakeUpstream) {
  const toWorker = workerFetch({ env, ...(upstream ? { upstream } : {}) });
  const sent: string[] = [];
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    sent.push(String(init?.body));
    return toWorker(input, init);
  }) as typeof globalThis.fetch;
  const openai = createOpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch });
  const cities: string[] = [];
  const getWeather = tool({
    description: "Get the current weather in a city",
    inputSchema: jsonSchema<{ city: string }>({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    }),
    execute: async ({ city }) => {
      cities.push(city);
      return { city, temperature: city === "Paris" ? 18 : 24 };
    },
  });
  const lookupOrder = tool({
    description: "Look an order up",
    inputSchema: jsonSchema<{ order_id: string }>({
      type: "object",
      properties: { order_id: { type: "string", pattern: "^ORD-[0-9]+$" } },
      required: ["order_id"],
    }),
    execute: async ({ order_id }) => {
      cities.push(order_id);
      return { order_id, status: "shipped" };
    },
  });
  return { openai, tools: { get_weather: getWeather, lookup_order: lookupOrder }, cities, sent };
}

const stored = (provider: Provider): Env => ({ ...live(provider), RESPONSES: responses });
const LOOPS = { generateText, streamText } as const;

/** Runs the loop of `kind` to its end: the steps' finish reasons, the text, what the tool was given. */
async function loop(
  kind: keyof typeof LOOPS,
  env: Env,
  prompt: string,
  upstream?: FakeUpstream,
  provider = "anthropic",
) {
  const { openai, tools, cities, sent } = sdk(env, upstream);
  const options = { model: openai.responses(`${provider}/test-model`), prompt, tools, stopWhen: stepCountIs(5) };
  if (kind === "generateText") {
    const result = await generateText(options);
    return { reasons: result.steps.map((step) => step.finishReason), text: result.text, cities, sent };
  }
  let failure: unknown;
  const result = streamText({ ...options, onError: ({ error }) => void (failure = error) });
  const text = await result.text;
  if (failure) throw failure;
  return { reasons: (await result.steps).map((step) => step.finishReason), text, cities, sent };
}

describe("the AI SDK's Responses provider runs its tool loops through the stored responses", () => {
  for (const kind of Object.keys(LOOPS) as (keyof typeof LOOPS)[]) {
    it(`${kind}, offline (the scripted model): the call, the tool, the answer from its result`, async () => {
      const env = testEnv({ RESPONSES: responses });
      const { reasons, text, cities } = await loop(kind, env, "Where is my order ORD-1234?");
      expect(reasons).toEqual(["tool-calls", "stop"]);
      expect(cities).toEqual(["ORD-1234"]);
      expect(text).toContain("shipped");
    });

    for (const provider of ["anthropic", "openai", "openai-responses", "bedrock"] as Provider[]) {
      it(`${kind}, ${provider}: three steps, each earlier output sent back as item_reference items`, async () => {
        const upstream = turns(provider, THREE_STEPS);
        const { reasons, text, cities, sent } = await loop(
          kind,
          stored(provider),
          "Weather in Paris, then Tokyo?",
          upstream,
          provider,
        );
        expect(reasons).toEqual(["tool-calls", "tool-calls", "stop"]);
        expect(cities).toEqual(["Paris", "Tokyo"]);
        expect(text).toBe("Paris is 18 °C, Tokyo 24 °C.");
        // The SDK sent its earlier text as references; the provider read it, with both calls and results.
        expect(sent.map((body) => body.match(/"item_reference"/g)?.length ?? 0)).toEqual([0, 1, 2]);
        const read = JSON.stringify(upstream.requests.at(-1)!.body);
        for (const part of ["Checking Paris first.", "Now Tokyo.", "Tokyo", "Paris", "get_weather"])
          expect(read).toContain(part);
      });
    }
  }

  // These providers' scripted turns are calls alone: the SDK sends its calls back whole, and the
  // loop runs with the store on all the same.
  for (const provider of ["gemini", "gemini-interactions", "cohere", "ollama"] as Provider[]) {
    it(`generateText, ${provider}: three steps of calls only`, async () => {
      const upstream = turns(
        provider,
        THREE_STEPS.map(({ calls }) => (calls ? { calls } : { text: "Done." })),
      );
      const { reasons, text, cities } = await loop("generateText", stored(provider), "Weather?", upstream, provider);
      expect([reasons, text, cities]).toEqual([["tool-calls", "tool-calls", "stop"], "Done.", ["Paris", "Tokyo"]]);
    });
  }

  it("without the RESPONSES binding the second step is refused, naming the item_reference", async () => {
    const upstream = turns("anthropic", THREE_STEPS);
    await expect(loop("generateText", live("anthropic"), "Weather in Paris?", upstream)).rejects.toMatchObject({
      statusCode: 400,
    });
  });
});

describe("openai-node chains responses.create with previous_response_id", () => {
  for (const [major, OpenAI] of Object.entries({ 6: OpenAI6, 7: OpenAI7 })) {
    it(`openai-node ${major}: a call, its result by previous_response_id, the answer`, async () => {
      const upstream = turns("gemini", [THREE_STEPS[0]!, THREE_STEPS[2]!]);
      const fetch = workerFetch({ env: stored("gemini"), upstream });
      const client = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 }) as OpenAI6;
      const weather = {
        type: "function" as const,
        name: "get_weather",
        strict: false,
        parameters: { type: "object", properties: { city: { type: "string" } } },
      };
      const first = await client.responses.create({ model: "gemini/test-model", input: "Weather?", tools: [weather] });
      const call = first.output.find((item) => item.type === "function_call")!;
      const second = await client.responses.create({
        model: "gemini/test-model",
        previous_response_id: first.id,
        input: [{ type: "function_call_output", call_id: call.call_id, output: "18 °C" }],
        tools: [weather],
      });
      expect([second.status, second.previous_response_id, second.output_text]).toEqual([
        "completed",
        first.id,
        "Paris is 18 °C, Tokyo 24 °C.",
      ]);
      expect(await client.responses.retrieve(second.id)).toEqual(second);
      // OpenAI streams a background response again and answers one created without it a 400 of param `stream`.
      await expect(client.responses.retrieve(second.id, { stream: true })).rejects.toMatchObject({
        status: 400,
        param: "stream",
      });
      const items = await client.responses.inputItems.list(second.id, { order: "asc" });
      expect(items.data.map((item) => item.type)).toEqual(["message", "function_call", "function_call_output"]);
      await client.responses.delete(second.id);
      // A 404 whatever its `type` (openai-node maps the status), as OpenAI answers an unknown response.
      await expect(client.responses.retrieve(second.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
      // OpenAI's answer to a `previous_response_id` it does not have: a 400 whose code clients match
      // (to send the whole conversation again), not a 404.
      await expect(
        client.responses.create({ model: "gemini/test-model", previous_response_id: second.id, input: "Hi" }),
      ).rejects.toMatchObject({
        status: 400,
        code: "previous_response_not_found",
        param: "previous_response_id",
        type: "invalid_request_error",
      });
    });
  }
});
