// Images and files in (issue 35): a Messages client's `image` and `document` blocks and a Responses
// client's `input_image` and `input_file` parts, sent with the real SDKs, reach each provider in its
// own documented form, asserted on the exact body the fake provider receives; what a provider
// cannot take is a 400 in the client's error shape naming the provider and the part, before any
// provider is called (the Worker fetches no URL).
import Anthropic, { BadRequestError as AnthropicBadRequest } from "@anthropic-ai/sdk";
import OpenAI, { BadRequestError as OpenAIBadRequest } from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

/** A 1x1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
/** "%PDF-1.4\n". */
const PDF = "JVBERi0xLjQK";
const PNG_URL = `data:image/png;base64,${PNG}`;
const PDF_URL = `data:application/pdf;base64,${PDF}`;

const LIVE: Record<string, { env: Record<string, string>; model: string }> = {
  openai: { env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" }, model: "gpt-5" },
  "openai-responses": { env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" }, model: "gpt-5" },
  anthropic: { env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1" }, model: "claude-x" },
  gemini: { env: { GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta" }, model: "gemini-2.5-flash" },
  "gemini-interactions": {
    env: { GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta" },
    model: "gemini-3-flash-preview",
  },
  bedrock: {
    env: { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret", AWS_REGION: "us-west-2" },
    model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
  },
  cohere: { env: { COHERE_API_KEY: "k", COHERE_BASE_URL: "https://provider.test/v2" }, model: "command-a-vision" },
  ollama: { env: { OLLAMA_BASE_URL: "https://provider.test" }, model: "gemma3:4b" },
};

const fake = () => new FakeUpstream({ kind: "response", status: 500, body: "{}" });
const anthropic = (provider: string, upstream: FakeUpstream) =>
  new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env: testEnv({ ...LIVE[provider]!.env, CLIENT_TOKEN: "t" }), upstream }),
    maxRetries: 0,
  });
const openai = (provider: string, upstream: FakeUpstream) =>
  new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env: testEnv({ ...LIVE[provider]!.env, CLIENT_TOKEN: "t" }), upstream }),
    maxRetries: 0,
  });

/** The body `provider` receives for a Messages request with `content` as its one user message. */
async function messagesBody(
  provider: string,
  content: Anthropic.MessageParam["content"],
): Promise<Record<string, any>> {
  const upstream = fake();
  await anthropic(provider, upstream)
    .messages.create({
      model: `${provider}/${LIVE[provider]!.model}`,
      max_tokens: 256,
      stream: true,
      messages: [{ role: "user", content }],
    })
    .catch(() => undefined);
  expect(upstream.requests).toHaveLength(1);
  return upstream.requests[0]!.body as Record<string, any>;
}

const IMAGE_BLOCKS: Anthropic.MessageParam["content"] = [
  { type: "text", text: "What is this?" },
  { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
];

/** What each provider is sent for a user message of a text and a base64 PNG, as its API reference documents it. */
const IMAGE_SHAPES: Record<string, (body: Record<string, any>) => unknown> = {
  openai: (body) =>
    expect(body["messages"][0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image_url", image_url: { url: PNG_URL } },
      ],
    }),
  "openai-responses": (body) =>
    expect(body["input"][0]).toEqual({
      role: "user",
      content: [
        { type: "input_text", text: "What is this?" },
        { type: "input_image", image_url: PNG_URL, detail: "auto" },
      ],
    }),
  anthropic: (body) =>
    expect(body["messages"][0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      ],
    }),
  gemini: (body) =>
    expect(body["contents"][0]).toEqual({
      role: "user",
      parts: [{ text: "What is this?" }, { inlineData: { mimeType: "image/png", data: PNG } }],
    }),
  "gemini-interactions": (body) =>
    expect(body["input"][0]).toEqual({
      type: "user_input",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image", data: PNG, mime_type: "image/png" },
      ],
    }),
  bedrock: (body) =>
    expect(body["messages"][0]).toEqual({
      role: "user",
      content: [{ text: "What is this?" }, { image: { format: "png", source: { bytes: PNG } } }],
    }),
  cohere: (body) =>
    expect(body["messages"][0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image_url", image_url: { url: PNG_URL } },
      ],
    }),
  ollama: (body) => expect(body["messages"][0]).toEqual({ role: "user", content: "What is this?", images: [PNG] }),
};

describe("/v1/messages: an image block reaches every provider in its own form", () => {
  for (const provider of Object.keys(LIVE))
    it(`${provider}`, async () => {
      IMAGE_SHAPES[provider]!(await messagesBody(provider, IMAGE_BLOCKS));
    });
});

