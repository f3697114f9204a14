// A provider's failure inside its stream reaches every client protocol in the form its clients
// act on, whatever the provider: an overload is Messages' `overloaded_error` (Claude Code and
// @anthropic-ai/sdk back off on it) and OpenAI's `server_is_overloaded` (Codex retries it), a rate
// limit `rate_limit_error` / `rate_limit_exceeded`, a conversation too long for the context window
// Messages' "prompt is too long" (Claude Code compacts, reading the numbers) and OpenAI's
// `context_length_exceeded` (Codex compacts); AG-UI's RUN_ERROR is coded by the kind, /v1/stream
// carries it on `error.kind`, the AI SDK's error text says it. An answer that was not streamed has
// the kind's HTTP status. Nothing of the provider's payload reaches any client.
import { HttpAgent } from "@ag-ui/client";
import Anthropic from "@anthropic-ai/sdk";
import { DefaultChatTransport, readUIMessageStream } from "ai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { ProviderErrorKind } from "../../src/index.ts";
import { EVERY_PROVIDER_ENV, workerFetch } from "./client-support.ts";
import { errorCases, SECRET, type ErrorCase } from "./in-stream-error-cases.ts";
import { limitCases } from "./in-stream-limit-cases.ts";
import { FakeUpstream } from "./support.ts";

const env = EVERY_PROVIDER_ENV;
const fetchOf = (c: ErrorCase) =>
  workerFetch({
    env,
    upstream: new FakeUpstream({ kind: "sse", chunks: c.chunks, headers: { "content-type": c.contentType } }),
  });
const base = "http://localhost:8787";
const auth = { authorization: "Bearer t" };
const user = [{ role: "user" as const, content: "hi" }];

/** OpenAI's code of each kind on Chat Completions, Anthropic's type, AG-UI's code. */
const OPENAI_CODE: Record<ProviderErrorKind, string> = {
  overloaded: "server_is_overloaded",
  "rate-limited": "rate_limit_exceeded",
  "quota-exceeded": "insufficient_quota",
  "context-overflow": "context_length_exceeded",
  // Codex shows an `invalid_prompt` failure's message and stops.
  "invalid-request": "invalid_prompt",
  other: "provider-error",
};
/** On Responses, an overload is `server_error`, which Codex retries (it ends its turn on `server_is_overloaded`). */
const RESPONSES_CODE: Record<ProviderErrorKind, string> = { ...OPENAI_CODE, overloaded: "server_error" };
const CHAT_TYPE: Record<ProviderErrorKind, string> = {
  overloaded: "server_error",
  // OpenAI's 429 types the limit hit, `tokens` where the provider said so (ErrorCase.limit), else `requests`.
  "rate-limited": "requests",
  "quota-exceeded": "insufficient_quota",
  "context-overflow": "invalid_request_error",
  "invalid-request": "invalid_request_error",
  other: "server_error",
};
const ANTHROPIC_TYPE: Record<ProviderErrorKind, string> = {
  overloaded: "overloaded_error",
  "rate-limited": "rate_limit_error",
  "quota-exceeded": "billing_error",
  "context-overflow": "invalid_request_error",
  "invalid-request": "invalid_request_error",
  other: "api_error",
};
const AGUI_CODE: Record<ProviderErrorKind, string> = {
  overloaded: "overloaded",
  "rate-limited": "rate-limited",
  "quota-exceeded": "quota-exceeded",
  "context-overflow": "context-overflow",
  "invalid-request": "invalid-request",
  other: "provider-error",
};
const WORDS: Record<ProviderErrorKind, RegExp> = {
  overloaded: /^The provider is overloaded/,
  "rate-limited": /^The provider's rate limit was reached/,
  "quota-exceeded": /^The provider refused the request for its account's quota or billing/,
  "context-overflow": /^The conversation is too long for the model's context window/,
  "invalid-request": /^The provider refused the request as it is/,
  other: /^The provider reported/,
};
/** Statuses of an answer that was not streamed: OpenAI's, Anthropic's (a quota: OpenAI's 429 `insufficient_quota`, Anthropic's 402). */
const STATUS: Record<ProviderErrorKind, [number, number]> = {
  overloaded: [503, 529],
  "rate-limited": [429, 429],
  "quota-exceeded": [429, 402],
  "context-overflow": [400, 400],
  "invalid-request": [400, 400],
  other: [502, 502],
};

