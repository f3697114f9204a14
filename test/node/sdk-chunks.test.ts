// The SDKs people already use (issue 28): each provider's own SDK reads its recordings from a
// server on 127.0.0.1 and hands its parsed chunks to streamToolCalls, which gives the calls, text
// and finish its bytes give. Also the SDKs' toReadableStream() (NDJSON of chunks) read as bytes,
// and a signal that aborts the SDK's request.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Anthropic from "@anthropic-ai/sdk";
import { Ollama } from "ollama";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onDemandImport } from "../../scripts/on-demand.mjs";
import type { BedrockSdk, CohereSdk, GenAISdk, SmithyHttp } from "./on-demand-sdks.ts";
import { streamToolCalls, type Provider, type ToolCallEvent } from "../../src/index.ts";
import { converse } from "../support/event-stream.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, recordingsAvailable, summarize, type Fixture } from "../support/fixtures.ts";
import { collect } from "../support/streams.ts";

// The SDKs only this file uses are no dev dependencies: installed on first use (scripts/on-demand.mjs).
const { BedrockRuntimeClient, ConverseStreamCommand, InvokeModelWithResponseStreamCommand } =
  await onDemandImport<BedrockSdk>("@aws-sdk/client-bedrock-runtime");
const { GoogleGenAI } = await onDemandImport<GenAISdk>("@google/genai");
const { NodeHttpHandler } = await onDemandImport<SmithyHttp>("@smithy/node-http-handler");
const { CohereClientV2 } = await onDemandImport<CohereSdk>("cohere-ai");

const CONTENT_TYPES: Record<Fixture["format"], string> = {
  sse: "text/event-stream",
  ndjson: "application/x-ndjson",
  "json-array": "application/json",
  "event-stream": "application/vnd.amazon.eventstream",
};

/** What the server answers next, and the requests it saw closed. */
let serve: (request: IncomingMessage) => { body: Uint8Array; type: string; stall?: boolean } = () => ({
  body: new Uint8Array(),
  type: "text/plain",
});
let closed = 0;
let server: Server;
let baseURL = "";

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const { body, type, stall } = serve(request);
      response.writeHead(200, { "content-type": type });
      response.write(body);
      if (!stall) response.end();
    });
    response.on("close", () => closed++);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** Serves `fixture`'s body to every request. */
function serveFixture(fixture: Fixture): void {
  serve = () => ({ body: fixture.body, type: CONTENT_TYPES[fixture.format] });
}

/** The recordings of one protocol in the given framings an SDK reads without throwing (no provider error). */
function recordings(provider: Provider, formats: readonly Fixture["format"][], name?: RegExp): Fixture[] {
  return allFixtures.filter(
    (f) =>
      supportedProvider(f) === provider &&
      formats.includes(f.format) &&
      f.expected.error === undefined &&
      (name === undefined || name.test(f.name)),
  );
}

/** The events of the recording's bytes. */
function fromBytes(fixture: Fixture, provider: Provider): Promise<ToolCallEvent[]> {
  const body = new Response(fixture.body as BodyInit, { headers: { "content-type": CONTENT_TYPES[fixture.format] } });
  return collect(streamToolCalls(body, { provider }));
}

/** The events of the recording's bytes, and of the SDK's chunks. */
async function bothWays(
  fixture: Fixture,
  provider: Provider,
  chunks: () => Promise<AsyncIterable<object>>,
): Promise<{ bytes: ToolCallEvent[]; sdk: ToolCallEvent[] }> {
  const bytes = await fromBytes(fixture, provider);
  serveFixture(fixture);
  const sdk = await collect(streamToolCalls(await chunks(), { provider }));
  return { bytes, sdk };
}

const user = [{ role: "user" as const, content: "hi" }];
const openai = () => new OpenAI({ apiKey: "test", baseURL, maxRetries: 0 });
const anthropic = () => new Anthropic({ apiKey: "test", baseURL, maxRetries: 0 });
const bedrock = () =>
  new BedrockRuntimeClient({
    region: "us-east-1",
    endpoint: baseURL,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler(), // HTTP/1.1 to the local server (the client's default is HTTP/2)
  });

