// How often the clients' own SDKs, with their default retries, ask again when the provider refuses
// for a limit, against a scripted OpenAI server on 127.0.0.1 that counts what reaches it (each SDK
// retry is a new request through the Worker, so the server's count is the SDK's attempts): a quota
// that waiting does not cure (OpenAI's 429 insufficient_quota) once, a rate limit three times
// (openai-node's and @anthropic-ai/sdk's default of two retries) after the provider's own wait.
import { timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import type { Env } from "../../worker/env.ts";
import { platformRuntime } from "../../worker/runtime.ts";

// workerd's crypto.subtle.timingSafeEqual, which the Worker's client-token check uses, from Node's.
const subtle: Omit<SubtleCrypto, "timingSafeEqual"> & { timingSafeEqual?: SubtleCrypto["timingSafeEqual"] } =
  crypto.subtle;
const bytesOf = (data: ArrayBuffer | ArrayBufferView): Uint8Array =>
  ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
subtle.timingSafeEqual ??= (a, b) => timingSafeEqual(bytesOf(a), bytesOf(b));

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A fake OpenAI that answers every request with `status`, `body` and `headers`; `count()` is how many came. */
async function refusingProvider(status: number, body: unknown, headers: Record<string, string> = {}) {
  let requests = 0;
  server = createServer((request, response) => {
    requests++;
    request.resume();
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, CLIENT_TOKEN: "t" } as Env;
  const handler = createFetchHandler(platformRuntime);
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(input, init), env)) as typeof globalThis.fetch;
  return { fetch, count: () => requests };
}

const user = [{ role: "user" as const, content: "hi" }];

const quota = {
  error: {
    message: "You exceeded your current quota, please check your plan and billing details.",
    type: "insufficient_quota",
    param: null,
    code: "insufficient_quota",
  },
};
const rateLimit = {
  error: {
    message: "Rate limit reached for gpt-x on requests per min (RPM): Limit 3. Please try again in 20ms.",
    type: "requests",
    param: null,
    code: "rate_limit_exceeded",
  },
};

/** openai-node's and @anthropic-ai/sdk's errors, each with its default retries, and how often each reached the provider. */
async function bothSDKs(body: unknown) {
  const chat = await refusingProvider(429, body);
  const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch: chat.fetch });
  const chatError = await openai.chat.completions.create({ model: "openai/gpt-x", messages: user }).catch((e) => e);
  const chatAttempts = chat.count();
  server?.close();
  const messages = await refusingProvider(429, body);
  const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch: messages.fetch });
  const messagesError = await anthropic.messages
    .create({ model: "openai/gpt-x", max_tokens: 16, messages: user })
    .catch((e) => e);
  return { chatError, chatAttempts, messagesError, messagesAttempts: messages.count() };
}

describe("the SDKs' attempts through the Worker, against a refusing provider on 127.0.0.1", () => {
  it("OpenAI's 429 insufficient_quota: openai-node and @anthropic-ai/sdk ask once", async () => {
    const { chatError, chatAttempts, messagesError, messagesAttempts } = await bothSDKs(quota);
    expect(chatError).toMatchObject({ status: 429, code: "insufficient_quota" });
    expect(messagesError).toBeInstanceOf(Anthropic.PaymentRequiredError);
    expect([chatAttempts, messagesAttempts]).toEqual([1, 1]);
  });

  it("a rate limit: both SDKs retry it twice, after the provider's 20 ms", async () => {
    const { chatError, chatAttempts, messagesError, messagesAttempts } = await bothSDKs(rateLimit);
    expect(chatError).toMatchObject({ status: 429, type: "requests", code: "rate_limit_exceeded" });
    expect(messagesError).toBeInstanceOf(Anthropic.RateLimitError);
    expect([chatAttempts, messagesAttempts]).toEqual([3, 3]);
  });
});