describe("/v1/messages: a PDF document block, where the provider takes PDFs", () => {
  const blocks: Anthropic.MessageParam["content"] = [
    { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, title: "Q3 report.pdf" },
    { type: "text", text: "Summarize it." },
  ];
  const shapes: Record<string, (body: Record<string, any>) => unknown> = {
    anthropic: (body) =>
      expect(body["messages"][0].content[0]).toEqual({
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: PDF },
        title: "Q3 report.pdf",
      }),
    openai: (body) =>
      expect(body["messages"][0].content[0]).toEqual({
        type: "file",
        file: { filename: "Q3 report.pdf", file_data: PDF_URL },
      }),
    "openai-responses": (body) =>
      expect(body["input"][0].content[0]).toEqual({
        type: "input_file",
        filename: "Q3 report.pdf",
        file_data: PDF_URL,
      }),
    gemini: (body) =>
      expect(body["contents"][0].parts[0]).toEqual({ inlineData: { mimeType: "application/pdf", data: PDF } }),
    "gemini-interactions": (body) =>
      expect(body["input"][0].content[0]).toEqual({ type: "document", data: PDF, mime_type: "application/pdf" }),
    bedrock: (body) =>
      expect(body["messages"][0].content[0]).toEqual({
        document: { format: "pdf", name: "Q3 report", source: { bytes: PDF } },
      }),
  };
  for (const [provider, shape] of Object.entries(shapes))
    it(`${provider}`, async () => {
      shape(await messagesBody(provider, blocks));
    });

  for (const provider of ["ollama", "cohere"])
    it(`${provider} cannot take a PDF: a 400 naming the provider and the block, and no provider request`, async () => {
      const upstream = fake();
      const error = await anthropic(provider, upstream)
        .messages.create({
          model: `${provider}/${LIVE[provider]!.model}`,
          max_tokens: 256,
          messages: [{ role: "user", content: blocks }],
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AnthropicBadRequest);
      const message = (error as AnthropicBadRequest).message;
      expect(message).toContain("messages[0].content[0].source");
      expect(message).toContain(`provider ${provider}`);
      expect(upstream.requests).toHaveLength(0);
    });
});

describe("/v1/messages: an image in a tool result", () => {
  const turns = (provider: string): Anthropic.MessageCreateParams => ({
    model: `${provider}/${LIVE[provider]!.model}`,
    max_tokens: 256,
    stream: false,
    tools: [{ name: "screenshot", input_schema: { type: "object" } }],
    messages: [
      { role: "user", content: "Take a screenshot." },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "screenshot", input: {} }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_1",
            content: [
              { type: "text", text: "Done." },
              { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
            ],
          },
        ],
      },
    ],
  });
  const sent = async (provider: string) => {
    const upstream = fake();
    await anthropic(provider, upstream)
      .messages.create(turns(provider))
      .catch(() => undefined);
    return upstream.requests[0]!.body as Record<string, any>;
  };

  it("Anthropic gets it in the tool_result's content", async () => {
    expect((await sent("anthropic"))["messages"][2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: [
            { type: "text", text: "Done." },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          ],
        },
      ],
    });
  });

  it("Bedrock gets it in the toolResult's content", async () => {
    expect((await sent("bedrock"))["messages"][2].content[0]).toEqual({
      toolResult: {
        toolUseId: "toolu_1",
        content: [{ text: "Done." }, { image: { format: "png", source: { bytes: PNG } } }],
      },
    });
  });

  it("OpenAI Chat (text-only tool messages) gets the text as the result, then the image in a user message", async () => {
    const messages = (await sent("openai"))["messages"];
    expect(messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: "toolu_1", content: "Done." },
      { role: "user", content: [{ type: "image_url", image_url: { url: PNG_URL } }] },
    ]);
  });
});

