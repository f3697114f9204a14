// A provider's refusal of a conversation too long for the model's context window, in each
// provider's words, reaches each client as its protocol's own overflow error, a 400 the client acts
// on (Claude Code and Codex compact) rather than a provider failure its SDK retries: Messages
// "prompt is too long: N tokens > M maximum" (Claude Code parses the numbers), Chat and Responses
// OpenAI's `context_length_exceeded` with `param`. Only the two numbers come from the provider's body.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { contextOverflowIn } from "../../worker/upstream/context-overflow.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv, validBody } from "./support.ts";

const key = "sk-proj-SECRETKEY0123456789";
const env = testEnv({
  OPENAI_API_KEY: key,
  ANTHROPIC_API_KEY: key,
  OPENAI_BASE_URL: "https://provider.test/v1",
  CLIENT_TOKEN: "t",
});

/** Each provider's overflow, as it words it (the key echoed, as bodies can), with the numbers it gives. */
const overflows = [
  {
    provider: "OpenAI",
    body: {
      error: {
        message: `This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages. (${key})`,
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
    counts: { tokens: 130512, maximum: 128000 },
  },
  {
    provider: "Anthropic",
    body: {
      type: "error",
      error: { type: "invalid_request_error", message: `prompt is too long: 208473 tokens > 200000 maximum ${key}` },
    },
    counts: { tokens: 208473, maximum: 200000 },
  },
  {
    provider: "Gemini",
    body: {
      error: {
        code: 400,
        message: `The input token count (1200000) exceeds the maximum number of tokens allowed (1048576). ${key}`,
        status: "INVALID_ARGUMENT",
      },
    },
    counts: { tokens: 1200000, maximum: 1048576 },
  },
  {
    provider: "vLLM / DeepSeek",
    body: {
      object: "error",
      message: `This model's maximum context length is 65536 tokens. However, you requested 70000 tokens (69000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion. ${key}`,
      type: "BadRequestError",
      code: 400,
    },
    counts: { tokens: 70000, maximum: 65536 },
  },
  {
    provider: "Mistral",
    body: {
      object: "error",
      message: `Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length ${key}`,
      type: "invalid_request_message_error",
    },
    counts: { tokens: 40000, maximum: 32768 },
  },
  {
    provider: "Bedrock",
    body: { message: `Input is too long for requested model. ${key}` },
    counts: undefined,
  },
  {
    provider: "Bedrock (Converse)",
    body: { message: `The model returned the following errors: too many input tokens ${key}` },
    counts: undefined,
  },
  { provider: "Cohere", body: { message: `too many tokens: size limit exceeded ${key}` }, counts: undefined },
  {
    provider: "Ollama",
    body: { error: `the input length exceeds the context length ${key}` },
    counts: undefined,
  },
  {
    provider: "Groq",
    body: {
      error: {
        message: `Please reduce the length of the messages or completion. ${key}`,
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
    counts: undefined,
  },
] as const;

function expectNoLeak(text: string): void {
  expect(text).not.toContain("SECRETKEY");
  expect(text).not.toContain("sk-proj");
}

const fetchOf = (status: number, body: unknown) => {
  const upstream = new FakeUpstream({
    kind: "response",
    status,
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  return { upstream, fetch: workerFetch({ env, upstream }) };
};

describe("the providers' context-window overflows, recognized", () => {
  for (const { provider, body, counts } of overflows)
    it(`${provider}: ${counts ? "with its numbers" : "without numbers"}`, () => {
      const overflow = contextOverflowIn(JSON.stringify(body));
      expect(overflow).toEqual(counts ?? {});
    });

  it("other refusals are no overflow (max_tokens over the output limit, a bad model)", () => {
    expect(
      contextOverflowIn("max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens"),
    ).toBeUndefined();
    expect(
      contextOverflowIn('{"error":{"message":"The model `gpt-9` does not exist","code":"model_not_found"}}'),
    ).toBeUndefined();
  });

  it("numbers that are not an overflow's (the count under the window, absurd ones) are not carried", () => {
    expect(contextOverflowIn("prompt is too long: 100 tokens > 200 maximum")).toEqual({});
    expect(contextOverflowIn("prompt is too long: 99999999999999 tokens > 200 maximum")).toEqual({});
  });
});

describe("a provider's overflow reaches each client as its protocol's overflow error", () => {
  for (const { provider, body, counts } of overflows) {
    it(`${provider} → /v1/messages (@anthropic-ai/sdk): 400 invalid_request_error "prompt is too long"`, async () => {
      const { fetch, upstream } = fetchOf(400, body);
      const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch, maxRetries: 2 });
      const error = await anthropic.messages
        .create({ model: "anthropic/claude-x", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      const failed = error as InstanceType<typeof Anthropic.BadRequestError>;
      expect(failed.status).toBe(400);
      expect(upstream.requests).toHaveLength(1); // a 400 is not retried
      const inner = (failed.error as { error: { type: string; message: string } }).error;
      expect(inner.type).toBe("invalid_request_error");
      expect(inner.message).toContain("prompt is too long");
      // Claude Code's own match, and the numbers it parses from it.
      const match = /^prompt is too long: (\d+) tokens > (\d+) maximum$/.exec(inner.message);
      expect(match && { tokens: Number(match[1]), maximum: Number(match[2]) }).toEqual(counts ?? null);
      expectNoLeak(JSON.stringify(failed.error));
    });

    it(`${provider} → /v1/chat/completions (openai-node): 400 context_length_exceeded, param messages`, async () => {
      const { fetch, upstream } = fetchOf(400, body);
      const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 2 });
      const error = await openai.chat.completions
        .create({ model: "openai/gpt-4o", messages: [{ role: "user", content: "hi" }] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(upstream.requests).toHaveLength(1);
      expect(error).toMatchObject({
        status: 400,
        code: "context_length_exceeded",
        type: "invalid_request_error",
        param: "messages",
      });
      const { message } = (error as { error: { message: string } }).error;
      if (counts)
        expect(message).toContain(
          `maximum context length is ${counts.maximum} tokens. However, your messages resulted in ${counts.tokens} tokens`,
        );
      expectNoLeak(JSON.stringify((error as { error: unknown }).error));
    });
  }

  it("→ /v1/responses (openai-node, Codex's protocol): 400 context_length_exceeded, param input", async () => {
    const { fetch } = fetchOf(400, overflows[0].body);
    const openai = new OpenAI({ baseURL: "http://localhost:8787/v1", apiKey: "t", fetch, maxRetries: 0 });
    const error = await openai.responses
      .create({ model: "openai/gpt-4o", input: "hi", stream: true })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: "context_length_exceeded", param: "input" });
    expect((error as { error: { message: string } }).error.message).toContain("your input resulted in 130512 tokens");
  });

  it("→ /v1/stream, /v1/ui, /v1/ag-ui: 400 context_length_exceeded in their shapes, with the numbers", async () => {
    const { fetch } = fetchOf(400, overflows[1].body);
    const post = (path: string, body: unknown) =>
      fetch(`http://localhost:8787${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        body: JSON.stringify(body),
      });
    const stream = await post("/v1/stream", validBody({ provider: "anthropic", model: "claude-x" }));
    expect(stream.status).toBe(400);
    expect(await stream.json()).toEqual({
      error: {
        code: "context_length_exceeded",
        message: expect.stringContaining("208473 tokens > 200000 maximum"),
        promptTokens: 208473,
        contextWindow: 200000,
        upstreamStatus: 400,
      },
    });
    const ui = await post("/v1/ui", {
      id: "c",
      trigger: "submit-message",
      model: "anthropic/claude-x",
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }],
    });
    expect(ui.status).toBe(400);
    expect(ui.headers.get("x-error-code")).toBe("context_length_exceeded");
    expect(await ui.text()).toContain("too long for the model's context window");
    const agUI = await post("/v1/ag-ui", {
      threadId: "t1",
      runId: "r1",
      state: {},
      context: [],
      tools: [],
      messages: [{ id: "m1", role: "user", content: "hi" }],
      forwardedProps: { model: "anthropic/claude-x" },
    });
    expect(agUI.status).toBe(400);
    expect(await agUI.json()).toMatchObject({ type: "RUN_ERROR", code: "context_length_exceeded" });
  });
});
