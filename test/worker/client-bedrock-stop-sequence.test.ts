// Claude on Bedrock at a client's stop sequence: ConverseStream names the sequence only when the
// request asks for its Anthropic event's field (`additionalModelResponseFieldPaths:
// ["/delta/stop_sequence"]`, as the AI SDK's Bedrock provider asks), in `messageStop`'s
// `additionalModelResponseFields`. Through @anthropic-ai/sdk, whose `stop_sequence` was null.
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { converse } from "../support/event-stream.ts";
import { workerFetch } from "./client-support.ts";
import { live } from "./open-responses-support.ts";
import { FakeUpstream } from "./support.ts";

/** A Converse stream of "one two " stopped at `stop` (the field answered as asked, or not at all). */
function stoppedAt(stop: string | undefined): FakeUpstream {
  const fields = stop === undefined ? {} : { additionalModelResponseFields: { delta: { stop_sequence: stop } } };
  const body = converse([
    ["messageStart", { role: "assistant" }],
    ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "one two " } }],
    ["contentBlockStop", { contentBlockIndex: 0 }],
    ["messageStop", { stopReason: "stop_sequence", ...fields }],
    ["metadata", { usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12 }, metrics: { latencyMs: 80 } }],
  ]);
  return new FakeUpstream({
    kind: "sse",
    chunks: [body],
    headers: { "content-type": "application/vnd.amazon.eventstream" },
  });
}

const client = (upstream: FakeUpstream) =>
  new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env: live("bedrock"), upstream }),
    maxRetries: 0,
  });
const request = (model: string) => ({
  model,
  max_tokens: 64,
  stop_sequences: ["three", "END"],
  messages: [{ role: "user" as const, content: "Count to five." }],
});

describe("@anthropic-ai/sdk: Claude on Bedrock stopped at a stop sequence", () => {
  it("the request asks Converse for it; the message names it, streamed and not", async () => {
    const upstream = stoppedAt("three");
    const message = await client(upstream).messages.create(request("bedrock/us.anthropic.claude-sonnet-4-5-v1:0"));
    expect(upstream.requests[0]!.body).toMatchObject({
      inferenceConfig: { stopSequences: ["three", "END"] },
      additionalModelResponseFieldPaths: ["/delta/stop_sequence"],
    });
    expect([message.stop_reason, message.stop_sequence]).toEqual(["stop_sequence", "three"]);
    const streamed = await client(stoppedAt("three"))
      .messages.stream(request("bedrock/us.anthropic.claude-sonnet-4-5-v1:0"))
      .finalMessage();
    expect([streamed.stop_reason, streamed.stop_sequence]).toEqual(["stop_sequence", "three"]);
  });

  it("another model on Bedrock is not asked for Claude's field; without it the sequence is null", async () => {
    const upstream = stoppedAt(undefined);
    const message = await client(upstream).messages.create(request("bedrock/amazon.nova-pro-v1:0"));
    expect(upstream.requests[0]!.body).not.toHaveProperty("additionalModelResponseFieldPaths");
    expect([message.stop_reason, message.stop_sequence]).toEqual(["stop_sequence", null]);
  });
});
