// Structured output through the Worker, asked for in each client's own protocol: the AI SDK's
// `Output.object` on its OpenAI Responses model (`text.format`, json_schema) and on its Anthropic
// model for a Claude model that takes `output_config.format` (it then sends no JSON tool to
// force), openai-node's Chat `response_format`, @anthropic-ai/sdk's `output_config.format`. An
// upstream of the client's protocol gets it as it came; OpenAI Chat, OpenAI Responses, Anthropic,
// Gemini, Gemini Interactions, Cohere, Ollama and Bedrock of another get the same JSON Schema in
// their own form. Each was dropped (the model answered prose) or a 400; JSON without a schema to a
// provider that takes none (Anthropic, Bedrock) is a 400 naming the field, before any provider is called.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import Anthropic from "@anthropic-ai/sdk";
import { generateText, jsonSchema, type LanguageModel, Output } from "ai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import { workerFetch } from "./client-support.ts";
import { live, scripted } from "./open-responses-support.ts";
import type { FakeUpstream } from "./support.ts";

const SCHEMA = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
} as const;
const ANSWER = '{"city":"Paris"}';
const fetchOf = (provider: Provider, upstream: FakeUpstream) => workerFetch({ env: live(provider), upstream });
/** The body the fake provider received. */
const sent = (upstream: FakeUpstream): Record<string, any> => upstream.requests[0]!.body as Record<string, any>;

describe("the AI SDK's Output.object", () => {
  /** The object the AI SDK's `Output.object` reads from `model`'s answer through the Worker (its OpenAI model unstored). */
  const objectFrom = async (model: LanguageModel) => {
    const { output } = await generateText({
      model,
      prompt: "Which city is the capital of France?",
      output: Output.object({ schema: jsonSchema<{ city: string }>(SCHEMA) }),
      providerOptions: { openai: { store: false } },
    });
    return output;
  };
  /** The AI SDK's OpenAI Responses model `provider/model`, through the Worker to `upstream`. */
  const responsesModel = (provider: Provider, model: string, upstream: FakeUpstream) =>
    createOpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch: fetchOf(provider, upstream) }).responses(
      `${provider}/${model}`,
    );

  it("OpenAI Responses: text.format reaches the upstream, and the object is read from its answer", async () => {
    const upstream = scripted("openai-responses", { text: ANSWER });
    expect(await objectFrom(responsesModel("openai-responses", "gpt-5", upstream))).toEqual({ city: "Paris" });
    expect(sent(upstream)["text"]).toMatchObject({ format: { type: "json_schema", schema: SCHEMA, strict: true } });
  });

  it("OpenAI Responses' text.format to Anthropic: its JSON Schema as output_config.format", async () => {
    const upstream = scripted("anthropic", { text: ANSWER });
    expect(await objectFrom(responsesModel("anthropic", "claude-opus-4-7", upstream))).toEqual({
      city: "Paris",
    });
    expect(sent(upstream)["output_config"]).toEqual({ format: { type: "json_schema", schema: SCHEMA } });
  });

  it("Anthropic, for a Claude model that takes output_config.format: it reaches the upstream", async () => {
    const upstream = scripted("anthropic", { text: ANSWER });
    const model = createAnthropic({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: fetchOf("anthropic", upstream),
    });
    expect(await objectFrom(model("anthropic/claude-sonnet-5-5"))).toEqual({ city: "Paris" });
    const body = sent(upstream);
    expect(body["output_config"]).toMatchObject({ format: { type: "json_schema", schema: SCHEMA } });
    expect(body["tools"]).toBeUndefined();
  });
});

