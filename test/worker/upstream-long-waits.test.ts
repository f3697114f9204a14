// A provider's wait longer than a call should sleep (a daily limit's 429, a 503 for an hour), through
// the clients' own SDKs with their default retries: the SDKs do not sleep it inside the call, and
// they do not retry it after their own short backoff either (0.5 s, 1 s: the provider refuses again,
// asked 3 times per call, Claude Code up to 10). The wait goes on as whole seconds in `retry-after`
// with `x-should-retry: false`, which both SDKs obey, and which Claude Code reads as it reads a
// `retry-after` past 60 s: the error is shown at once. OpenAI's and Groq's "Please try again in
// 7m12.864s" (a Go duration) is such a wait.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "k" });
const user = [{ role: "user" as const, content: "hi" }];
const tokensPerDay = (wait: string) => ({
  error: {
    message: `Rate limit reached for gpt-x on tokens per day (TPD): Limit 200000, Used 199788, Requested 1090. Please try again in ${wait}. Visit https://platform.openai.com/account/rate-limits to learn more.`,
    type: "tokens",
    param: null,
    code: "rate_limit_exceeded",
  },
});

function scripted(status: number, body: unknown, headers: Record<string, string> = {}) {
  const answer = { kind: "response", status, body: JSON.stringify(body), headers } as const;
  const upstream = new FakeUpstream({ ...answer, headers: { "content-type": "application/json", ...headers } });
  return { upstream, fetch: workerFetch({ env, upstream }) };
}

type Caught = { status?: number; headers?: Headers };

/** Both SDKs, default retries, against the same refusal: what each raised and how often the upstream was asked. */
async function bothSdks(status: number, body: unknown, headers?: Record<string, string>) {
  const chat = scripted(status, body, headers);
  const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch: chat.fetch });
  const chatError = (await openai.chat.completions
    .create({ model: "openai/gpt-x", messages: user })
    .catch((caught: unknown) => caught)) as Caught;
  const messages = scripted(status, body, headers);
  const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch: messages.fetch });
  const messagesError = (await anthropic.messages
    .create({ model: "openai/gpt-x", max_tokens: 64, messages: user })
    .catch((caught: unknown) => caught)) as Caught;
  return [
    { error: chatError, attempts: chat.upstream.requests.length },
    { error: messagesError, attempts: messages.upstream.requests.length },
  ];
}

const said = (error: Caught) =>
  ["retry-after", "retry-after-ms", "x-should-retry"].map((name) => error.headers?.get(name) ?? null);

describe("a provider's wait past a minute: raised at once, with the wait, not retried", () => {
  for (const [label, body, headers, seconds] of [
    ["Retry-After: 86400 (a daily limit)", tokensPerDay("24h"), { "retry-after": "86400" }, "86400"],
    ["retry-after-ms: 3600000", tokensPerDay("1h"), { "retry-after-ms": "3600000" }, "3600"],
    ["'Please try again in 7m12.864s' (OpenAI's and Groq's TPD)", tokensPerDay("7m12.864s"), {}, "433"],
    ["'Please try again in 1h2m' ", tokensPerDay("1h2m"), {}, "3720"],
  ] as const) {
    it(`429 with ${label}: one request per call, retry-after ${seconds} and x-should-retry: false`, async () => {
      for (const { error, attempts } of await bothSdks(429, body, headers)) {
        expect([error.status, attempts]).toEqual([429, 1]);
        expect(said(error)).toEqual([seconds, null, "false"]);
      }
    });
  }

  it("a 503 with Retry-After: 3600 is an overload not retried inside the call either", async () => {
    const overloaded = { error: { message: "Service unavailable", type: "server_error" } };
    for (const { error, attempts } of await bothSdks(503, overloaded, { "retry-after": "3600" })) {
      expect([error.status, attempts]).toEqual([503, 1]);
      expect(said(error)).toEqual(["3600", null, "false"]);
    }
  });

  it("a wait of a minute or less is still slept and retried: 'try again in 1m0s' is 60000 ms", async () => {
    const { fetch } = scripted(429, tokensPerDay("1m0s"));
    const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
    const error = (await openai.chat.completions
      .create({ model: "openai/gpt-x", messages: user })
      .catch((caught: unknown) => caught)) as Caught;
    expect(said(error)).toEqual(["60", "60000", null]);
  });
});