/** One SDK: its provider, the recordings it reads, and its streaming call. */
const SDKS: {
  name: string;
  provider: Provider;
  fixtures: () => Fixture[];
  call: () => Promise<AsyncIterable<object>>;
}[] = [
  {
    name: "openai-node chat.completions.create({ stream: true })",
    provider: "openai",
    fixtures: () => recordings("openai", ["sse"]),
    call: () => openai().chat.completions.create({ model: "m", messages: user, stream: true }),
  },
  {
    name: "openai-node responses.create({ stream: true })",
    provider: "openai-responses",
    fixtures: () => recordings("openai-responses", ["sse"]),
    call: () => openai().responses.create({ model: "m", input: "hi", stream: true }),
  },
  {
    name: "@anthropic-ai/sdk messages.create({ stream: true })",
    provider: "anthropic",
    fixtures: () => recordings("anthropic", ["sse"]),
    call: () => anthropic().messages.create({ model: "m", max_tokens: 1024, messages: user, stream: true }),
  },
  {
    name: "@google/genai models.generateContentStream",
    provider: "gemini",
    fixtures: () => recordings("gemini", ["sse"]),
    call: () =>
      new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: baseURL } }).models.generateContentStream({
        model: "gemini-2.5-flash",
        contents: "hi",
      }),
  },
  {
    name: "@google/genai interactions.create({ stream: true })",
    provider: "gemini-interactions",
    fixtures: () => recordings("gemini-interactions", ["sse"]),
    call: () =>
      new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: baseURL } }).interactions.create({
        model: "gemini-3-flash-preview",
        input: "hi",
        stream: true,
      }),
  },
  {
    name: "@aws-sdk/client-bedrock-runtime ConverseStreamCommand",
    provider: "bedrock",
    fixtures: () => recordings("bedrock", ["event-stream"], /^converse/),
    call: async () => {
      const output = await bedrock().send(
        new ConverseStreamCommand({
          modelId: "amazon.nova-lite-v1:0",
          messages: [{ role: "user", content: [{ text: "hi" }] }],
        }),
      );
      return output.stream!;
    },
  },
  {
    name: "@aws-sdk/client-bedrock-runtime InvokeModelWithResponseStreamCommand",
    provider: "bedrock",
    fixtures: () => recordings("bedrock", ["event-stream"], /^invoke/),
    call: async () => {
      const output = await bedrock().send(
        new InvokeModelWithResponseStreamCommand({ modelId: "anthropic.claude-sonnet-4", body: "{}" }),
      );
      return output.body!;
    },
  },
  {
    name: "cohere-ai v2.chatStream",
    provider: "cohere",
    fixtures: () => recordings("cohere", ["sse"]),
    call: async () =>
      new CohereClientV2({ token: "test", environment: baseURL }).chatStream({ model: "command-a", messages: user }),
  },
  {
    name: "ollama chat({ stream: true })",
    provider: "ollama",
    fixtures: () => recordings("ollama", ["ndjson"]),
    call: () => new Ollama({ host: baseURL }).chat({ model: "qwen3", messages: user, stream: true }),
  },
];

describe.skipIf(!recordingsAvailable)("streamToolCalls from each SDK's own stream", () => {
  for (const sdk of SDKS) {
    it(`${sdk.name}: every recording gives the calls, text and finish of its bytes`, async () => {
      const fixtures = sdk.fixtures();
      expect(fixtures.length).toBeGreaterThan(0);
      for (const fixture of fixtures) {
        const { bytes, sdk: fromSdk } = await bothWays(fixture, sdk.provider, sdk.call);
        expect(summarize(fromSdk), `${fixture.provider}/${fixture.name}`).toEqual(summarize(bytes));
        expect(fromSdk.at(-1)?.type, `${fixture.provider}/${fixture.name}`).toBe(bytes.at(-1)?.type);
      }
    });
  }

  it("openai-node and @anthropic-ai/sdk toReadableStream() (NDJSON of chunks) read as bytes", async () => {
    for (const [provider, call] of [
      ["openai", SDKS[0]!.call],
      ["anthropic", SDKS[2]!.call],
    ] as const) {
      for (const fixture of recordings(provider, ["sse"])) {
        const bytes = await fromBytes(fixture, provider);
        serveFixture(fixture);
        const stream = (await call()) as unknown as { toReadableStream(): ReadableStream<Uint8Array> };
        const ndjson = await collect(streamToolCalls(stream.toReadableStream(), { provider }));
        const name = `${fixture.provider}/${fixture.name}`;
        if (bytes.at(-1)?.type === "finish" && fixture.expected.finishReason === null) {
          // Completed by a [DONE] the NDJSON does not carry: its calls are reported discarded, never guessed complete.
          const last = ndjson.at(-1);
          expect(last?.type === "abort" && last.discarded.length, name).toBe(fixture.expected.toolCalls.length);
        } else expect(summarize(ndjson), name).toEqual(summarize(bytes));
      }
    }
  });
});

