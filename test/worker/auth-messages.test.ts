// The 401 tells a newcomer what went wrong with the token, in each protocol's own error shape:
// none sent, an `Authorization` that is no bearer token, or a token that is not CLIENT_TOKEN
// (naming the header it came in), and never the token itself. It depends on the request alone:
// a Worker without CLIENT_TOKEN answers as one with another token.
import Anthropic from "@anthropic-ai/sdk";
import { AzureOpenAI } from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv, worker } from "./support.ts";

const SENT = "wr0ng-t0ken-4417";
const messages = [{ role: "user", content: "hi" }];
const ENDPOINTS = {
  "/v1/stream": { provider: "openai", model: "gpt-4o", messages },
  "/v1/chat/completions": { model: "openai/gpt-4o", messages },
  "/v1/messages": { model: "openai/gpt-4o", max_tokens: 64, messages },
  "/v1/responses": { model: "openai/gpt-4o", input: "hi" },
} as const;

/** The message of a 401 in the endpoint's own shape (Anthropic's for Messages, OpenAI's, the Worker's). */
async function refusal(
  path: keyof typeof ENDPOINTS,
  headers: Record<string, string>,
  env = testEnv({ CLIENT_TOKEN: "s3cret-token", OPENAI_API_KEY: "sk-live" }),
) {
  const upstream = new FakeUpstream({ kind: "hang" });
  const response = await worker(upstream).call(
    new Request(`http://localhost:8787${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(ENDPOINTS[path]),
    }),
    env,
  );
  expect(response.status).toBe(401);
  expect(upstream.requests).toHaveLength(0);
  const text = await response.text();
  expect(text).not.toContain(SENT);
  const body = JSON.parse(text) as { type?: string; error: { type?: string; code?: string; message: string } };
  if (path === "/v1/messages") expect([body.type, body.error.type]).toEqual(["error", "authentication_error"]);
  else expect(body.error.code).toBe("unauthorized");
  return body.error.message;
}

describe("the 401 says what was wrong with the token", () => {
  for (const path of Object.keys(ENDPOINTS) as (keyof typeof ENDPOINTS)[]) {
    it(`${path}: none sent, not a bearer token, or not CLIENT_TOKEN (and in which header), never echoing it`, async () => {
      expect(await refusal(path, {})).toMatch(
        /^No client token was sent\. Send the client token as `Authorization: Bearer <token>`, `x-api-key: <token>` or `api-key: <token>`\./,
      );
      expect(await refusal(path, { authorization: SENT })).toMatch(
        /^The `Authorization` header is not `Bearer <token>`\./,
      );
      expect(await refusal(path, { authorization: `Bearer ${SENT}` })).toBe(
        "The client token sent in `Authorization` is not this Worker's `CLIENT_TOKEN`.",
      );
      expect(await refusal(path, { "x-api-key": SENT })).toBe(
        "The client token sent in `x-api-key` is not this Worker's `CLIENT_TOKEN`.",
      );
      expect(await refusal(path, { "api-key": SENT })).toBe(
        "The client token sent in `api-key` is not this Worker's `CLIENT_TOKEN`.",
      );
    });
  }

  it("a Worker without CLIENT_TOKEN answers a token as one with another token: it does not advertise the setup", async () => {
    const unconfigured = testEnv({ OPEN_ACCESS: "false" });
    for (const headers of [{}, { authorization: `Bearer ${SENT}` }, { "x-api-key": SENT }, { "api-key": SENT }])
      expect(await refusal("/v1/stream", headers, unconfigured)).toBe(await refusal("/v1/stream", headers));
  });
});

describe("a request with both `Authorization` and `x-api-key`", () => {
  const env = testEnv({ CLIENT_TOKEN: "s3cret-token" });
  const status = async (path: keyof typeof ENDPOINTS, headers: Record<string, string>) => {
    const response = await worker().call(
      new Request(`http://localhost:8787${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(ENDPOINTS[path]),
      }),
      env,
    );
    await response.body?.cancel();
    return response.status;
  };

  for (const path of Object.keys(ENDPOINTS) as (keyof typeof ENDPOINTS)[]) {
    it(`${path}: either one being CLIENT_TOKEN lets it in; neither, a 401 naming both`, async () => {
      expect(await status(path, { authorization: "Bearer s3cret-token", "x-api-key": SENT })).toBe(200);
      expect(await status(path, { authorization: `Bearer ${SENT}`, "x-api-key": "s3cret-token" })).toBe(200);
      expect(await refusal(path, { authorization: `Bearer ${SENT}`, "x-api-key": `${SENT}-2` })).toBe(
        "Neither client token sent, in `Authorization` nor in `x-api-key`, is this Worker's `CLIENT_TOKEN`.",
      );
      // Azure OpenAI's clients send the key as `api-key`.
      expect(await status(path, { "api-key": "s3cret-token" })).toBe(200);
      expect(await status(path, { authorization: `Bearer ${SENT}`, "api-key": "s3cret-token" })).toBe(200);
      expect(await refusal(path, { "x-api-key": SENT, "api-key": `${SENT}-2` })).toBe(
        "Neither client token sent, in `x-api-key` nor in `api-key`, is this Worker's `CLIENT_TOKEN`.",
      );
      expect(await refusal(path, { authorization: `Bearer ${SENT}`, "x-api-key": SENT, "api-key": SENT })).toBe(
        "None of the client tokens sent, in `Authorization`, `x-api-key` and `api-key`, is this Worker's `CLIENT_TOKEN`.",
      );
    });
  }

  it("headers as some @anthropic-ai/sdk 0.x releases sent them, with ANTHROPIC_AUTH_TOKEN set: the key in x-api-key, another gateway's token as bearer", async () => {
    // Those versions sent `x-api-key: <apiKey>` and `Authorization: Bearer <authToken>` together.
    const client = new Anthropic({
      baseURL: "http://localhost:8787",
      authToken: "token-of-another-gateway",
      defaultHeaders: { "x-api-key": "s3cret-token" },
      fetch: workerFetch({ env }),
      maxRetries: 0,
    });
    const message = await client.messages.create({
      model: "anthropic/scripted-model",
      max_tokens: 64,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(message.type).toBe("message");
  });
});

describe("openai-node's AzureOpenAI, which sends its key as `api-key`", () => {
  const env = testEnv({ CLIENT_TOKEN: "s3cret-token" });
  const azure = (apiKey: string) =>
    new AzureOpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey,
      apiVersion: "2025-04-01-preview",
      fetch: workerFetch({ env }),
      maxRetries: 0,
    });

  it("is let in with the client token on /v1/responses and /v1/models", async () => {
    const response = await azure("s3cret-token").responses.create({ model: "openai/scripted-model", input: "hi" });
    expect(response.status).toBe("completed");
    expect((await azure("s3cret-token").models.list()).data.length).toBeGreaterThan(0);
  });

  it("with another key, a 401 (AuthenticationError) that names the header and never echoes the key", async () => {
    const failure = await azure(SENT)
      .responses.create({ model: "openai/scripted-model", input: "hi" })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 401, code: "unauthorized" });
    expect((failure as Error).message).toContain("`api-key`");
    expect(JSON.stringify(failure)).not.toContain(SENT);
  });
});
