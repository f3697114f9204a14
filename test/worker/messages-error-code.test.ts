// The Worker's own error code on /v1/messages: Chat Completions and Responses carry it as
// `error.code`, the UI stream as `x-error-code`, AG-UI as `code`; a Messages error carries it where
// Anthropic puts a machine-readable code, `error.details.error_code` (Anthropic's documented
// `{type: "error", error: {type, message}}` with its `details`), which @anthropic-ai/sdk reads as
// the error's `errorCode` (and `details`), its class still picked by the status.
import Anthropic, { type APIError } from "@anthropic-ai/sdk";
import { describe, expect, it, vi } from "vitest";
import { anthropicClient, OPENAI_ANTHROPIC_ENV, workerFetch } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const request = (overrides: Record<string, unknown> = {}) =>
  ({
    model: "anthropic/claude-sonnet-4-5",
    max_tokens: 64,
    messages: [{ role: "user", content: "hi" }],
    ...overrides,
  }) as Anthropic.MessageCreateParamsNonStreaming;

/** The error @anthropic-ai/sdk raised for `params` through the Worker. */
async function failure(
  params: Anthropic.MessageCreateParamsNonStreaming,
  upstream = new FakeUpstream({ kind: "hang" }),
  env = OPENAI_ANTHROPIC_ENV,
): Promise<APIError> {
  const error = await anthropicClient(upstream, env)
    .messages.create(params)
    .catch((error: unknown) => error);
  expect(error).toBeInstanceOf(Anthropic.APIError);
  return error as APIError;
}

describe("/v1/messages errors carry the Worker's code", () => {
  it("a bad request, a provider that refused the key and a misconfigured Worker, each as its class", async () => {
    const bad = await failure(request({ max_tokens: "lots" }));
    expect(bad).toBeInstanceOf(Anthropic.BadRequestError);
    expect([bad.type, bad.errorCode, bad.details]).toEqual([
      "invalid_request_error",
      "invalid_request",
      { error_code: "invalid_request" },
    ]);
    expect(bad.message).toContain("max_tokens");
    const refused = await failure(request(), new FakeUpstream({ kind: "response", status: 401, body: "{}" }));
    expect(refused).toBeInstanceOf(Anthropic.InternalServerError);
    expect([refused.status, refused.type, refused.errorCode]).toEqual([502, "api_error", "upstream_auth_failed"]);
    vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = await failure(request(), undefined, { ...OPENAI_ANTHROPIC_ENV, MAX_TOOL_CALLS: "many" });
    expect([broken.status, broken.type, broken.errorCode]).toEqual([500, "api_error", "worker_misconfigured"]);
    vi.restoreAllMocks();
  });

  it("a client without the token: AuthenticationError, code unauthorized", async () => {
    const client = new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "wrong",
      maxRetries: 0,
      fetch: workerFetch({ env: OPENAI_ANTHROPIC_ENV }),
    });
    const error = await client.messages.create(request()).catch((error: unknown) => error);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((error as APIError).errorCode).toBe("unauthorized");
  });
});