describe("an SDK's stream and the signal", () => {
  it("aborting the signal returns the SDK's iterator, which aborts its request", async () => {
    const first = `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }] })}\n\n`;
    serve = () => ({ body: new TextEncoder().encode(first), type: "text/event-stream", stall: true });
    const before = closed;
    const controller = new AbortController();
    const chunks = await openai().chat.completions.create({ model: "m", messages: user, stream: true });
    const reader = streamToolCalls(chunks, { provider: "openai", signal: controller.signal }).getReader();
    expect((await reader.read()).value).toEqual({ type: "text-delta", text: "Hi" });
    controller.abort();
    expect((await reader.read()).value?.type).toBe("abort");
    await expect.poll(() => closed - before, { timeout: 5000 }).toBe(1);
  });

  it("an SDK that throws mid-stream (openai-node at an error event): what came before, then error and abort", async () => {
    const chunk = {
      id: "c",
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }],
    };
    const text = `data: ${JSON.stringify(chunk)}\n\ndata: ${JSON.stringify({ error: { message: "overloaded" } })}\n\n`;
    serve = () => ({ body: new TextEncoder().encode(text), type: "text/event-stream" });
    const chunks = await openai().chat.completions.create({ model: "m", messages: user, stream: true });
    const events = await collect(streamToolCalls(chunks, { provider: "openai" }));
    expect(events.map((e) => e.type)).toEqual(["text-delta", "error", "abort"]);
  });
});

describe("@aws-sdk/client-bedrock-runtime's blobs", () => {
  it("ConverseStream: a redacted reasoning block (a Uint8Array in the SDK's event) keeps its data, as its bytes do", async () => {
    // The payloads of vercel/ai's amazon-bedrock-redacted-content recording
    // (test/recordings/external/vercel-ai/bedrock/), framed as Bedrock frames them.
    const redactedContent = "cnNuX3BVUGgxNnRvNFZLWURnSkFQeW1iRUFJRmVCTFpzSm15U3pBMGF0dUlOY0hhNVFrQ0Y=";
    const body = converse([
      ["messageStart", { role: "assistant" }],
      ["contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent } } }],
      ["contentBlockStop", { contentBlockIndex: 0 }],
      ["contentBlockStart", { contentBlockIndex: 1, start: { toolUse: { name: "propose", toolUseId: "call_61f8" } } }],
      ["contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: '{"groups":[]}' } } }],
      ["contentBlockStop", { contentBlockIndex: 1 }],
      ["messageStop", { stopReason: "tool_use" }],
      ["metadata", { usage: { inputTokens: 67, outputTokens: 70, totalTokens: 137 }, metrics: { latencyMs: 2588 } }],
    ]);
    const response = () => new Response(body, { headers: { "content-type": "application/vnd.amazon.eventstream" } });
    const bytes = await collect(streamToolCalls(response(), { provider: "bedrock" }));
    serve = () => ({ body, type: "application/vnd.amazon.eventstream" });
    const sdk = await collect(
      streamToolCalls(await SDKS.find((s) => s.name.endsWith("ConverseStreamCommand"))!.call(), {
        provider: "bedrock",
      }),
    );
    const parts = (events: ToolCallEvent[]) => events.flatMap((e) => (e.type === "finish" ? [e.reasoningParts] : []));
    expect(parts(bytes)).toEqual([[{ type: "redacted", data: redactedContent }]]);
    expect(parts(sdk)).toEqual(parts(bytes));
  });
});