describe("openai-node: Chat Completions' response_format", () => {
  const ask = (provider: Provider, upstream: FakeUpstream) =>
    new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: fetchOf(provider, upstream),
      maxRetries: 0,
    }).chat.completions.create({
      model: `${provider}/m`,
      messages: [{ role: "user", content: "Which city is the capital of France?" }],
      response_format: { type: "json_schema", json_schema: { name: "place", schema: SCHEMA, strict: true } },
    });

  it("an OpenAI Chat upstream gets it as sent", async () => {
    const upstream = scripted("openai", { text: ANSWER });
    const completion = await ask("openai", upstream);
    expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({ city: "Paris" });
    expect(sent(upstream)["response_format"]).toEqual({
      type: "json_schema",
      json_schema: { name: "place", schema: SCHEMA, strict: true },
    });
  });

  it("Anthropic gets its JSON Schema as output_config.format", async () => {
    const upstream = scripted("anthropic", { text: ANSWER });
    const completion = await ask("anthropic", upstream);
    expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({ city: "Paris" });
    expect(sent(upstream)["output_config"]).toEqual({ format: { type: "json_schema", schema: SCHEMA } });
  });

  it("Gemini, Gemini Interactions, Cohere, Ollama and Bedrock get it in their own form", async () => {
    const forms = {
      gemini: "generationConfig",
      "gemini-interactions": "response_format",
      cohere: "response_format",
      ollama: "format",
      bedrock: "outputConfig",
    } as const;
    const bodies: Record<string, unknown> = {};
    for (const provider of Object.keys(forms) as (keyof typeof forms)[]) {
      const upstream = scripted(provider, { text: ANSWER });
      const completion = await ask(provider, upstream);
      expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({ city: "Paris" });
      bodies[provider] = sent(upstream)[forms[provider]];
    }
    expect(bodies).toEqual({
      gemini: expect.objectContaining({ responseMimeType: "application/json", responseJsonSchema: SCHEMA }),
      "gemini-interactions": { type: "text", mime_type: "application/json", schema: SCHEMA },
      cohere: { type: "json_object", json_schema: SCHEMA },
      ollama: SCHEMA,
      // Converse takes the schema as a JSON string.
      bedrock: {
        textFormat: {
          type: "json_schema",
          structure: { jsonSchema: { schema: JSON.stringify(SCHEMA), name: "place" } },
        },
      },
    });
  });

  it("a strict that is no boolean, or a schema that is no object, to another provider: a 400 naming the field under json_schema", async () => {
    const asked = async (jsonSchemaFields: Record<string, unknown>) => {
      const upstream = scripted("anthropic", { text: ANSWER });
      const request = new OpenAI({
        baseURL: "http://localhost:8787/v1",
        apiKey: "t",
        fetch: fetchOf("anthropic", upstream),
        maxRetries: 0,
      }).chat.completions.create({
        model: "anthropic/m",
        messages: [{ role: "user", content: "Which city is the capital of France?" }],
        response_format: { type: "json_schema", json_schema: { name: "place", ...jsonSchemaFields } as never },
      });
      const error = await request.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      return { error, called: upstream.requests.length };
    };
    expect(await asked({ schema: SCHEMA, strict: "true" })).toMatchObject({
      error: { status: 400, param: "response_format.json_schema.strict" },
      called: 0,
    });
    expect(await asked({ schema: "{}" })).toMatchObject({
      error: { status: 400, param: "response_format.json_schema.schema" },
      called: 0,
    });
    expect(await asked({ schema: SCHEMA, strict: null })).toMatchObject({ error: undefined, called: 1 });
  });

  it("JSON without a schema to a provider with none (Bedrock): a 400 naming response_format, the provider not called", async () => {
    const upstream = scripted("bedrock", { text: ANSWER });
    const request = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: fetchOf("bedrock", upstream),
      maxRetries: 0,
    });
    await expect(
      request.chat.completions.create({
        model: "bedrock/m",
        messages: [{ role: "user", content: "Which city is the capital of France? Answer in JSON." }],
        response_format: { type: "json_object" },
      }),
    ).rejects.toMatchObject({ status: 400, param: "response_format" });
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("@anthropic-ai/sdk: output_config.format", () => {
  const ask = (provider: Provider, upstream: FakeUpstream) =>
    new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      fetch: fetchOf(provider, upstream),
      maxRetries: 0,
    }).messages.create({
      // A Claude model that thinks adaptively, so that the effort goes as `output_config.effort`.
      model: `${provider}/claude-opus-4-7`,
      max_tokens: 256,
      messages: [{ role: "user", content: "Which city is the capital of France?" }],
      output_config: { effort: "low", format: { type: "json_schema", schema: SCHEMA } },
      thinking: { type: "adaptive" },
    });

  it("an Anthropic upstream gets it beside the effort", async () => {
    const upstream = scripted("anthropic", { text: ANSWER });
    const message = await ask("anthropic", upstream);
    expect(message.content).toEqual([expect.objectContaining({ type: "text", text: ANSWER })]);
    expect(sent(upstream)["output_config"]).toEqual({ effort: "low", format: { type: "json_schema", schema: SCHEMA } });
  });

  it("OpenAI Chat gets its JSON Schema as response_format, named output", async () => {
    const upstream = scripted("openai", { text: ANSWER });
    const message = await ask("openai", upstream);
    expect(message.content).toEqual([expect.objectContaining({ type: "text", text: ANSWER })]);
    expect(sent(upstream)["response_format"]).toEqual({
      type: "json_schema",
      json_schema: { name: "output", schema: SCHEMA },
    });
  });

  it("Bedrock gets its JSON Schema as outputConfig.textFormat, named output", async () => {
    const upstream = scripted("bedrock", { text: ANSWER });
    const message = await ask("bedrock", upstream);
    expect(message.content).toEqual([expect.objectContaining({ type: "text", text: ANSWER })]);
    const jsonSchema = sent(upstream)["outputConfig"]?.["textFormat"]?.["structure"]?.["jsonSchema"];
    expect(jsonSchema).toEqual({ schema: JSON.stringify(SCHEMA), name: "output" });
  });

  it("Gemini Interactions gets its JSON Schema as response_format", async () => {
    const upstream = scripted("gemini-interactions", { text: ANSWER });
    const message = await ask("gemini-interactions", upstream);
    expect(message.content).toEqual([expect.objectContaining({ type: "text", text: ANSWER })]);
    expect(sent(upstream)["response_format"]).toEqual({ type: "text", mime_type: "application/json", schema: SCHEMA });
  });
});

