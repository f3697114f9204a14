// A provider's rate limit or overload answered before its stream, as an HTTP 429 / 503 / 529 with a
// JSON body: the wait it names reaches the client as the headers openai-node, @anthropic-ai/sdk and
// the AI SDK pace their retries by (`retry-after-ms`, `retry-after`), on every endpoint, whether the
// provider named it in its own headers or only in its body (Gemini's google.rpc.RetryInfo, a
// message's "try again in"); bounded (a day at most, never negative). An answer that was not
// streamed, to a rate limit inside the provider's stream, carries the wait it says the same way.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { endpoints } from "./endpoint-bodies.ts";
import { post, workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "k", GEMINI_API_KEY: "k" });
const RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo";

/** An endpoint's valid body, its model Gemini's. */
const geminiBody = (name: string) =>
  JSON.parse(
    JSON.stringify(endpoints[name]!.valid())
      .replaceAll('"openai/gpt-4o-mini"', '"gemini/gemini-x"')
      .replace('"provider":"openai"', '"provider":"gemini"'),
  ) as Record<string, unknown>;

const upstreamOf = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new FakeUpstream({
    kind: "response",
    status,
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", ...headers },
  });

/** POSTs `body` to the Worker as client `t`. */
const send = (fetch: typeof globalThis.fetch, path: string, body: unknown) =>
  fetch(post(path, body, { headers: { authorization: "Bearer t" } }));

const waitOf = (response: Response) =>
  ["retry-after", "retry-after-ms", "x-should-retry"].map((name) => response.headers.get(name));

// Gemini's 503 as its troubleshooting guide gives it, with the RetryInfo its 429s carry.
const unavailable = {
  error: {
    code: 503,
    message: "The model is overloaded. Please try again later.",
    status: "UNAVAILABLE",
    details: [{ "@type": RETRY_INFO, retryDelay: "12s" }],
  },
};

describe("a provider's wait in its error body reaches every endpoint's error answer as retry-after", () => {
  for (const name of ["stream", "run", "chat", "ui", "messages", "responses", "agui"]) {
    it(`${endpoints[name]!.path} (${name}): Gemini's 503 with RetryInfo 12s, no header: retry-after 12`, async () => {
      const fetch = workerFetch({ env, upstream: upstreamOf(503, unavailable) });
      const response = await send(fetch, endpoints[name]!.path, geminiBody(name));
      expect(response.status).toBe(503);
      expect(waitOf(response)).toEqual(["12", "12000", null]);
    });
  }

  it("a 529 whose message names its wait: retry-after from the message", async () => {
    const body = { error: { type: "server_is_overloaded", message: "Overloaded. Please try again in 2.5s." } };
    const response = await send(workerFetch({ env, upstream: upstreamOf(529, body) }), "/v1/messages", {
      model: "openai/gpt-x",
      max_tokens: 64,
      messages: [{ role: "user", content: "hi" }],
    });
    expect([response.status, ...waitOf(response)]).toEqual([529, "3", "2500", null]);
  });

  it("the provider's own header outweighs its body", async () => {
    const upstream = upstreamOf(503, unavailable, { "retry-after": "4" });
    const response = await send(workerFetch({ env, upstream }), "/v1/chat/completions", geminiBody("chat"));
    expect(waitOf(response)).toEqual(["4", "4000", null]);
  });
});

describe("a wait is bounded: a day at most, as whole seconds, never retried inside the call", () => {
  const date = "Sat, 05 Dec 2026 00:00:00 GMT";
  for (const [label, headers] of [
    ["Retry-After: 999999999", { "retry-after": "999999999" }],
    ["retry-after-ms: 999999999", { "retry-after-ms": "999999999" }],
    ["an HTTP date ten years on", { date, "retry-after": "Tue, 05 Dec 2036 00:00:00 GMT" }],
  ] as const) {
    it(`429 with ${label}: retry-after 86400, x-should-retry: false, through openai-node`, async () => {
      const fetch = workerFetch({
        env,
        upstream: upstreamOf(429, { error: { code: "rate_limit_exceeded" } }, headers),
      });
      const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 2 });
      const error = (await openai.chat.completions
        .create({ model: "openai/gpt-x", messages: [{ role: "user", content: "hi" }] })
        .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect(["retry-after", "retry-after-ms", "x-should-retry"].map((n) => error.headers?.get(n) ?? null)).toEqual([
        "86400",
        null,
        "false",
      ]);
    });
  }

  it("a message's wait of years is said and sent as a day", async () => {
    const body = { error: { code: "rate_limit_exceeded", message: "Please try again in 999999999h." } };
    const response = await send(
      workerFetch({ env, upstream: upstreamOf(429, body) }),
      "/v1/chat/completions",
      geminiBody("chat"),
    );
    expect(waitOf(response)).toEqual(["86400", null, "false"]);
  });
});

describe("a wait in fractional seconds, as openai-node, @anthropic-ai/sdk and the AI SDK read Retry-After", () => {
  for (const [label, headers, wait] of [
    ["Retry-After: 1.898", { "retry-after": "1.898" }, ["2", "1898"]],
    ["retry-after-ms: 0.4 (positive: never said as 0)", { "retry-after-ms": "0.4" }, ["1", "1"]],
    ["Retry-After: 2.007 (read as 2007.0000000000002 ms)", { "retry-after": "2.007" }, ["3", "2007"]],
  ] as const) {
    it(`429 with ${label}, its body naming none: retry-after ${wait[0]}, retry-after-ms ${wait[1]}`, async () => {
      const upstream = upstreamOf(429, { error: { code: "rate_limit_exceeded", message: "Slow down." } }, headers);
      const response = await send(workerFetch({ env, upstream }), "/v1/chat/completions", geminiBody("chat"));
      expect([response.status, ...waitOf(response)]).toEqual([429, ...wait, null]);
    });
  }
});
