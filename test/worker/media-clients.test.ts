// Images and files in through the other client protocols (issue 35), with their real clients:
// openai-node's Chat Completions `image_url`, `file` and `input_audio` parts, the AI SDK's `file`
// UI parts (DefaultChatTransport), AG-UI 1.0's `image` and `document` parts (HttpAgent), each
// asserted on the exact body the fake provider receives; what a provider cannot take is a 400 in
// the protocol's shape naming the provider and the part, and no provider request.
import { HttpAgent } from "@ag-ui/client";
import * as ai6 from "ai";
import OpenAI, { BadRequestError } from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PDF = "JVBERi0xLjQK";
const PNG_URL = `data:image/png;base64,${PNG}`;
const PDF_URL = `data:application/pdf;base64,${PDF}`;

const env = testEnv({
  OPENAI_API_KEY: "k",
  OPENAI_BASE_URL: "https://provider.test/v1",
  ANTHROPIC_API_KEY: "k",
  ANTHROPIC_BASE_URL: "https://provider.test/v1",
  OLLAMA_BASE_URL: "https://provider.test",
  CLIENT_TOKEN: "t",
});
const fake = () => new FakeUpstream({ kind: "response", status: 500, body: "{}" });
const openai = (upstream: FakeUpstream) =>
  new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });

describe("/v1/chat/completions: image_url, file and input_audio parts (openai-node)", () => {
  const content: OpenAI.Chat.ChatCompletionContentPart[] = [
    { type: "text", text: "What is this?" },
    { type: "image_url", image_url: { url: PNG_URL, detail: "low" } },
    { type: "file", file: { filename: "a.pdf", file_data: PDF_URL } },
  ];
  const send = async (model: string, parts = content) => {
    const upstream = fake();
    const error = await openai(upstream)
      .chat.completions.create({ model, messages: [{ role: "user", content: parts }] })
      .catch((caught: unknown) => caught);
    return { upstream, error };
  };

  it("an OpenAI upstream gets the parts as the client sent them", async () => {
    const { upstream } = await send("openai/gpt-4o");
    expect((upstream.requests[0]!.body as any).messages[0]).toEqual({ role: "user", content });
  });

  it("Anthropic gets an image block and a document block", async () => {
    const { upstream } = await send("anthropic/claude-x");
    expect((upstream.requests[0]!.body as any).messages[0].content).toEqual([
      { type: "text", text: "What is this?" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, title: "a.pdf" },
    ]);
  });

  it("WAV audio reaches OpenAI as input_audio", async () => {
    const audio: OpenAI.Chat.ChatCompletionContentPart[] = [
      { type: "input_audio", input_audio: { data: "UklGRgAAAAA=", format: "wav" } },
    ];
    const { upstream } = await send("openai/gpt-4o-audio-preview", audio);
    expect((upstream.requests[0]!.body as any).messages[0].content).toEqual(audio);
  });

  it("a PDF to Ollama is a 400 in OpenAI's shape naming the provider and the part", async () => {
    const { upstream, error } = await send("ollama/gemma3:4b");
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).param).toBe("messages[0].content[2].file.file_data");
    expect((error as BadRequestError).message).toContain("provider ollama");
    expect(upstream.requests).toHaveLength(0);
  });

  it("a file_id is a 400 naming it: the Worker keeps no files", async () => {
    const { upstream, error } = await send("openai/gpt-4o", [{ type: "file", file: { file_id: "file-abc" } }]);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).param).toBe("messages[0].content[0].file.file_id");
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("/v1/ui: the AI SDK's file parts (DefaultChatTransport)", () => {
  const send = async (model: string, parts: ai6.UIMessage["parts"]) => {
    const upstream = fake();
    const transport = new ai6.DefaultChatTransport({
      api: "http://localhost:8787/v1/ui",
      fetch: workerFetch({ env, upstream }),
      headers: { authorization: "Bearer t" },
      body: { model },
    });
    const outcome = await transport
      .sendMessages({
        chatId: "c",
        messages: [{ id: "u1", role: "user", parts }],
        abortSignal: undefined,
        trigger: "submit-message",
        messageId: undefined,
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    return { upstream, outcome };
  };

  it("an image and a PDF reach Anthropic as image and document blocks, in order with the text", async () => {
    const { upstream } = await send("anthropic/claude-x", [
      { type: "file", mediaType: "image/png", url: PNG_URL },
      { type: "text", text: "Compare them." },
      { type: "file", mediaType: "application/pdf", filename: "a.pdf", url: PDF_URL },
    ]);
    expect((upstream.requests[0]!.body as any).messages[0].content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      { type: "text", text: "Compare them." },
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, title: "a.pdf" },
    ]);
  });

  it("an image at a URL reaches OpenAI as its image_url", async () => {
    const { upstream } = await send("openai/gpt-4o", [
      { type: "text", text: "What is this?" },
      { type: "file", mediaType: "image/jpeg", url: "https://example.com/cat.jpg" },
    ]);
    expect((upstream.requests[0]!.body as any).messages[0].content[1]).toEqual({
      type: "image_url",
      image_url: { url: "https://example.com/cat.jpg" },
    });
  });

  it("an image at a URL to Ollama is a 400 naming the provider and the part, never fetched", async () => {
    const { upstream, outcome } = await send("ollama/gemma3:4b", [
      { type: "file", mediaType: "image/jpeg", url: "https://example.com/cat.jpg" },
    ]);
    expect(String(outcome)).toContain("messages[0].parts[0].url");
    expect(String(outcome)).toContain("provider ollama");
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("/v1/ag-ui: AG-UI 1.0's image and document parts (HttpAgent)", () => {
  const run = async (model: string, content: unknown[]) => {
    const upstream = fake();
    const agent = new HttpAgent({
      url: "http://localhost:8787/v1/ag-ui",
      threadId: "thread_1",
      initialMessages: [{ id: "m1", role: "user", content } as never],
      headers: { authorization: "Bearer t" },
      fetch: workerFetch({ env, upstream }),
    });
    const error = await agent.runAgent({ forwardedProps: { model } }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    return { upstream, error };
  };

  it("a data image and a URL document reach Anthropic as its blocks", async () => {
    const { upstream } = await run("anthropic/claude-x", [
      { type: "text", text: "Read these." },
      { type: "image", source: { type: "data", value: PNG, mimeType: "image/png" } },
      { type: "document", source: { type: "url", value: "https://example.com/a.pdf", mimeType: "application/pdf" } },
    ]);
    expect((upstream.requests[0]!.body as any).messages[0].content).toEqual([
      { type: "text", text: "Read these." },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      { type: "document", source: { type: "url", url: "https://example.com/a.pdf" } },
    ]);
  });

  it("an image reaches Ollama in its images list", async () => {
    const { upstream } = await run("ollama/gemma3:4b", [
      { type: "text", text: "What is this?" },
      { type: "image", source: { type: "data", value: PNG, mimeType: "image/png" } },
    ]);
    expect((upstream.requests[0]!.body as any).messages[0]).toEqual({
      role: "user",
      content: "What is this?",
      images: [PNG],
    });
  });

  it("a file source is a 400 naming it, and no provider request", async () => {
    const { upstream, error } = await run("anthropic/claude-x", [
      { type: "image", source: { type: "file", value: "file-abc" } },
    ]);
    expect(String(error)).toContain("messages[0].content[0].source.value");
    expect(upstream.requests).toHaveLength(0);
  });
});