describe("a raw Messages client's beta output_format", () => {
  // The structured-outputs beta's field, as a client that does not convert it sends it: Anthropic
  // takes it only with the beta's header, which the Worker forwards only when ANTHROPIC_BETAS lists it.
  const ask = (upstream: FakeUpstream) =>
    fetchOf("anthropic", upstream)("http://localhost:8787/v1/messages", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "t", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({
        model: "anthropic/claude-opus-4-7",
        max_tokens: 256,
        messages: [{ role: "user", content: "Which city is the capital of France?" }],
        output_format: { type: "json_schema", schema: SCHEMA },
      }),
    });

  it("reaches Anthropic in its GA form, output_config.format", async () => {
    const upstream = scripted("anthropic", { text: ANSWER });
    const response = await ask(upstream);
    expect(response.status).toBe(200);
    expect(sent(upstream)["output_config"]).toEqual({ format: { type: "json_schema", schema: SCHEMA } });
    expect(sent(upstream)).not.toHaveProperty("output_format");
  });
});

describe("Gemini before 3 with function tools: it refuses JSON output beside function calling", () => {
  const lookup = { name: "lookup", parameters: { type: "object", properties: {} } };
  const chat = (model: string, upstream: FakeUpstream, provider: Provider = "gemini") =>
    new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: fetchOf(provider, upstream),
      maxRetries: 0,
    }).chat.completions.create({
      model: `${provider}/${model}`,
      messages: [{ role: "user", content: "Which city is the capital of France?" }],
      tools: [{ type: "function", function: lookup }],
      response_format: { type: "json_schema", json_schema: { name: "place", schema: SCHEMA } },
    });

  it("Chat's response_format is a 400 naming it, the provider not called, through Interactions too", async () => {
    for (const provider of ["gemini", "gemini-interactions"] as const) {
      const upstream = scripted(provider, { text: ANSWER });
      const asked = chat("gemini-2.5-flash", upstream, provider);
      await expect(asked).rejects.toMatchObject({ status: 400, param: "response_format" });
      expect(upstream.requests).toHaveLength(0);
    }
  });

  it("Responses' text.format is left out, as for a provider without structured output", async () => {
    const upstream = scripted("gemini", { text: ANSWER });
    await new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch: fetchOf("gemini", upstream) }).responses
      .stream({
        model: "gemini/gemini-2.5-flash",
        input: "Which city is the capital of France?",
        tools: [{ type: "function", ...lookup, strict: false }],
        text: { format: { type: "json_schema", name: "place", schema: SCHEMA } },
        store: false,
      })
      .finalResponse();
    expect(sent(upstream)["generationConfig"]?.["responseMimeType"]).toBeUndefined();
  });

  it("Gemini 3 takes both: the schema is sent beside the tools", async () => {
    const upstream = scripted("gemini", { text: ANSWER });
    await chat("gemini-3-flash-preview", upstream);
    expect(sent(upstream)["generationConfig"]).toMatchObject({ responseJsonSchema: SCHEMA });
  });
});
