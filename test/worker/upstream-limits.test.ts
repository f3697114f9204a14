// A provider's limit before its stream, as its documentation gives the refusal, through the clients'
// own SDKs with their default retries (each retry reaches the upstream again, so its count is the
// SDK's attempts): a quota or billing refusal, which waiting does not cure, is answered so that no
// SDK retries it (OpenAI's 429 `insufficient_quota` with `x-should-retry: false`, Anthropic's 402
// `billing_error`); a rate limit stays a retried 429 typed by the limit the provider names, after
// the provider's wait (its headers, Gemini's RetryInfo, OpenAI's "try again in"), one of a minute at
// most (a longer one: ./upstream-long-waits.test.ts). Nothing of the provider's text reaches the client.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { anthropicErrorResponse } from "../../worker/protocols/anthropic-messages/error.ts";
import { HttpError } from "../../worker/response/json-error.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const SECRET = "org-SECRET0123 req_SECRET456";
const env = testEnv({
  CLIENT_TOKEN: "t",
  OPENAI_API_KEY: "k",
  ANTHROPIC_API_KEY: "k",
  GEMINI_API_KEY: "k",
  AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
  AWS_SECRET_ACCESS_KEY: "secret",
  AWS_REGION: "us-east-1",
});
const json = { "content-type": "application/json" };
const base = "http://localhost:8787";
const user = [{ role: "user" as const, content: "hi" }];

function scripted(status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const upstream = new FakeUpstream({ kind: "response", status, body: text, headers: { ...json, ...headers } });
  return { upstream, fetch: workerFetch({ env, upstream }) };
}

/** What each client gets, with the SDK's default retries, and how often the upstream was asked. */
async function chatAttempt(
  status: number,
  body: unknown,
  headers?: Record<string, string>,
  model = "openai/gpt-x",
  maxRetries = 2,
) {
  const { upstream, fetch } = scripted(status, body, headers);
  const openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch, maxRetries });
  const error = (await openai.chat.completions
    .create({ model, messages: user })
    .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
  return { error, attempts: upstream.requests.length };
}

async function messagesAttempt(
  status: number,
  body: unknown,
  headers?: Record<string, string>,
  model = "openai/gpt-x",
) {
  const { upstream, fetch } = scripted(status, body, headers);
  const anthropic = new Anthropic({ baseURL: base, apiKey: "t", fetch });
  const error = (await anthropic.messages
    .create({ model, max_tokens: 64, messages: user })
    .catch((caught: unknown) => caught)) as InstanceType<typeof Anthropic.APIError>;
  return { error, attempts: upstream.requests.length };
}

// OpenAI's documented 429 for an exhausted quota (its error-codes guide).
const insufficientQuota = {
  error: {
    message: `You exceeded your current quota, please check your plan and billing details. ${SECRET}`,
    type: "insufficient_quota",
    param: null,
    code: "insufficient_quota",
  },
};

describe("a quota or billing refusal: answered so that no SDK retries it", () => {
  it("OpenAI's 429 insufficient_quota: openai-node raises OpenAI's own RateLimitError once, not retried", async () => {
    const { error, attempts } = await chatAttempt(429, insufficientQuota, { "retry-after": "1" });
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect([error.status, error.type, error.code]).toEqual([429, "insufficient_quota", "insufficient_quota"]);
    expect(error.headers?.get("x-should-retry")).toBe("false");
    expect(attempts).toBe(1);
    expect(JSON.stringify(error.error)).not.toContain("SECRET");
    const { upstream, fetch } = scripted(429, insufficientQuota);
    const responses = new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch });
    const failed = await responses.responses.create({ model: "openai/gpt-x", input: "hi" }).catch((c: unknown) => c);
    expect(failed).toMatchObject({ status: 429, code: "insufficient_quota", type: "insufficient_quota" });
    expect(upstream.requests).toHaveLength(1);
  });

  it("the same on /v1/messages: @anthropic-ai/sdk's PaymentRequiredError, Anthropic's 402 billing_error, once", async () => {
    const { error, attempts } = await messagesAttempt(429, insufficientQuota);
    expect(error).toBeInstanceOf(Anthropic.PaymentRequiredError);
    expect(error.status).toBe(402);
    expect((error.error as { error: { type: string } }).error.type).toBe("billing_error");
    expect(attempts).toBe(1);
    expect(JSON.stringify(error.error)).not.toContain("SECRET");
  });

  for (const [label, status, body, headers, model] of [
    [
      "a 402 (OpenRouter's, DeepSeek's Insufficient Balance)",
      402,
      { error: { message: `Insufficient Balance ${SECRET}` } },
      {},
      "openai/gpt-x",
    ],
    [
      "Anthropic's 400 'credit balance is too low'",
      400,
      {
        type: "error",
        error: {
          type: "invalid_request_error",
          message: `Your credit balance is too low to access the Anthropic API. ${SECRET}`,
        },
      },
      {},
      "anthropic/claude-x",
    ],
    [
      "Bedrock's 400 ServiceQuotaExceededException",
      400,
      { message: `Your request exceeds the service quota for your account. ${SECRET}` },
      { "x-amzn-errortype": "ServiceQuotaExceededException:http://internal.amazon.com/coral/com.amazon.bedrock/" },
      "bedrock/amazon.nova-micro-v1:0",
    ],
    [
      "Anthropic's 429 rate_limit_error of a spend limit (details.error_code enforced_spend_limit_reached)",
      429,
      {
        type: "error",
        error: {
          type: "rate_limit_error",
          message: `You have reached your specified API usage limits. ${SECRET}`,
          details: { error_code: "enforced_spend_limit_reached" },
        },
      },
      {},
      "anthropic/claude-x",
    ],
    [
      "Gemini's 429 RESOURCE_EXHAUSTED of a model with limit: 0 on the project's tier (it still says retry in 20s)",
      429,
      {
        error: {
          code: 429,
          message: `You exceeded your current quota, please check your plan and billing details. * Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-x Please retry in 20.04466179s. ${SECRET}`,
          status: "RESOURCE_EXHAUSTED",
        },
      },
      {},
      "gemini/gemini-x",
    ],
  ] as const) {
    it(`${label}: the same quota refusal on both protocols, never retried`, async () => {
      const chat = await chatAttempt(status, body, headers, model);
      expect([chat.error.status, chat.error.code, chat.attempts]).toEqual([429, "insufficient_quota", 1]);
      const messages = await messagesAttempt(status, body, headers, model);
      expect(messages.error).toBeInstanceOf(Anthropic.PaymentRequiredError);
      expect(messages.attempts).toBe(1);
      expect(JSON.stringify([chat.error.error, messages.error.error])).not.toContain("SECRET");
    });
  }

  it("/v1/stream: 402 upstream_quota_exceeded with x-should-retry: false", async () => {
    const { fetch } = scripted(429, insufficientQuota);
    const answer = await fetch(`${base}/v1/stream`, {
      method: "POST",
      headers: { ...json, authorization: "Bearer t" },
      body: JSON.stringify({ provider: "openai", model: "gpt-x", messages: user }),
    });
    expect([answer.status, answer.headers.get("x-should-retry")]).toEqual([402, "false"]);
    expect(await answer.json()).toMatchObject({ error: { code: "upstream_quota_exceeded", upstreamStatus: 429 } });
  });
});

