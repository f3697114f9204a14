// Gemini Interactions behind the agent protocols: each function_call step's `signature` must come
// back on the next turn ("a per-call signature that must round-trip"), and neither a Messages nor
// a Responses client sends one back on its own. The call's id carries it (`<id>__is_<base64url>`,
// worker/protocols/thought-signatures.ts): the clients echo it, and the next request to the
// provider has the call under its own id with its signature, and the result under that id.
// The real clients (@anthropic-ai/sdk as Claude Code, openai-node's Responses as Codex) against
// the Worker on a fake of the provider that answers with the docs' shapes.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({ GEMINI_API_KEY: "AIza-test-0123456789", CLIENT_TOKEN: "t" });
const MODEL = "gemini-interactions/gemini-3-flash-preview";

const sse = (events: readonly Record<string, unknown>[]): string[] => [
  ...events.map((e) => `event: ${String(e["event_type"])}\ndata: ${JSON.stringify(e)}\n\n`),
  "event: done\ndata: [DONE]\n\n",
];

/** A turn that thinks (signed) and makes one signed call, as the Interactions API streams it. */
const signedCall = (): FakeUpstream =>
  new FakeUpstream({
    kind: "sse",
    chunks: sse([
      { event_type: "interaction.created", interaction: { id: "v1_a", status: "in_progress" } },
      { event_type: "step.start", index: 0, step: { type: "thought" } },
      { event_type: "step.delta", index: 0, delta: { type: "thought_signature", signature: "dGhvdWdodA==" } },
      { event_type: "step.stop", index: 0 },
      {
        event_type: "step.start",
        index: 1,
        step: { id: "k1x9q2zz", type: "function_call", name: "calculate", arguments: {}, signature: "Y2FsbA==" },
      },
      { event_type: "step.delta", index: 1, delta: { type: "arguments_delta", arguments: '{"expression":' } },
      { event_type: "step.delta", index: 1, delta: { type: "arguments_delta", arguments: '"0.17 * 230"}' } },
      { event_type: "step.stop", index: 1 },
      {
        event_type: "interaction.completed",
        interaction: { id: "v1_a", status: "requires_action", usage: { total_input_tokens: 20 } },
      },
    ]),
    headers: { "content-type": "text/event-stream" },
  });

const TOOL_SCHEMA = { type: "object" as const, properties: { expression: { type: "string" } } };
const PROMPT = "What is 17% of 230?";

/** What the provider must get on the next turn: the thought, the call under its own id with its signature, the result by that id. */
const NEXT_INPUT = [
  { type: "user_input", content: [{ type: "text", text: PROMPT }] },
  { type: "thought", signature: "dGhvdWdodA==" },
  {
    type: "function_call",
    id: "k1x9q2zz",
    name: "calculate",
    arguments: { expression: "0.17 * 230" },
    signature: "Y2FsbA==",
  },
  { type: "function_result", call_id: "k1x9q2zz", name: "calculate", result: "39.1" },
];

describe("Gemini Interactions call signatures through the agent protocols", () => {
  it("/v1/messages (@anthropic-ai/sdk): the tool_use id carries the signature; the next turn sends it back on the call", async () => {
    const upstream = signedCall();
    const client = new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      fetch: workerFetch({ env, upstream }),
      maxRetries: 0,
    });
    const tools = [{ name: "calculate", input_schema: TOOL_SCHEMA }];
    const first = { role: "user" as const, content: PROMPT };
    const message = await client.messages
      .stream({ model: MODEL, max_tokens: 256, tools, messages: [first] })
      .finalMessage();
    const call = message.content.find((block) => block.type === "tool_use");
    expect(call?.id.startsWith("k1x9q2zz__is_")).toBe(true);
    expect(call?.input).toEqual({ expression: "0.17 * 230" });
    await client.messages
      .create({
        model: MODEL,
        max_tokens: 256,
        stream: true,
        tools,
        messages: [
          first,
          { role: "assistant", content: message.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: call!.id, content: "39.1" }] },
        ],
      })
      .catch(() => undefined);
    expect(upstream.requests[1]?.body["input"]).toEqual(NEXT_INPUT);
  });

  it("/v1/responses (openai-node): the function_call's call_id carries the signature; the next turn sends it back on the call", async () => {
    const upstream = signedCall();
    const client = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env, upstream }),
      maxRetries: 0,
    });
    const tools = [{ type: "function" as const, name: "calculate", parameters: TOOL_SCHEMA, strict: false as const }];
    const response = await client.responses
      .stream({ model: MODEL, input: PROMPT, tools, store: false, include: ["reasoning.encrypted_content"] })
      .finalResponse();
    const call = response.output.find((item) => item.type === "function_call");
    expect(call?.call_id.startsWith("k1x9q2zz__is_")).toBe(true);
    await client.responses
      .create({
        model: MODEL,
        stream: true,
        store: false,
        tools,
        input: [
          { role: "user", content: PROMPT },
          ...response.output.map((item) => ({ ...item }) as OpenAI.Responses.ResponseInputItem),
          { type: "function_call_output", call_id: call!.call_id, output: "39.1" },
        ],
      })
      .catch(() => undefined);
    expect(upstream.requests[1]?.body["input"]).toEqual(NEXT_INPUT);
  });
});
