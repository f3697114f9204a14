// A real client that aborts its own request mid-stream (its AbortController, `stream.abort()`,
// HttpAgent's `abortRun()`) cancels the provider request, on every endpoint that answers in one
// connection, the tool-running modes included. The clients' `fetch` behaves as a real one does
// when its signal aborts: the answer's body is cancelled (the server sees the connection close),
// and the body the client reads errors.
import { HttpAgent } from "@ag-ui/client";
import Anthropic from "@anthropic-ai/sdk";
import * as ai from "ai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { chatChunk, openAISSE } from "../support/streams.ts";
import { workerFetch } from "./client-support.ts";
import { eventually, FakeUpstream, responses, testEnv } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" });
const base = "http://localhost:8787";
/** An OpenAI provider that sends text and half a call, then nothing more. */
const stalled = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: [
      openAISSE(
        [
          chatChunk({ content: "Checking. " }),
          chatChunk({ tool_calls: [{ index: 0, id: "call_1", function: { name: "lookup", arguments: '{"q":' } }] }),
        ],
        false,
      ),
    ],
    then: "stall",
  });

/** `inner`, cancelling the answer's body when the request's signal aborts, as a real fetch does. */
function abortingFetch(inner: typeof fetch): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await inner(input, init);
    const signal = init?.signal;
    if (!signal || !response.body) return response;
    const reader = response.body.getReader();
    let body!: ReadableStreamDefaultController<Uint8Array>;
    signal.addEventListener("abort", () => {
      body.error(signal.reason);
      void reader.cancel(signal.reason).catch(() => {});
    });
    const readable = new ReadableStream<Uint8Array>(
      {
        start: (controller) => void (body = controller),
        pull: async (controller) => {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(readable, { status: response.status, headers: response.headers });
  }) as typeof fetch;
}

/** The provider request was aborted and its body cancelled. */
async function expectCancelled(upstream: FakeUpstream): Promise<void> {
  expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
  expect(upstream.requests[0]?.signal.aborted).toBe(true);
}

const openai = (fetch: typeof globalThis.fetch) =>
  new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch, maxRetries: 0 });

describe("a real client that aborts mid-stream cancels the provider request", () => {
  it("/v1/chat/completions (openai-node, its request's signal)", async () => {
    const upstream = stalled();
    const controller = new AbortController();
    const stream = await openai(abortingFetch(workerFetch({ env, upstream }))).chat.completions.create(
      { model: "openai/gpt-x", stream: true, messages: [{ role: "user", content: "hi" }] },
      { signal: controller.signal },
    );
    for await (const _ of stream) controller.abort();
    await expectCancelled(upstream);
  });

  for (const store of [false, true])
    it(`/v1/responses, store: ${store} (openai-node's stream.abort())`, async () => {
      const upstream = stalled();
      const fetch = abortingFetch(workerFetch({ env: store ? { ...env, RESPONSES: responses } : env, upstream }));
      const stream = openai(fetch).responses.stream({ model: "openai/gpt-x", store, input: "hi" });
      const outcome = await (async () => {
        for await (const event of stream) if (event.type === "response.output_text.delta") stream.abort();
      })().then(
        () => "ended",
        (error: unknown) => (error as Error).constructor.name,
      );
      expect(outcome).toBe("APIUserAbortError");
      await expectCancelled(upstream);
    });

  it("/v1/messages (@anthropic-ai/sdk's stream.abort())", async () => {
    const upstream = stalled();
    const anthropic = new Anthropic({
      baseURL: base,
      apiKey: "t",
      fetch: abortingFetch(workerFetch({ env, upstream })),
      maxRetries: 0,
    });
    const stream = anthropic.messages.stream({
      model: "openai/gpt-x",
      max_tokens: 64,
      messages: [{ role: "user", content: "hi" }],
    });
    stream.on("text", () => stream.abort());
    const outcome = await stream.finalMessage().then(
      () => "ended",
      (error: unknown) => (error as Error).constructor.name,
    );
    expect(outcome).toBe("APIUserAbortError");
    await expectCancelled(upstream);
  });

  for (const run of [false, true]) {
    it(`/v1/ui${run ? ", run mode" : ""} (the AI SDK's transport, its abortSignal)`, async () => {
      const upstream = stalled();
      const controller = new AbortController();
      const transport = new ai.DefaultChatTransport({
        api: `${base}/v1/ui`,
        fetch: abortingFetch(workerFetch({ env, upstream })),
        headers: { authorization: "Bearer t" },
        body: run ? { model: "openai/gpt-x", run: true, tools: ["calculate"] } : { model: "openai/gpt-x" },
      });
      const chunks = await transport.sendMessages({
        chatId: "c",
        messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "hi" }] }],
        abortSignal: controller.signal,
        trigger: "submit-message",
        messageId: undefined,
      });
      for await (const message of ai.readUIMessageStream({ stream: chunks }))
        if (message.parts.some((part) => part.type === "text")) controller.abort();
      await expectCancelled(upstream);
    });

    it(`/v1/ag-ui${run ? ", run mode" : ""} (@ag-ui/client's abortRun())`, async () => {
      const upstream = stalled();
      const agent = new HttpAgent({
        url: `${base}/v1/ag-ui`,
        threadId: "t1",
        headers: { authorization: "Bearer t" },
        fetch: abortingFetch(workerFetch({ env, upstream })),
      });
      agent.addMessage({ id: "m1", role: "user", content: "hi" });
      const forwardedProps = run
        ? { model: "openai/gpt-x", run: true, tools: ["calculate"] }
        : { model: "openai/gpt-x" };
      await agent.runAgent({ runId: "r1", forwardedProps }, { onTextMessageContentEvent: () => agent.abortRun() });
      await expectCancelled(upstream);
    });
  }
});
