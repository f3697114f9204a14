// OpenAI's refusal (structured outputs, safety: `delta.refusal`, openai 6.49.0's
// `ChatCompletionChunk.Choice.Delta.refusal`) through the Worker's `openai` upstream to a Chat
// Completions client: openai-node's stream helper assembles it as `message.refusal`, as it does
// against OpenAI, and the client's next turn (the SDK's `ChatCompletionAssistantMessageParam`
// with its `refusal`) reaches OpenAI with it, a compatible server and a provider with no refusal
// (Anthropic) as text. The stream is
// test/providers/openai-chat/refusal-recordings.ts.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import { REFUSAL, refused } from "../providers/openai-chat/refusal-recordings.ts";
import { chatChunk, openAISSE } from "../support/streams.ts";
import { EMPTY_TURN } from "./anthropic-blocks.ts";
import { OPENAI_ANTHROPIC_ENV, openAIClient } from "./client-support.ts";
import { FakeUpstream, ManualTimers, testEnv } from "./support.ts";

/** OpenAI refusing every request; it keeps what it was sent. */
class RefusingFake {
  readonly bodies: { messages: Record<string, unknown>[] }[] = [];

  readonly fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    this.bodies.push((await request.json()) as { messages: Record<string, unknown>[] });
    return new Response(refused, { headers: { "content-type": "text/event-stream" } });
  };
}

/** The Worker in front of OpenAI itself, or of a compatible server (Groq, vLLM, ...). */
const envOf = (baseUrl: string) => testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: baseUrl, CLIENT_TOKEN: "t" });

/** openai-node as a client of the Worker, whose upstream is `fake` in front of `baseUrl`. */
function clientOf(fake: RefusingFake, baseUrl: string): OpenAI {
  const handler = createFetchHandler({ fetch: fake.fetch, timers: new ManualTimers() });
  return new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) =>
      handler(new Request(input, init), envOf(baseUrl))) as typeof fetch,
    maxRetries: 0,
  });
}

/** The assistant message of a client's next turn, after a refused one, as the upstream got it. */
async function nextTurn(fake: RefusingFake, baseUrl: string): Promise<Record<string, unknown> | undefined> {
  const openai = clientOf(fake, baseUrl);
  const ask = { role: "user" as const, content: "Do the forbidden thing." };
  const stream = openai.chat.completions.stream({ model: "openai/gpt-4o", messages: [ask] });
  const message = (await stream.finalChatCompletion()).choices[0]!.message;
  expect([message.refusal, message.content]).toEqual([REFUSAL, null]);
  const turn: OpenAI.Chat.ChatCompletionAssistantMessageParam = { role: "assistant", refusal: message.refusal };
  await openai.chat.completions.create({
    model: "openai/gpt-4o",
    messages: [ask, turn, { role: "user", content: "Something else, then." }],
  });
  return fake.bodies.at(-1)!.messages.find((m) => m["role"] === "assistant");
}

describe("OpenAI's refusal through /v1/chat/completions", () => {
  it("reaches the client as message.refusal, and its next turn's refusal reaches OpenAI as the message's refusal", async () => {
    const sent = await nextTurn(new RefusingFake(), "https://api.openai.com/v1");
    expect(sent).toEqual({ role: "assistant", content: null, refusal: REFUSAL });
  });

  it("reaches a compatible server (which may refuse a field it does not know) as the message's text", async () => {
    const sent = await nextTurn(new RefusingFake(), "https://api.groq.com/openai/v1");
    expect(sent).toEqual({ role: "assistant", content: REFUSAL });
  });

  it("is left out for an upstream with no refusal (Anthropic): never sent as the model's words", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: EMPTY_TURN,
    });
    await openAIClient(upstream, OPENAI_ANTHROPIC_ENV).chat.completions.create({
      model: "anthropic/claude-sonnet-4-5",
      messages: [
        { role: "user", content: "Do the forbidden thing." },
        { role: "assistant", content: null, refusal: REFUSAL },
        { role: "user", content: "Something else, then." },
      ],
    });
    const body = upstream.requests[0]!.body as { messages: { role: string }[] };
    // A turn of the refusal alone: no assistant turn at all (Anthropic refuses an empty one).
    expect(JSON.stringify(body)).not.toContain(REFUSAL);
    expect(body.messages.some((message) => message.role === "assistant")).toBe(false);
  });

  it("goes to a compatible server as text after the message's text, a blank line between; Anthropic gets the text alone", async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: "user", content: "Do the forbidden thing." },
      { role: "assistant", content: "Here is what I can say.", refusal: REFUSAL },
      { role: "user", content: "Something else, then." },
    ];
    const text = `Here is what I can say.\n\n${REFUSAL}`;
    const groq = new FakeUpstream({
      kind: "sse",
      chunks: [openAISSE([chatChunk({ role: "assistant", content: "OK." }), chatChunk({}, "stop")])],
    });
    await openAIClient(groq, envOf("https://api.groq.com/openai/v1")).chat.completions.create({
      model: "openai/llama-3.3-70b",
      messages,
    });
    expect((groq.requests[0]!.body as { messages: unknown[] }).messages[1]).toEqual({
      role: "assistant",
      content: text,
    });
    const anthropic = new FakeUpstream({
      kind: "sse",
      chunks: EMPTY_TURN,
    });
    await openAIClient(anthropic, OPENAI_ANTHROPIC_ENV).chat.completions.create({
      model: "anthropic/claude-sonnet-4-5",
      messages,
    });
    expect((anthropic.requests[0]!.body as { messages: unknown[] }).messages[1]).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "Here is what I can say." }],
    });
  });

  it("a refusal content part (the SDK's ChatCompletionContentPartRefusal) is the message's refusal for OpenAI, text for the others", async () => {
    const turn: OpenAI.Chat.ChatCompletionAssistantMessageParam = {
      role: "assistant",
      content: [
        { type: "text", text: "Here is what I can say." },
        { type: "refusal", refusal: REFUSAL },
      ],
    };
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: "user", content: "Do the forbidden thing." },
      turn,
      { role: "user", content: "Something else, then." },
    ];
    const sentTo = async (baseUrl: string): Promise<unknown> => {
      const fake = new RefusingFake();
      await clientOf(fake, baseUrl).chat.completions.create({ model: "openai/gpt-4o", messages });
      return fake.bodies.at(-1)!.messages.find((m) => m["role"] === "assistant");
    };
    expect(await sentTo("https://api.openai.com/v1")).toEqual({
      role: "assistant",
      content: "Here is what I can say.",
      refusal: REFUSAL,
    });
    expect(await sentTo("https://api.groq.com/openai/v1")).toEqual({
      role: "assistant",
      content: `Here is what I can say.\n\n${REFUSAL}`,
    });
  });
});
