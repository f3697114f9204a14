// Cache usage back to every client: each provider reports its cache reads and writes in its own
// fields, and each client protocol counts its input its own way (OpenAI's `prompt_tokens` and
// `input_tokens` hold the cached tokens, Anthropic's `input_tokens` leaves reads and writes out;
// AG-UI's `inputTokens` holds them, as `cachedInputTokens` and `cacheWriteInputTokens` say). The
// real recordings where they carry cache counts (Anthropic, xAI's Chat, DeepSeek's Responses), a
// scripted Converse and Gemini stream where none does, each read by the real SDK of each client.
import { HttpAgent } from "@ag-ui/client";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { converse } from "../support/event-stream.ts";
import { recording } from "../support/fixtures.ts";
import { workerFetch } from "./client-support.ts";
import { LIVE } from "./open-responses-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({ ...LIVE.openai, ...LIVE.anthropic, ...LIVE.gemini, ...LIVE.bedrock, CLIENT_TOKEN: "t" });
const base = "http://localhost:8787";

/** A provider's answer with cache counts: its model, its upstream, the tool its calls name. */
interface Source {
  model: string;
  upstream: () => FakeUpstream;
  tool: string;
  /** All input tokens, those read from the cache, those written to it (undefined: not reported). */
  input: number;
  read: number;
  write?: number;
}

const sse = (text: string) => () => new FakeUpstream({ kind: "sse", chunks: [text] });
const anthropicRecording = recording("anthropic", "thinking-then-tool-use");
const chatRecording = recording("xai", "chat-tool-call-reasoning-content-usage");
const responsesRecording = recording("deepseek", "responses-api-reasoning-function-call");
const toolOf = (fixture: typeof anthropicRecording) => fixture.expected.toolCalls[0]!.name;

const SOURCES: Record<string, Source> = {
  // message_start: input 2, cache_creation 22, cache_read 13,993.
  anthropic: {
    model: "anthropic/claude-sonnet-4-0",
    upstream: sse(anthropicRecording.text),
    tool: toolOf(anthropicRecording),
    input: 2 + 22 + 13_993,
    read: 13_993,
    write: 22,
  },
  // metadata.usage: inputTokens 10 (the rest), cacheRead 1,000, cacheWrite 200; totalTokens counts them.
  bedrock: {
    model: "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    upstream: () =>
      new FakeUpstream({
        kind: "sse",
        headers: { "content-type": "application/vnd.amazon.eventstream" },
        chunks: [
          converse([
            ["messageStart", { role: "assistant" }],
            ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Done." } }],
            ["contentBlockStop", { contentBlockIndex: 0 }],
            ["messageStop", { stopReason: "end_turn" }],
            [
              "metadata",
              {
                usage: {
                  inputTokens: 10,
                  outputTokens: 5,
                  totalTokens: 1215,
                  cacheReadInputTokens: 1000,
                  cacheWriteInputTokens: 200,
                },
                metrics: { latencyMs: 80 },
              },
            ],
          ]),
        ],
      }),
    tool: "lookup",
    input: 1210,
    read: 1000,
    write: 200,
  },
  // prompt_tokens 291 of which cached_tokens 290.
  openai: {
    model: "openai/grok-3-mini",
    upstream: sse(chatRecording.text),
    tool: toolOf(chatRecording),
    input: 291,
    read: 290,
  },
  // input_tokens 366 of which cached_tokens 256.
  "openai-responses": {
    model: "openai-responses/deepseek-v4-flash",
    upstream: sse(responsesRecording.text),
    tool: toolOf(responsesRecording),
    input: 366,
    read: 256,
  },
  // promptTokenCount 1,200 of which cachedContentTokenCount 1,000.
  gemini: {
    model: "gemini/gemini-2.5-flash",
    upstream: sse(
      `data: ${JSON.stringify({
        candidates: [{ content: { role: "model", parts: [{ text: "Done." }] }, finishReason: "STOP", index: 0 }],
        usageMetadata: {
          promptTokenCount: 1200,
          candidatesTokenCount: 5,
          totalTokenCount: 1205,
          cachedContentTokenCount: 1000,
        },
      })}\r\n\r\n`,
    ),
    tool: "lookup",
    input: 1200,
    read: 1000,
  },
};

const fetchOf = (source: Source) => workerFetch({ env, upstream: source.upstream() });
const openAI = (source: Source) =>
  new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch: fetchOf(source), maxRetries: 0 });
const parameters = { type: "object", properties: { city: { type: "string" } } };

/** Each client's usage for `source`'s answer, in its own fields. */
const CLIENTS = {
  async chat(source: Source) {
    const stream = await openAI(source).chat.completions.create({
      model: source.model,
      messages: [{ role: "user", content: "Weather?" }],
      tools: [{ type: "function", function: { name: source.tool, parameters } }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) usage = chunk.usage ?? usage;
    return { input: usage?.prompt_tokens, read: usage?.prompt_tokens_details?.cached_tokens };
  },
  async responses(source: Source) {
    const stream = openAI(source).responses.stream({
      model: source.model,
      input: "Weather?",
      tools: [{ type: "function", name: source.tool, parameters, strict: false }],
      store: false,
    });
    const usage = (await stream.finalResponse()).usage;
    return { input: usage?.input_tokens, read: usage?.input_tokens_details.cached_tokens };
  },
  async messages(source: Source) {
    const sdk = new Anthropic({ baseURL: base, apiKey: "t", fetch: fetchOf(source), maxRetries: 0 });
    const { usage } = await sdk.messages
      .stream({
        model: source.model,
        max_tokens: 256,
        messages: [{ role: "user", content: "Weather?" }],
        tools: [{ name: source.tool, input_schema: parameters as Anthropic.Tool.InputSchema }],
      })
      .finalMessage();
    const read = usage.cache_read_input_tokens ?? 0;
    const write = usage.cache_creation_input_tokens ?? 0;
    // Anthropic's input_tokens is the rest: all input is the three together.
    return {
      input: usage.input_tokens + read + write,
      read: usage.cache_read_input_tokens,
      write: usage.cache_creation_input_tokens,
    };
  },
  async agui(source: Source) {
    const agent = new HttpAgent({
      url: `${base}/v1/ag-ui`,
      threadId: "t1",
      headers: { authorization: "Bearer t" },
      fetch: fetchOf(source),
    });
    agent.addMessage({ id: "m1", role: "user", content: "Weather?" });
    let usage: Record<string, number> | undefined;
    await agent.runAgent(
      {
        runId: "r1",
        tools: [{ name: source.tool, description: "tool", parameters }],
        forwardedProps: { model: source.model },
      },
      {
        onRunFinishedEvent: ({ event }) =>
          void (usage = ((event as unknown as { usage?: Record<string, number>[] }).usage ?? []).at(-1)),
      },
    );
    return {
      input: usage?.["inputTokens"],
      read: usage?.["cachedInputTokens"],
      write: usage?.["cacheWriteInputTokens"],
    };
  },
};

describe("cache usage: each provider's counts in each client's fields", () => {
  for (const [provider, source] of Object.entries(SOURCES))
    for (const [client, read] of Object.entries(CLIENTS))
      it(`${provider} to ${client}`, async () => {
        const got = await read(source);
        expect(got.input, "all input tokens").toBe(source.input);
        expect(got.read, "read from the cache").toBe(source.read);
        if ("write" in got && source.write !== undefined) expect(got.write, "written to the cache").toBe(source.write);
      });
});