describe("/v1/messages: URLs go only to providers that read them; the Worker fetches none", () => {
  const urlImage: Anthropic.MessageParam["content"] = [
    { type: "image", source: { type: "url", url: "https://example.com/cat.png" } },
    { type: "text", text: "What is this?" },
  ];

  it("Anthropic gets the url source as it came", async () => {
    const body = await messagesBody("anthropic", urlImage);
    expect(body["messages"][0].content[0]).toEqual({
      type: "image",
      source: { type: "url", url: "https://example.com/cat.png" },
    });
  });

  it("OpenAI Chat gets the URL as its image_url", async () => {
    const body = await messagesBody("openai", urlImage);
    expect(body["messages"][0].content[0]).toEqual({
      type: "image_url",
      image_url: { url: "https://example.com/cat.png" },
    });
  });

  for (const provider of ["bedrock", "ollama", "gemini"])
    it(`${provider} (which needs the bytes): a 400 naming the provider and the block, and no request at all`, async () => {
      const upstream = fake();
      const error = await anthropic(provider, upstream)
        .messages.create({
          model: `${provider}/${LIVE[provider]!.model}`,
          max_tokens: 256,
          messages: [{ role: "user", content: urlImage }],
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AnthropicBadRequest);
      expect((error as AnthropicBadRequest).message).toContain("messages[0].content[0].source");
      expect((error as AnthropicBadRequest).message).toContain(`provider ${provider}`);
      expect(upstream.requests).toHaveLength(0);
    });

  // Gemini would read them with the deployment's project, Bedrock with its AWS key: the operator's storage.
  for (const [provider, url] of [
    ["gemini", "gs://bucket/cat.png"],
    ["gemini", "https://generativelanguage.googleapis.com/v1beta/files/abc123"],
    ["bedrock", "s3://bucket/cat.png"],
  ] as const)
    it(`${provider}: ${url.split("/")[0]} of the deployment's own storage is a 400 naming the block, and no request`, async () => {
      const upstream = fake();
      const error = await anthropic(provider, upstream)
        .messages.create({
          model: `${provider}/${LIVE[provider]!.model}`,
          max_tokens: 256,
          messages: [{ role: "user", content: [{ type: "image", source: { type: "url", url } }] }],
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AnthropicBadRequest);
      expect((error as AnthropicBadRequest).message).toContain("messages[0].content[0].source");
      expect((error as AnthropicBadRequest).message).toContain("own storage");
      expect(upstream.requests).toHaveLength(0);
    });
});

describe("/v1/responses: input_image and input_file", () => {
  const input = (content: OpenAI.Responses.ResponseInputMessageContentList): OpenAI.Responses.ResponseInput => [
    { role: "user", content },
  ];
  const responsesBody = async (provider: string, content: OpenAI.Responses.ResponseInputMessageContentList) => {
    const upstream = fake();
    await openai(provider, upstream)
      .responses.create({ model: `${provider}/${LIVE[provider]!.model}`, input: input(content), stream: true })
      .catch(() => undefined);
    expect(upstream.requests).toHaveLength(1);
    return upstream.requests[0]!.body as Record<string, any>;
  };
  const parts: OpenAI.Responses.ResponseInputMessageContentList = [
    { type: "input_text", text: "What is this?" },
    { type: "input_image", image_url: PNG_URL, detail: "high" },
    { type: "input_file", filename: "notes.pdf", file_data: PDF_URL },
  ];

  it("an OpenAI Responses upstream gets them as the client sent them", async () => {
    expect((await responsesBody("openai-responses", parts))["input"][0]).toEqual({ role: "user", content: parts });
  });

  it("Anthropic gets an image block and a document block", async () => {
    expect((await responsesBody("anthropic", parts))["messages"][0].content).toEqual([
      { type: "text", text: "What is this?" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, title: "notes.pdf" },
    ]);
  });

  it("Gemini gets inlineData parts", async () => {
    expect((await responsesBody("gemini", parts))["contents"][0].parts).toEqual([
      { text: "What is this?" },
      { inlineData: { mimeType: "image/png", data: PNG } },
      { inlineData: { mimeType: "application/pdf", data: PDF } },
    ]);
  });

  it("a file_id is a 400 naming it: the Worker keeps no files", async () => {
    const upstream = fake();
    const error = await openai("anthropic", upstream)
      .responses.create({
        model: "anthropic/claude-x",
        input: input([{ type: "input_file", file_id: "file-abc" }]),
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAIBadRequest);
    expect((error as OpenAIBadRequest).param).toBe("input[0].content[0].file_id");
    expect(upstream.requests).toHaveLength(0);
  });

  it("a PDF to Ollama is a 400 naming the provider and the part", async () => {
    const upstream = fake();
    const error = await openai("ollama", upstream)
      .responses.create({ model: "ollama/gemma3:4b", input: input(parts) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAIBadRequest);
    expect((error as OpenAIBadRequest).param).toBe("input[0].content[2].file_data");
    expect((error as OpenAIBadRequest).message).toContain("provider ollama");
    expect(upstream.requests).toHaveLength(0);
  });

  it("a function_call_output with an image reaches OpenAI Responses as a list of input parts", async () => {
    const upstream = fake();
    await openai("openai-responses", upstream)
      .responses.create({
        model: "openai-responses/gpt-5",
        stream: true,
        input: [
          { role: "user", content: "Screenshot please." },
          { type: "function_call", call_id: "call_1", name: "screenshot", arguments: "{}" },
          {
            type: "function_call_output",
            call_id: "call_1",
            output: [
              { type: "input_text", text: "Done." },
              { type: "input_image", image_url: PNG_URL, detail: "auto" },
            ],
          },
        ],
        tools: [{ type: "function", name: "screenshot", parameters: { type: "object" }, strict: false }],
      })
      .catch(() => undefined);
    expect((upstream.requests[0]!.body as Record<string, any>)["input"][2]).toEqual({
      type: "function_call_output",
      call_id: "call_1",
      output: [
        { type: "input_text", text: "Done." },
        { type: "input_image", image_url: PNG_URL, detail: "auto" },
      ],
    });
  });
});
