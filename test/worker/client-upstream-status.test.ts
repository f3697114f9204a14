// A provider's HTTP failure before the stream, as the clients' own SDKs see it: a rejection of the
// request (400, 422) is the 400 the SDKs do not retry (a 502 they retried, Claude Code up to 10
// times, though the same request cannot pass), an unknown model the 404 they raise as NotFound, an
// overloaded provider a retryable 503 (on /v1/messages, an Anthropic 529 stays Anthropic's
// `overloaded_error`) with the provider's Retry-After.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const key = "sk-ant-SECRETKEY0123456789";
const env = testEnv({ OPENAI_API_KEY: key, ANTHROPIC_API_KEY: key, CLIENT_TOKEN: "t" });
const leaky = JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: `bad ${key}` } });

function clientFetch(status: number, headers: Record<string, string> = {}) {
  const upstream = new FakeUpstream({ kind: "response", status, body: leaky, headers });
  return { upstream, fetch: workerFetch({ env, upstream }) };
}

const ask = (anthropic: Anthropic) =>
  anthropic.messages
    .create({ model: "anthropic/claude-x", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
    .catch((caught: unknown) => caught);

describe("provider HTTP failures through the clients' SDKs", () => {
  for (const status of [400, 422]) {
    it(`a provider ${status}: @anthropic-ai/sdk and openai-node raise BadRequestError and do not retry it`, async () => {
      const messages = clientFetch(status);
      const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch: messages.fetch });
      const refused = await ask(anthropic);
      expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
      expect(messages.upstream.requests).toHaveLength(1);
      expect(JSON.stringify((refused as { error: unknown }).error)).not.toContain("SECRETKEY");
      const chat = clientFetch(status);
      const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch: chat.fetch });
      const rejected = await openai.chat.completions
        .create({ model: "anthropic/claude-x", messages: [{ role: "user", content: "hi" }] })
        .catch((caught: unknown) => caught);
      expect(rejected).toBeInstanceOf(OpenAI.BadRequestError);
      expect(rejected).toMatchObject({ status: 400, code: "upstream_rejected", type: "invalid_request_error" });
      expect(chat.upstream.requests).toHaveLength(1);
    });
  }

  // A refusal no retry cures is a 502 with `x-should-retry: false`: without it both SDKs retried
  // every 5xx twice (Claude Code up to 10 times), asking the provider again with a key it refused.
  for (const status of [401, 403, 405, 301]) {
    it(`a provider ${status}: a 502 that neither SDK retries`, async () => {
      const messages = clientFetch(status);
      const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch: messages.fetch });
      const refused = (await ask(anthropic)) as InstanceType<typeof Anthropic.APIError>;
      expect([refused.status, refused.headers?.get("x-should-retry")]).toEqual([502, "false"]);
      expect(messages.upstream.requests).toHaveLength(1);
      const chat = clientFetch(status);
      const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch: chat.fetch });
      const rejected = await openai.chat.completions
        .create({ model: "anthropic/claude-x", messages: [{ role: "user", content: "hi" }] })
        .catch((caught: unknown) => caught);
      expect(rejected).toMatchObject({
        status: 502,
        code: status < 404 && status > 400 ? "upstream_auth_failed" : "upstream_rejected",
      });
      expect(chat.upstream.requests).toHaveLength(1);
    });
  }

  it("a provider 408 (it gave up waiting) is a 504 the SDKs retry, a 409 a 502 they retry", async () => {
    for (const [status, answered] of [
      [408, 504],
      [409, 502],
    ] as const) {
      const chat = clientFetch(status);
      const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch: chat.fetch, maxRetries: 1 });
      const failed = await openai.chat.completions
        .create({ model: "anthropic/claude-x", messages: [{ role: "user", content: "hi" }] })
        .catch((caught: unknown) => caught);
      expect(failed).toMatchObject({ status: answered });
      expect(chat.upstream.requests).toHaveLength(2);
    }
  });

  it("a provider 404: NotFoundError (not_found_error on /v1/messages) that names the model", async () => {
    const { fetch, upstream } = clientFetch(404);
    const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch });
    const missing = await ask(anthropic);
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
    expect((missing as { error: { error: { type: string; message: string } } }).error.error).toMatchObject({
      type: "not_found_error",
      message: expect.stringContaining("model"),
    });
    expect(upstream.requests).toHaveLength(1);
  });

  it("an Anthropic 529: /v1/messages answers 529 overloaded_error with its Retry-After; Chat a 503 server_error", async () => {
    const messages = clientFetch(529, { "retry-after": "7" });
    const anthropic = new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      fetch: messages.fetch,
      maxRetries: 0,
    });
    const overloaded = (await ask(anthropic)) as InstanceType<typeof Anthropic.APIError>;
    expect(overloaded).toBeInstanceOf(Anthropic.InternalServerError); // the SDK's class of every 5xx, retried
    expect(overloaded.status).toBe(529);
    expect(overloaded.headers?.get("retry-after")).toBe("7");
    expect((overloaded.error as { error: { type: string } }).error.type).toBe("overloaded_error");
    const chat = clientFetch(529, { "retry-after": "7" });
    const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch: chat.fetch, maxRetries: 0 });
    const failed = await openai.chat.completions
      .create({ model: "anthropic/claude-x", messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    expect(failed).toBeInstanceOf(OpenAI.InternalServerError);
    expect(failed).toMatchObject({ status: 503, code: "upstream_overloaded", type: "server_error" });
    expect((failed as InstanceType<typeof OpenAI.APIError>).headers?.get("retry-after")).toBe("7");
  });

  it("another provider's 503: /v1/messages answers 503 api_error with its Retry-After", async () => {
    const { fetch } = clientFetch(503, { "retry-after": "5" });
    const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch, maxRetries: 0 });
    const failed = (await ask(anthropic)) as InstanceType<typeof Anthropic.APIError>;
    expect(failed.status).toBe(503);
    expect(failed.headers?.get("retry-after")).toBe("5");
    expect((failed.error as { error: { type: string } }).error.type).toBe("api_error");
  });

  it("a provider 429: RateLimitError with its Retry-After, OpenAI's code; /v1/responses types it too_many_requests (Open Responses)", async () => {
    // OpenAI's own 429 is `{"type": "requests" | "tokens", "code": "rate_limit_exceeded"}`.
    for (const [path, type] of [
      ["chat", "requests"],
      ["responses", "too_many_requests"],
    ] as const) {
      const { fetch } = clientFetch(429, { "retry-after": "3" });
      const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
      const limited = await (path === "chat"
        ? openai.chat.completions.create({ model: "anthropic/claude-x", messages: [{ role: "user", content: "hi" }] })
        : openai.responses.create({ model: "anthropic/claude-x", input: "hi" })
      ).catch((caught: unknown) => caught);
      expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
      expect(limited).toMatchObject({ status: 429, type, code: "rate_limit_exceeded" });
      expect((limited as InstanceType<typeof OpenAI.APIError>).headers?.get("retry-after")).toBe("3");
    }
  });
});
