// A tool loop read by a one-response protocol: Messages and Responses show the loop's first step
// (its text and calls, as the model made them), not its later ones. The loop's steps count from 1:
// @anthropic-ai/sdk's finalMessage() and openai-node's finalResponse() over runToolLoop through the
// encoder stage give the first step's calls, never an error in place of the whole answer.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import {
  AnthropicMessagesEncoderStream,
  OpenAIChatCompletionBuilder,
  OpenAIChatEncoderStream,
  OpenAIResponsesEncoderStream,
  readAnthropicMessage,
  readOpenAIResponse,
  runToolLoop,
} from "../../src/index.ts";
import { AGENT_OPTIONS } from "../support/encoders.ts";
import { recording, recordingsAvailable } from "../support/fixtures.ts";
import { replayModel } from "../support/tool-fakes.ts";

/** A loop of two recorded steps: two `weather` calls, then the answer. */
const loop = () =>
  runToolLoop({
    provider: "anthropic",
    messages: [{ role: "user", content: "hi" }],
    tools: { weather: { run: () => ({ sky: "clear" }) } },
    call: replayModel([
      recording("anthropic", "parallel-tool-use").text,
      recording("anthropic", "thinking-then-text").text,
    ]).call,
  });
/** A client's options: every request answered with the loop through `stage`'s bytes. */
const answeredBy = (stage: () => TransformStream<unknown, Uint8Array>) => ({
  apiKey: "test",
  maxRetries: 0,
  fetch: async () => new Response(loop().pipeThrough(stage()), { headers: { "content-type": "text/event-stream" } }),
});

describe.skipIf(!recordingsAvailable)("a tool loop through a one-response encoder: its first step", () => {
  it("@anthropic-ai/sdk: the first step's tool_use blocks, stop_reason tool_use", async () => {
    const options = answeredBy(() => new AnthropicMessagesEncoderStream(AGENT_OPTIONS.anthropic()));
    const message = await new Anthropic({ ...options, baseURL: "http://127.0.0.1:9" }).messages
      .stream({ model: "test-model", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
      .finalMessage();
    const calls = message.content.flatMap((block) => (block.type === "tool_use" ? [block.name] : []));
    expect([calls, message.stop_reason]).toEqual([["weather", "weather"], "tool_use"]);
  });

  it("openai-node: the first step's function_call items, completed", async () => {
    const options = answeredBy(() => new OpenAIResponsesEncoderStream(AGENT_OPTIONS.responses()));
    const response = await new OpenAI({ ...options, baseURL: "http://127.0.0.1:9/v1" }).responses
      .stream({ model: "test-model", input: "hi" })
      .finalResponse();
    const calls = response.output.flatMap((item) => (item.type === "function_call" ? [item.name] : []));
    expect([calls, response.status]).toEqual([["weather", "weather"], "completed"]);
  });
});

/** A loop whose first model call fails before the provider answers (the network): no step to show. */
const failedLoop = () =>
  runToolLoop({
    provider: "openai",
    messages: [{ role: "user", content: "hi" }],
    tools: { weather: { run: () => ({ sky: "clear" }) } },
    call: () => Promise.reject(new TypeError("Network connection lost to llm.internal.")),
  });
const failedBy = (stage: () => TransformStream<unknown, Uint8Array>) => ({
  apiKey: "test",
  maxRetries: 0,
  fetch: async () =>
    new Response(failedLoop().pipeThrough(stage()), { headers: { "content-type": "text/event-stream" } }),
});
/** The loop's own reason, by name only: never "ended before it finished", never the error's message. */
const LOOP_REASON = /The request of step 1 failed before a response: TypeError/;

describe("a tool loop whose first model call fails, through a one-response encoder: the loop's reason", () => {
  it("openai-node's chat stream raises the loop's reason", async () => {
    const client = new OpenAI({
      ...failedBy(() => new OpenAIChatEncoderStream({ model: "m" })),
      baseURL: "http://127.0.0.1:9/v1",
    });
    const stream = await client.chat.completions.create({ model: "m", messages: [], stream: true });
    const read = (async () => {
      for await (const _chunk of stream);
    })();
    await expect(read).rejects.toThrow(LOOP_REASON);
  });

  it("@anthropic-ai/sdk's finalMessage() raises the loop's reason", async () => {
    const options = failedBy(() => new AnthropicMessagesEncoderStream(AGENT_OPTIONS.anthropic()));
    const message = new Anthropic({ ...options, baseURL: "http://127.0.0.1:9" }).messages
      .stream({ model: "test-model", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
      .finalMessage();
    await expect(message).rejects.toThrow(LOOP_REASON);
  });

  it("openai-node's Responses stream fails with the loop's reason", async () => {
    const options = failedBy(() => new OpenAIResponsesEncoderStream(AGENT_OPTIONS.responses()));
    const response = new OpenAI({ ...options, baseURL: "http://127.0.0.1:9/v1" }).responses
      .stream({ model: "test-model", input: "hi" })
      .finalResponse();
    await expect(response).rejects.toThrow(LOOP_REASON);
  });

  it("the answers not streamed (readers and builder) end with the loop's reason", async () => {
    const chat = new OpenAIChatCompletionBuilder({ model: "m" });
    for await (const event of failedLoop()) chat.add(event);
    expect(chat.result()).toMatchObject({ type: "error", error: { message: expect.stringMatching(LOOP_REASON) } });
    const message = await readAnthropicMessage(failedLoop(), AGENT_OPTIONS.anthropic());
    expect(message).toMatchObject({ type: "error", error: { message: expect.stringMatching(LOOP_REASON) } });
    const response = await readOpenAIResponse(failedLoop(), AGENT_OPTIONS.responses());
    expect(response).toMatchObject({ type: "response", response: { status: "failed" } });
    expect(JSON.stringify(response)).toMatch(LOOP_REASON);
    // The error's own message may name a host or carry a key: only its name reaches a client.
    expect(JSON.stringify([chat.result(), message, response])).not.toMatch(/llm\.internal|connection lost/);
  });
});
