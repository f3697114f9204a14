// POST /v1/messages without `stream` when the upstream's length stop cuts a call inside its
// arguments: the cut call's `input` is an object, as Messages types it: the members whole before
// the cut, as @anthropic-ai/sdk's `messages.stream().finalMessage()` reads the same answer
// streamed, never the text of its cut arguments. A string there was a call whose input is a
// string to the AI SDK's `generateText` through @ai-sdk/anthropic (its tool would run with it),
// where `streamText` of the same answer gave an invalid call.
import { createAnthropic } from "@ai-sdk/anthropic";
import { generateText, jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { anthropicClient, workerFetch } from "./client-support.ts";
import { live } from "./open-responses-support.ts";
import { chatChunk, FakeUpstream, openAIChunks, weatherCall } from "./support.ts";

const env = live("openai");
const schema = { type: "object" as const, properties: { city: { type: "string" }, unit: { type: "string" } } };
const request = {
  model: "openai/test-model",
  max_tokens: 100,
  messages: [{ role: "user" as const, content: "Weather?" }],
  tools: [{ name: "get_weather", description: "The weather in a city.", input_schema: schema }],
};
/** Text, a whole call, then a call the length stop cut inside its second member. */
const answer = [
  chatChunk({ content: "Checking." }),
  weatherCall(0, "call_1", '{"city":"Paris"}'),
  weatherCall(1, "call_2", '{"city":"Brest","unit":"cel'),
  chatChunk({}, "length"),
];
const upstream = () => new FakeUpstream({ kind: "sse", chunks: openAIChunks(answer) });
const INPUTS = [
  ["call_1", { city: "Paris" }],
  ["call_2", { city: "Brest" }],
];

describe("POST /v1/messages, not streamed: a call the length stop cut", () => {
  it("@anthropic-ai/sdk: messages.create gives its input as finalMessage() reads it streamed, an object", async () => {
    const streamed = await anthropicClient(upstream(), env).messages.stream(request).finalMessage();
    const whole = await anthropicClient(upstream(), env).messages.create(request);
    const inputs = (content: typeof whole.content) =>
      content.flatMap((block) => (block.type === "tool_use" ? [[block.id, block.input]] : []));
    expect(inputs(streamed.content)).toEqual(INPUTS);
    expect(inputs(whole.content)).toEqual(INPUTS);
    expect([whole.stop_reason, streamed.stop_reason]).toEqual(["max_tokens", "max_tokens"]);
  });

  it("the AI SDK's generateText (@ai-sdk/anthropic): the cut call's input is no string, the finish is length", async () => {
    const anthropic = createAnthropic({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env, upstream: upstream() }),
    });
    const result = await generateText({
      model: anthropic("openai/test-model"),
      prompt: "Weather?",
      tools: { get_weather: tool({ description: "The weather in a city.", inputSchema: jsonSchema(schema) }) },
      maxOutputTokens: 100,
      maxRetries: 0,
    });
    expect(result.finishReason).toBe("length");
    expect(result.toolCalls.map((call) => [call.toolCallId, call.input])).toEqual(INPUTS);
  });
});
