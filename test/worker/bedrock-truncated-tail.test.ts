// A Bedrock ConverseStream body cut inside its last frame (the `metadata` after `messageStop`):
// the answer was complete, so a client that did not stream gets it (it got a 502), as when an SSE
// provider's body is cut after its finish. Read by @anthropic-ai/sdk and openai-node.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { concat, converse, eventMessage } from "../support/event-stream.ts";
import { workerFetch } from "./client-support.ts";
import { live } from "./open-responses-support.ts";
import { FakeUpstream } from "./support.ts";

const metadata = eventMessage("metadata", { usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12 } });
const upstream = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: [
      concat([
        converse([
          ["messageStart", { role: "assistant" }],
          ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "one two" } }],
          ["contentBlockStop", { contentBlockIndex: 0 }],
          ["messageStop", { stopReason: "end_turn" }],
        ]),
        metadata.subarray(0, metadata.length - 5),
      ]),
    ],
    headers: { "content-type": "application/vnd.amazon.eventstream" },
  });
const fetch = () => workerFetch({ env: live("bedrock"), upstream: upstream() });
const model = "bedrock/amazon.nova-pro-v1:0";
const messages = [{ role: "user" as const, content: "Count to two." }];

describe("Bedrock: a body cut inside the frame after messageStop", () => {
  it("/v1/messages not streamed (@anthropic-ai/sdk): the message, stopped end_turn", async () => {
    const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch: fetch(), maxRetries: 0 });
    const message = await anthropic.messages.create({ model, max_tokens: 64, messages });
    expect([message.stop_reason, message.content]).toEqual(["end_turn", [{ type: "text", text: "one two" }]]);
  });

  it("/v1/chat/completions not streamed (openai-node): the completion, finish_reason stop", async () => {
    const client = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch: fetch(), maxRetries: 0 });
    const completion = await client.chat.completions.create({ model, messages });
    expect([completion.choices[0]?.finish_reason, completion.choices[0]?.message.content]).toEqual(["stop", "one two"]);
  });
});