describe("a rate limit: still retried, after the provider's wait, typed by the limit it names", () => {
  it("OpenAI's tokens 429 with 'try again in 20ms': Chat's type tokens, the wait in retry-after-ms, retried twice", async () => {
    const body = {
      error: {
        message: `Rate limit reached for gpt-x in organization ${SECRET} on tokens per min (TPM): Limit 30000, Used 29950, Requested 120. Please try again in 20ms.`,
        type: "tokens",
        param: null,
        code: "rate_limit_exceeded",
      },
    };
    const { error, attempts } = await chatAttempt(429, body);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect([error.type, error.code]).toEqual(["tokens", "rate_limit_exceeded"]);
    expect([error.headers?.get("retry-after-ms"), error.headers?.get("retry-after")]).toEqual(["20", "1"]);
    expect(attempts).toBe(3);
    expect(JSON.stringify(error.error)).not.toContain("SECRET");
  });

  // Gemini's per-minute RESOURCE_EXHAUSTED: the limit by its quota metric, the wait its RetryInfo's
  // retryDelay, else the one its message names.
  for (const [metric, retry, type, wait] of [
    [
      "input_token_count, limit: 250000",
      { details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "14s" }] },
      "tokens",
      ["14", "14000"],
    ],
    ["requests, limit: 10. Please retry in 20.04466179s.", {}, "requests", ["21", "20045"]],
  ] as const) {
    it(`Gemini's RESOURCE_EXHAUSTED on ${metric}: a ${type} limit, retry-after ${wait[0]}`, async () => {
      const message = `Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_${metric} ${SECRET}`;
      const body = { error: { code: 429, message, status: "RESOURCE_EXHAUSTED", ...retry } };
      const { error, attempts } = await chatAttempt(429, body, {}, "gemini/gemini-x", 0);
      expect([error.status, error.type, error.code]).toEqual([429, type, "rate_limit_exceeded"]);
      expect([error.headers?.get("retry-after"), error.headers?.get("retry-after-ms")]).toEqual(wait);
      expect(attempts).toBe(1);
    });
  }

  it("Bedrock's 429 ModelNotReadyException is a model not ready yet: 503, retried as an overload", async () => {
    const headers = { "x-amzn-errortype": "ModelNotReadyException", "retry-after": "2" };
    const { fetch } = scripted(429, { message: `Model is not ready for inference. ${SECRET}` }, headers);
    const anthropic = new Anthropic({ baseURL: base, apiKey: "t", fetch, maxRetries: 0 });
    const error = (await anthropic.messages
      .create({ model: "bedrock/amazon.nova-micro-v1:0", max_tokens: 64, messages: user })
      .catch((caught: unknown) => caught)) as InstanceType<typeof Anthropic.APIError>;
    expect([error.status, error.headers?.get("retry-after")]).toEqual([503, "2"]);
    expect(JSON.stringify(error.error)).not.toContain("SECRET");
  });
});

describe("Anthropic's error types by status", () => {
  it("402 is billing_error, 504 timeout_error, 413 request_too_large (its documented types)", async () => {
    for (const [status, type] of [
      [402, "billing_error"],
      [504, "timeout_error"],
      [413, "request_too_large"],
    ] as const) {
      const answer = anthropicErrorResponse(new HttpError(status, { code: "upstream_timeout", message: "m" }));
      expect([answer.status, ((await answer.json()) as { error: { type: string } }).error.type]).toEqual([
        status,
        type,
      ]);
    }
  });
});
