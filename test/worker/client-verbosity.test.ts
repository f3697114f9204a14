// Verbosity (how long the answer runs: low, medium, high) through the Worker across the two OpenAI
// APIs, each of which takes it in its own place: Chat Completions' top-level `verbosity`, Responses'
// `text.verbosity`. openai-node asks in one protocol; a scripted upstream of the other answers.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import { workerFetch } from "./client-support.ts";
import { live, scripted } from "./open-responses-support.ts";
import type { FakeUpstream } from "./support.ts";

const SCHEMA = { type: "object", properties: { city: { type: "string" } }, required: ["city"] } as const;
const ANSWER = '{"city":"Paris"}';
const fetchOf = (provider: Provider, upstream: FakeUpstream) => workerFetch({ env: live(provider), upstream });
/** The body the fake provider received. */
const sent = (upstream: FakeUpstream): Record<string, any> => upstream.requests[0]!.body as Record<string, any>;

describe("verbosity across OpenAI Chat and OpenAI Responses", () => {
  const client = (provider: Provider, upstream: FakeUpstream) =>
    new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch: fetchOf(provider, upstream), maxRetries: 0 });

  it("Responses' text.verbosity reaches OpenAI Chat as verbosity", async () => {
    const upstream = scripted("openai", { text: "Paris." });
    await client("openai", upstream)
      .responses.stream({
        model: "openai/gpt-5",
        input: "Capital of France?",
        text: { verbosity: "low" },
        store: false,
      })
      .finalResponse();
    expect(sent(upstream)["verbosity"]).toBe("low");
  });

  it("Chat's verbosity reaches OpenAI Responses as text.verbosity, beside the format", async () => {
    const upstream = scripted("openai-responses", { text: ANSWER });
    await client("openai-responses", upstream).chat.completions.create({
      model: "openai-responses/gpt-5",
      messages: [{ role: "user", content: "Which city is the capital of France?" }],
      response_format: { type: "json_schema", json_schema: { name: "place", schema: SCHEMA } },
      verbosity: "high",
    });
    expect(sent(upstream)["text"]).toEqual({
      format: { type: "json_schema", name: "place", schema: SCHEMA },
      verbosity: "high",
    });
  });
});
