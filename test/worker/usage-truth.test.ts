// Usage that tells the truth on every client protocol: the input, output, cache and reasoning
// tokens a provider reported reach /v1/messages (message_start when the provider reported them
// before any content, as Anthropic and Gemini do; the final message_delta, cached input apart as
// Anthropic counts it), /v1/responses (response.completed, cached and reasoning details) and
// /v1/chat/completions (the usage chunk of stream_options.include_usage), never zeros in their
// place. The input written to the cache (billed at 1.25x) reaches Chat and Responses clients as
// cache_write_tokens beside cached_tokens, where openai-node's types have it.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { post, workerFetch } from "./client-support.ts";
import { AUTH, live } from "./open-responses-support.ts";
import { chatChunk, FakeUpstream, openAIChunks, worker } from "./support.ts";

const sse = (events: [string, unknown][]) =>
  events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

/** Anthropic: 5 fresh input tokens, 100 read from the cache, 20 written to it; 7 out. */
const anthropic = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: sse([
      [
        "message_start",
        {
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "claude",
            content: [],
            usage: { input_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 1 },
          },
        },
      ],
      ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
      ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi." } }],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 7 } }],
      ["message_stop", { type: "message_stop" }],
    ]),
  });

/** OpenAI Chat: 50 input tokens of which 40 read from the cache and 8 written to it, 30 out of which 20 reasoning. */
const openai = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: openAIChunks([
      chatChunk({ role: "assistant", content: "Hi." }),
      chatChunk({}, "stop"),
      {
        choices: [],
        usage: {
          prompt_tokens: 50,
          completion_tokens: 30,
          total_tokens: 80,
          prompt_tokens_details: { cached_tokens: 40, cache_write_tokens: 8 },
          completion_tokens_details: { reasoning_tokens: 20 },
        },
      },
    ]),
  });

