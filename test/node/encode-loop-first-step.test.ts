// A tool loop read by a one-response protocol: Messages and Responses show the loop's first step
// (its text and calls, as the model made them), not its later ones. The loop's steps count from 1:
// @anthropic-ai/sdk's finalMessage() and openai-node's finalResponse() over runToolLoop through the
// encoder stage give the first step's calls, never an error in place of the whole answer.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { AnthropicMessagesEncoderStream, OpenAIResponsesEncoderStream, runToolLoop } from "../../src/index.ts";
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
