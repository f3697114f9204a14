// A model written `<provider>/<model>` whose provider is none of the Worker's (`nope/x`) is a 400
// unknown_provider naming the field, in each protocol's own error shape, on every endpoint, offline
// or with the keys of the protocol's own provider, and no upstream is asked. On /v1/messages and
// /v1/responses such a name went to Anthropic or OpenAI Responses as a bare model name ("nope/x"),
// as a name without a provider does there (Claude Code's own names), and offline the scripted model
// answered it. The real clients read the errors: openai-node and @anthropic-ai/sdk.
import Anthropic, { BadRequestError } from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { post, workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv, worker } from "./support.ts";

const MODEL = "nope/x";
const ENVS: [string, Env][] = [
  ["offline", testEnv()],
  ["with the providers' keys", testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "sk", ANTHROPIC_API_KEY: "sk-ant" })],
];
/** An upstream that would answer, so that a request sent to it shows (rather than hanging the test). */
const upstream = () => new FakeUpstream({ kind: "response", status: 500, body: "{}" });
const options = (env: Env, fake: FakeUpstream) => ({
  apiKey: "t",
  maxRetries: 0,
  fetch: workerFetch({ env, upstream: fake }),
});
const user = [{ role: "user" as const, content: "Hi" }];

describe(`model ${MODEL}: a 400 unknown_provider naming it, nothing sent`, () => {
  for (const [label, env] of ENVS) {
    it(`${label}: /v1/messages (@anthropic-ai/sdk): invalid_request_error naming model`, async () => {
      const fake = upstream();
      const sdk = new Anthropic({ baseURL: "http://localhost:8787", ...options(env, fake) });
      const error = await sdk.messages
        .create({ model: MODEL, max_tokens: 64, messages: user })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).error).toMatchObject({
        type: "error",
        error: { type: "invalid_request_error", details: { error_code: "unknown_provider" } },
      });
      expect((error as BadRequestError).message).toContain("`model` names no provider");
      expect(fake.requests).toEqual([]);
    });

    it(`${label}: /v1/responses and /v1/chat/completions (openai-node): param model, code unknown_provider`, async () => {
      const fake = upstream();
      const sdk = new OpenAI({ baseURL: "http://localhost:8787/v1", ...options(env, fake) });
      const expected = { status: 400, type: "invalid_request_error", param: "model", code: "unknown_provider" };
      await expect(sdk.responses.create({ model: MODEL, input: "Hi" })).rejects.toMatchObject(expected);
      await expect(sdk.responses.stream({ model: MODEL, input: "Hi" }).finalResponse()).rejects.toMatchObject(expected);
      await expect(sdk.chat.completions.create({ model: MODEL, messages: user })).rejects.toMatchObject(expected);
      expect(fake.requests).toEqual([]);
    });

    it(`${label}: /v1/stream, /v1/run, /v1/ui and /v1/ag-ui, each in its own shape`, async () => {
      const fake = upstream();
      const send = (path: string, body: unknown) =>
        worker(fake).call(post(path, body, { headers: { authorization: "Bearer t" } }), env);
      for (const path of ["/v1/stream", "/v1/run"]) {
        const response = await send(path, { provider: "nope", model: "x", messages: user });
        expect([response.status, await response.json()]).toEqual([
          400,
          { error: expect.objectContaining({ code: "unknown_provider", field: "provider" }) },
        ]);
      }
      const ui = await send("/v1/ui", {
        id: "c1",
        trigger: "submit-message",
        model: MODEL,
        messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] }],
      });
      expect([ui.status, ui.headers.get("x-error-code"), await ui.text()]).toEqual([
        400,
        "unknown_provider",
        expect.stringContaining("`model` names no provider"),
      ]);
      const agUi = await send("/v1/ag-ui", {
        threadId: "t1",
        runId: "r1",
        state: {},
        context: [],
        tools: [],
        messages: [{ id: "m1", role: "user", content: "Hi" }],
        forwardedProps: { model: MODEL },
      });
      expect([agUi.status, await agUi.json()]).toEqual([
        400,
        { type: "RUN_ERROR", code: "unknown_provider", message: expect.stringContaining("`forwardedProps.model`") },
      ]);
      expect(fake.requests).toEqual([]);
    });
  }
});