/** Gemini: the prompt's 12 tokens on the first chunk, with the text; 2 out at the end. */
const gemini = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: [
      {
        candidates: [{ content: { role: "model", parts: [{ text: "Hi" }] } }],
        usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 1, totalTokenCount: 13 },
      },
      {
        candidates: [{ content: { role: "model", parts: [{ text: "." }] }, finishReason: "STOP" }],
        usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 2, totalTokenCount: 14 },
      },
    ].map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`),
    headers: { "content-type": "text/event-stream" },
  });

const UPSTREAMS = { anthropic, openai, gemini } as const;
/** message_start's usage: what the provider reported before any content (Anthropic, Gemini), else zeros. */
const START = {
  anthropic: { input_tokens: 5, output_tokens: 1, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 },
  openai: { input_tokens: 0, output_tokens: 0 },
  gemini: { input_tokens: 12, output_tokens: 1 },
};
const EXPECTED = {
  anthropic: {
    messages: { input_tokens: 5, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 },
    responses: {
      input_tokens: 125,
      input_tokens_details: { cached_tokens: 100, cache_write_tokens: 20 },
      output_tokens: 7,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 132,
    },
    chat: {
      prompt_tokens: 125,
      completion_tokens: 7,
      total_tokens: 132,
      prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 20 },
    },
  },
  openai: {
    messages: { input_tokens: 2, output_tokens: 30, cache_read_input_tokens: 40, cache_creation_input_tokens: 8 },
    responses: {
      input_tokens: 50,
      input_tokens_details: { cached_tokens: 40, cache_write_tokens: 8 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 20 },
      total_tokens: 80,
    },
    chat: {
      prompt_tokens: 50,
      completion_tokens: 30,
      total_tokens: 80,
      prompt_tokens_details: { cached_tokens: 40, cache_write_tokens: 8 },
      completion_tokens_details: { reasoning_tokens: 20 },
    },
  },
  gemini: {
    messages: { input_tokens: 12, output_tokens: 2 },
    responses: {
      input_tokens: 12,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 2,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 14,
    },
    chat: { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 },
  },
};

/** The JSON of every `data:` line but `[DONE]`. */
const data = async (answer: Response) =>
  (await answer.text())
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);

describe("usage as the provider reported it, on every client protocol", () => {
  for (const provider of ["anthropic", "openai", "gemini"] as const) {
    const call = (path: string, body: Record<string, unknown>) =>
      worker(UPSTREAMS[provider]()).call(post(path, { model: `${provider}/m`, ...body }, AUTH), live(provider));
    const messages = [{ role: "user", content: "Hi" }];

    it(`${provider} -> /v1/messages: message_start has the input tokens reported before any content`, async () => {
      const events = await data(await call("/v1/messages", { max_tokens: 64, stream: true, messages }));
      expect(events[0]?.["type"]).toBe("message_start");
      expect((events[0]?.["message"] as { usage: unknown } | undefined)?.usage).toEqual(START[provider]);
    });

    it(`${provider} -> /v1/messages: the final message_delta has input, output and cache tokens`, async () => {
      const events = await data(await call("/v1/messages", { max_tokens: 64, stream: true, messages }));
      expect(events.find((event) => event["type"] === "message_delta")?.["usage"]).toEqual(EXPECTED[provider].messages);
      const whole = (await (await call("/v1/messages", { max_tokens: 64, messages })).json()) as { usage: unknown };
      expect(whole.usage).toEqual(EXPECTED[provider].messages);
    });

    it(`${provider} -> /v1/responses: response.completed has input, output, cached and reasoning tokens`, async () => {
      const events = await data(await call("/v1/responses", { input: "Hi", stream: true }));
      const completed = events.find((event) => event["type"] === "response.completed");
      expect((completed?.["response"] as { usage: unknown } | undefined)?.usage).toEqual(EXPECTED[provider].responses);
      const whole = (await (await call("/v1/responses", { input: "Hi" })).json()) as { usage: unknown };
      expect(whole.usage).toEqual(EXPECTED[provider].responses);
    });

    it(`${provider} -> /v1/chat/completions: the include_usage chunk and the completion have them`, async () => {
      const chunks = await data(
        await call("/v1/chat/completions", { messages, stream: true, stream_options: { include_usage: true } }),
      );
      expect(chunks.at(-1)?.["usage"]).toEqual(EXPECTED[provider].chat);
      const whole = (await (await call("/v1/chat/completions", { messages })).json()) as { usage: unknown };
      expect(whole.usage).toEqual(EXPECTED[provider].chat);
    });
  }
});

describe("openai-node reads the cache writes an Anthropic answer reported (cache_creation_input_tokens)", () => {
  /** A client of the Worker whose one request Anthropic answers with 100 tokens read from the cache and 20 written. */
  const client = () =>
    new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env: live("anthropic"), upstream: anthropic() }),
      maxRetries: 0,
    });
  const model = "anthropic/m";

  it("/v1/chat/completions: prompt_tokens_details.cache_write_tokens, streamed and not", async () => {
    const messages = [{ role: "user" as const, content: "Hi" }];
    const streamed = await client()
      .chat.completions.stream({ model, messages, stream_options: { include_usage: true } })
      .finalChatCompletion();
    const whole = await client().chat.completions.create({ model, messages });
    for (const { usage } of [streamed, whole]) {
      const details: OpenAI.CompletionUsage.PromptTokensDetails | undefined = usage?.prompt_tokens_details;
      expect([details?.cached_tokens, details?.cache_write_tokens]).toEqual([100, 20]);
    }
  });

  it("/v1/responses: input_tokens_details.cache_write_tokens, streamed and not", async () => {
    const streamed = await client().responses.stream({ model, input: "Hi" }).finalResponse();
    const whole = await client().responses.create({ model, input: "Hi" });
    for (const { usage } of [streamed, whole]) {
      const details: OpenAI.Responses.ResponseUsage.InputTokensDetails | undefined = usage?.input_tokens_details;
      expect([details?.cached_tokens, details?.cache_write_tokens]).toEqual([100, 20]);
    }
  });
});