/**
 * Codex's reading of a `rate_limit_exceeded` failure's wait (codex-rs/codex-api/src/sse/responses.rs,
 * `try_parse_retry_after`: "try again in" then seconds or milliseconds), in seconds.
 */
const codexWait = (message: string): number | undefined => {
  const match = /try again in\s*(\d+(?:\.\d+)?)\s*(s|ms|seconds?)/i.exec(message);
  return match ? Number(match[1]) / (match[2]!.toLowerCase() === "ms" ? 1000 : 1) : undefined;
};
/** Each protocol's message says the wait a rate limit named, as Codex reads it; no other message names one. */
const saysWait = (c: ErrorCase, message: string) => expect(codexWait(message)).toBe(c.wait);

const post = (fetch: typeof globalThis.fetch, path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer t" },
    body: JSON.stringify(body),
  });
const dataOf = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith("data: {"))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, any>);

const noSecret = (text: string) => {
  for (const part of SECRET.split(" at ")) expect(text).not.toContain(part);
};

describe.each([...errorCases, ...limitCases])("$label, inside the stream: $kind", (c) => {
  it("/v1/chat/completions (openai-node): an APIError with OpenAI's code and type", async () => {
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch: fetchOf(c), maxRetries: 0 });
    const failed = await (async () => {
      for await (const _ of await client.chat.completions.create({ model: c.model, messages: user, stream: true }));
    })().catch((caught: unknown) => caught);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    const error = failed as InstanceType<typeof OpenAI.APIError>;
    expect([error.code, error.type]).toEqual([OPENAI_CODE[c.kind], c.limit ?? CHAT_TYPE[c.kind]]);
    expect(error.param).toBe(c.kind === "context-overflow" ? "messages" : null);
    expect(error.message).toMatch(WORDS[c.kind]);
    saysWait(c, error.message);
    noSecret(JSON.stringify(error.error));
  });

  it("/v1/messages (@anthropic-ai/sdk): an APIError with Anthropic's type", async () => {
    const anthropic = new Anthropic({ baseURL: base, apiKey: "t", fetch: fetchOf(c), maxRetries: 0 });
    const failed = await anthropic.messages
      .stream({ model: c.model, max_tokens: 64, messages: user })
      .finalMessage()
      .catch((caught: unknown) => caught);
    expect(failed).toBeInstanceOf(Anthropic.APIError);
    const body = (failed as { error: { error: { type: string; message: string } } }).error;
    expect(body.error.type).toBe(ANTHROPIC_TYPE[c.kind]);
    saysWait(c, body.error.message);
    if (c.kind === "context-overflow") {
      // Claude Code matches "prompt is too long" and reads "N tokens > M maximum" after it.
      expect(body.error.message).toMatch(/^prompt is too long/);
      if (c.counts) expect(body.error.message).toMatch(/prompt is too long[^0-9]*(\d+) tokens > (\d+) maximum/);
      if (c.counts) expect(body.error.message).toContain(`${c.counts[0]} tokens > ${c.counts[1]} maximum`);
    }
    noSecret(JSON.stringify(body));
  });

  it("/v1/responses (openai-node): the error event and response.failed with OpenAI's code", async () => {
    const fetch = fetchOf(c);
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch, maxRetries: 0 });
    const failed = await (async () => {
      for await (const _ of await client.responses.create({ model: c.model, input: "hi", stream: true }));
    })().catch((caught: unknown) => caught);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect((failed as InstanceType<typeof OpenAI.APIError>).code).toBe(RESPONSES_CODE[c.kind]);
    // Codex reads response.failed's error: its code, and a rate limit's wait from its message.
    const text = await (await post(fetch, "/v1/responses", { model: c.model, input: "hi", stream: true })).text();
    const events = dataOf(text);
    const error = events.find((e) => e["type"] === "response.failed")?.["response"]?.error;
    expect(error?.code).toBe(RESPONSES_CODE[c.kind]);
    saysWait(c, error?.message);
    expect(events.find((e) => e["type"] === "error")?.["error"]?.param).toBe(
      c.kind === "context-overflow" ? "input" : null,
    );
    noSecret(text);
  });

  it("/v1/ui (the AI SDK's DefaultChatTransport + readUIMessageStream): one error that says the kind", async () => {
    const transport = new DefaultChatTransport({
      api: `${base}/v1/ui`,
      fetch: fetchOf(c),
      headers: auth,
      body: { model: c.model },
    });
    const chunks = await transport.sendMessages({
      chatId: "chat_1",
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }],
      abortSignal: undefined,
      trigger: "submit-message",
      messageId: undefined,
    });
    const errors: Error[] = [];
    for await (const _ of readUIMessageStream({ stream: chunks, onError: (error) => errors.push(error as Error) }));
    expect(errors.map((error) => error.message)).toEqual([expect.stringMatching(WORDS[c.kind])]);
    saysWait(c, errors[0]!.message);
    noSecret(errors[0]!.message);
  });

  it("/v1/ag-ui (@ag-ui/client's HttpAgent): RUN_ERROR coded by the kind", async () => {
    const agent = new HttpAgent({ url: `${base}/v1/ag-ui`, threadId: "t1", headers: auth, fetch: fetchOf(c) });
    agent.addMessage({ id: "m1", role: "user", content: "hi" });
    const seen: { code?: string | undefined; message: string }[] = [];
    await agent.runAgent(
      { runId: "r1", forwardedProps: { model: c.model } },
      { onRunErrorEvent: ({ event }) => void seen.push({ code: event.code, message: event.message }) },
    );
    expect(seen).toEqual([{ code: AGUI_CODE[c.kind], message: expect.stringMatching(WORDS[c.kind]) }]);
    saysWait(c, seen[0]!.message);
    noSecret(JSON.stringify(seen));
  });

  it("/v1/stream: the error event carries the kind", async () => {
    const [provider, ...rest] = c.model.split("/");
    const text = await (
      await post(fetchOf(c), "/v1/stream", { provider, model: rest.join("/"), messages: user })
    ).text();
    const error = dataOf(text).find((e) => e["type"] === "error");
    expect(error?.["error"]).toEqual({
      code: "provider-error",
      kind: c.kind,
      message: expect.stringMatching(WORDS[c.kind]),
      // A limit of tokens, said in OpenAI's shape and nothing else of the payload.
      ...(c.limit ? { data: { error: { type: c.limit } } } : {}),
    });
    noSecret(text);
  });

  it("not streamed: Chat Completions, Messages and Responses answer with the kind's status and code", async () => {
    const [openai, anthropic] = STATUS[c.kind];
    const chat = await post(fetchOf(c), "/v1/chat/completions", { model: c.model, messages: user });
    expect([chat.status, ((await chat.json()) as any).error.code]).toEqual([openai, OPENAI_CODE[c.kind]]);
    const messages = await post(fetchOf(c), "/v1/messages", { model: c.model, max_tokens: 64, messages: user });
    expect([messages.status, ((await messages.json()) as any).error.type]).toEqual([anthropic, ANTHROPIC_TYPE[c.kind]]);
    const responses = await post(fetchOf(c), "/v1/responses", { model: c.model, input: "hi" });
    expect([responses.status, ((await responses.json()) as any).error.code]).toEqual([openai, RESPONSES_CODE[c.kind]]);
    // openai-node and @anthropic-ai/sdk retry a 429 unless told not to: a quota is never retried.
    const retry = c.kind === "quota-exceeded" ? "false" : null;
    for (const answer of [chat, messages, responses]) expect(answer.headers.get("x-should-retry")).toBe(retry);
    // A rate limit's wait, said in the message, is the headers the SDKs pace their retries by.
    const wait = c.wait === undefined ? [null, null] : [String(Math.ceil(c.wait)), String(c.wait * 1000)];
    for (const answer of [chat, messages, responses])
      expect([answer.headers.get("retry-after"), answer.headers.get("retry-after-ms")]).toEqual(wait);
  });
});
