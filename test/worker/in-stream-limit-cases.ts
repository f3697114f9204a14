// The failures inside a stream that waiting cures or does not, each provider's in the shape it
// sends: a quota or billing refusal (OpenAI's `insufficient_quota`, Anthropic's `billing_error` and
// spend limits, Gemini's "limit: 0") and a request the provider refused as it is (OpenAI's
// `invalid_prompt`, an `invalid_request_error`, Gemini's 400 INVALID_ARGUMENT, Bedrock's
// `validationException`), which no retry cures; a rate limit that names its wait ("Please try
// again in 1.898s", Gemini's "Please retry in 14.5s"), which Codex sleeps before it retries. Every
// message quotes a secret the Worker must never pass on. Added to in-stream-error-cases.ts's by the tests.
import {
  anthropic,
  bedrock,
  chat,
  type ErrorCase,
  gemini,
  responsesCreated,
  responsesFailed,
  SECRET,
  SSE,
  sse,
} from "./in-stream-error-cases.ts";

const QUOTA_TEXT = "You exceeded your current quota, please check your plan and billing details.";
const TPM =
  "Rate limit reached for gpt-x in organization org-x on tokens per min (TPM): Limit 30000, Used 29000, Requested 1600. Please try again in 1.898s.";

/** OpenAI's Responses API as it sends a rate limit (a recorded stream's shape: the `error` event, then `response.failed`). */
const responsesRateLimit: ErrorCase = {
  provider: "openai-responses",
  model: "openai-responses/gpt-x",
  label: "OpenAI Responses error event, then response.failed, rate_limit_exceeded with its wait",
  kind: "rate-limited",
  limit: "tokens",
  wait: 1.898,
  contentType: SSE,
  chunks: [
    responsesCreated,
    sse("error", {
      type: "error",
      sequence_number: 1,
      error: { type: "tokens", code: "rate_limit_exceeded", message: `${TPM} ${SECRET}`, param: null },
    }),
    sse("response.failed", {
      type: "response.failed",
      sequence_number: 2,
      response: {
        id: "resp_1",
        object: "response",
        status: "failed",
        output: [],
        error: { code: "rate_limit_exceeded", message: `${TPM} ${SECRET}` },
      },
    }),
  ],
};

const spendLimit = anthropic("rate_limit_error of a spend limit", "quota-exceeded", "rate_limit_error", "");
spendLimit.chunks[2] = sse("error", {
  type: "error",
  error: {
    type: "rate_limit_error",
    message: `You have reached your specified workspace API usage limits. ${SECRET}`,
    details: { error_code: "enforced_spend_limit_reached" },
  },
});

/**
 * Gemini's 429 with its wait only in the google.rpc.RetryInfo of `error.details` (a protobuf
 * Duration), after a QuotaFailure that names the metric; the message names none.
 */
const geminiRetryInfo: ErrorCase = {
  ...gemini("RESOURCE_EXHAUSTED", 429, "", "rate-limited"),
  label: "Gemini 429 RetryInfo wait",
  wait: 38.5,
  chunks: [
    sse(undefined, { candidates: [{ content: { role: "model", parts: [{ text: "Hel" }] }, index: 0 }] }),
    sse(undefined, {
      error: {
        code: 429,
        message: `You exceeded your current quota. ${SECRET}`,
        status: "RESOURCE_EXHAUSTED",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            violations: [{ quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests" }],
          },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "38.5s" },
        ],
      },
    }),
  ],
};

/** Every case. */
export const limitCases: ErrorCase[] = [
  responsesFailed(
    "invalid_prompt",
    "invalid-request",
    "Invalid prompt: your prompt was flagged as potentially violating our usage policy.",
  ),
  anthropic(
    "invalid_request_error",
    "invalid-request",
    "invalid_request_error",
    "messages.1.content.0.tool_use.input: Input should be a valid dictionary",
  ),
  chat(
    "vLLM error object (code 400), an invalid request",
    "invalid-request",
    sse(undefined, {
      error: {
        object: "error",
        message: `'messages' must alternate roles ${SECRET}`,
        type: "BadRequestError",
        code: 400,
      },
    }),
  ),
  {
    ...gemini("INVALID_ARGUMENT", 400, 'Invalid JSON payload received. Unknown name "foo".', "invalid-request"),
    label: "Gemini 400 INVALID_ARGUMENT, an invalid field",
  },
  bedrock("validationException", { message: "Malformed input request: extraneous key [foo]." }, "invalid-request"),
  responsesFailed("insufficient_quota", "quota-exceeded", QUOTA_TEXT),
  responsesRateLimit,
  chat(
    "OpenAI-compatible error object insufficient_quota",
    "quota-exceeded",
    sse(undefined, {
      error: { message: `${QUOTA_TEXT} ${SECRET}`, type: "insufficient_quota", code: "insufficient_quota" },
    }),
  ),
  {
    ...chat(
      "Groq event: error rate_limit_exceeded with its wait",
      "rate-limited",
      sse("error", {
        error: {
          message: `Rate limit reached on tokens per minute (TPM): Limit 6000, Used 5800. Please try again in 6.4s. ${SECRET}`,
          type: "tokens",
          code: "rate_limit_exceeded",
        },
      }),
    ),
    limit: "tokens",
    wait: 6.4,
  },
  anthropic(
    "billing_error",
    "quota-exceeded",
    "billing_error",
    "Your credit balance is too low to access the Anthropic API.",
  ),
  spendLimit,
  gemini(
    "RESOURCE_EXHAUSTED",
    429,
    "Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-x. Please retry in 20.04466179s.",
    "quota-exceeded",
  ),
  {
    ...gemini(
      "RESOURCE_EXHAUSTED",
      429,
      "Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 15, model: gemini-x. Please retry in 14.5s.",
      "rate-limited",
    ),
    label: "Gemini 429 RESOURCE_EXHAUSTED with its wait",
    wait: 14.5,
  },
  geminiRetryInfo,
];
