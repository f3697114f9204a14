// A model name alone (`gpt-4o`, no provider) on /v1/ui and /v1/ag-ui, as on /v1/chat/completions:
// offline any name is served (the scripted model answers, there is nothing to map); with
// OpenAI's key it is OpenAI's model, sent as given; with other providers' keys only it is a 400
// unknown_provider naming the field, in the protocol's error shape, and nothing is sent.
// A request without `model`, on those and the agent endpoints, is told every form the deployment takes.
// /v1/chat/completions maps a MODEL_ALIASES name first, as its Azure deployment and the agent endpoints do.
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { live, scripted } from "./open-responses-support.ts";
import { FakeUpstream, testEnv, worker } from "./support.ts";

const TOOL = { name: "lookup_order", parameters: { type: "object", properties: { order_id: { type: "string" } } } };
const PROMPT = "Where is my order ORD-1234?";

const endpoints = [
  {
    path: "/v1/ui",
    field: "model",
    body: (model: string) => ({
      id: "chat-1",
      trigger: "submit-message",
      model,
      tools: [TOOL],
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: PROMPT }] }],
    }),
    error: async (response: Response) => ({ code: response.headers.get("x-error-code"), text: await response.text() }),
  },
  {
    path: "/v1/ag-ui",
    field: "forwardedProps.model",
    body: (model: string) => ({
      threadId: "t1",
      runId: "r1",
      state: {},
      context: [],
      tools: [TOOL],
      messages: [{ id: "m1", role: "user", content: PROMPT }],
      forwardedProps: { model },
    }),
    error: async (response: Response) => {
      const body = (await response.json()) as { type: string; code: string; message: string };
      expect(body.type).toBe("RUN_ERROR");
      return { code: body.code, text: body.message };
    },
  },
] as const;

const send = (path: string, body: unknown, env: Env, upstream = new FakeUpstream({ kind: "hang" })) =>
  worker(upstream).call(
    new Request(`http://localhost:8787${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify(body),
    }),
    env,
  );

describe("a model name alone on /v1/ui and /v1/ag-ui, as on /v1/chat/completions", () => {
  for (const endpoint of endpoints) {
    it(`${endpoint.path}: offline, any name is served by the scripted model, which calls the request's tool`, async () => {
      for (const model of ["gpt-4o", "claude-opus-5-5", "my-own-model"]) {
        const response = await send(endpoint.path, endpoint.body(model), testEnv());
        expect(response.status, model).toBe(200);
        expect(response.headers.get("x-replay-recording")).toBe("scripted-model");
        const text = await response.text();
        expect(text).toContain("lookup_order");
        expect(text).toContain("ORD-1234");
      }
    });

    it(`${endpoint.path}: with OpenAI's key, the name is OpenAI's model, sent as given`, async () => {
      const upstream = new FakeUpstream({
        kind: "sse",
        chunks: [
          'data: {"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}\n\n',
          "data: [DONE]\n\n",
        ],
      });
      const env = testEnv({ OPENAI_API_KEY: "sk-test", CLIENT_TOKEN: "t" });
      const response = await send(endpoint.path, endpoint.body("gpt-4o"), env, upstream);
      expect(response.status).toBe(200);
      await response.text();
      expect(upstream.requests.map((request) => [request.url, request.body["model"]])).toEqual([
        ["https://api.openai.com/v1/chat/completions", "gpt-4o"],
      ]);
    });

    it(`${endpoint.path}: with other providers' keys only, a 400 unknown_provider naming ${endpoint.field}`, async () => {
      const upstream = new FakeUpstream({ kind: "hang" });
      const env = testEnv({ GEMINI_API_KEY: "g", CLIENT_TOKEN: "t" });
      const response = await send(endpoint.path, endpoint.body("gpt-4o"), env, upstream);
      expect(response.status).toBe(400);
      const { code, text } = await endpoint.error(response);
      expect(code).toBe("unknown_provider");
      expect(text).toContain(endpoint.field);
      expect(text).toContain("<provider>/<model>");
      expect(upstream.requests).toHaveLength(0);
      // A name written with its provider reaches that provider.
      const gemini = new FakeUpstream({ kind: "response", status: 503, body: "{}" });
      await (await send(endpoint.path, endpoint.body("gemini/gemini-2.5-flash"), env, gemini)).text();
      expect(gemini.requests.map((request) => new URL(request.url).host)).toEqual([
        "generativelanguage.googleapis.com",
      ]);
    });
  }
});

describe("a request without `model` is told what names are taken", () => {
  const routes = {
    "/v1/messages": { max_tokens: 64, messages: [{ role: "user", content: PROMPT }] },
    "/v1/responses": { input: PROMPT },
    "/v1/chat/completions": { messages: [{ role: "user", content: PROMPT }] },
  };
  const said = async (path: string, env: Env) => {
    const response = await send(path, routes[path as keyof typeof routes], env);
    const { error } = (await response.json()) as { error: { message: string } };
    return [response.status, error.message] as const;
  };

  for (const [path, native] of [
    ["/v1/messages", "anthropic"],
    ["/v1/responses", "openai-responses"],
    ["/v1/chat/completions", "openai"],
  ] as const)
    it(`${path}: a name alone where one is taken (offline, or with ${native}'s key), MODEL_ALIASES where it maps names`, async () => {
      for (const env of [
        testEnv(),
        testEnv({ CLIENT_TOKEN: "t", [`${native === "anthropic" ? "ANTHROPIC" : "OPENAI"}_API_KEY`]: "k" }),
      ]) {
        const [status, message] = await said(path, env);
        expect([status, message]).toEqual([400, expect.stringContaining("<provider>/<model>")]);
        expect(message).toContain(`or a model name alone, which ${native} serves`);
      }
      const other = testEnv({ CLIENT_TOKEN: "t", GEMINI_API_KEY: "g" });
      expect((await said(path, other))[1]).not.toContain("alone");
      const [, message] = await said(path, { ...other, MODEL_ALIASES: "claude-*=gemini/m" });
      expect(message).toContain("or a name the MODEL_ALIASES variable maps");
      expect(message).not.toContain("alone");
    });
});

describe("/v1/chat/completions maps a MODEL_ALIASES name, as its Azure deployment and the agent endpoints do", () => {
  const chat = (model: string, env: Env, upstream: FakeUpstream) =>
    send("/v1/chat/completions", { model, messages: [{ role: "user", content: PROMPT }] }, env, upstream);

  it("a mapped name goes where it maps, before a name alone goes to OpenAI; others are as before", async () => {
    const aliases = "fast=anthropic/claude-test,claude-*=anthropic/claude-prefix";
    for (const env of [live("anthropic"), { ...live("openai"), ...live("anthropic") }]) {
      for (const [model, sent] of [
        ["fast", "claude-test"],
        ["claude-sonnet-4-6", "claude-prefix"],
      ]) {
        const upstream = scripted("anthropic", { text: "Shipped." });
        const response = await chat(model!, { ...env, MODEL_ALIASES: aliases }, upstream);
        // Failed before: with Anthropic's key only, a 400 unknown_provider; with OpenAI's too, sent to OpenAI as `fast`.
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ model, choices: [{ message: { content: "Shipped." } }] });
        expect(upstream.requests.map((request) => request.url)).toEqual([expect.stringMatching(/\/v1\/messages$/)]);
        expect(upstream.requests[0]!.body).toMatchObject({ model: sent });
      }
    }
    // A name no pair maps is as before: `<provider>/<model>`, or a name alone OpenAI serves.
    const upstream = scripted("openai", { text: "Shipped." });
    const env = { ...live("openai"), MODEL_ALIASES: aliases };
    expect((await chat("gpt-4o", env, upstream)).status).toBe(200);
    expect(upstream.requests[0]!.body).toMatchObject({ model: "gpt-4o" });
  });
});

describe("/v1/chat/completions: a `*` pair never takes a name that names its provider", () => {
  it("`openai/gpt-4o` goes to OpenAI with `*=anthropic/...` set for the agents; a name alone is still mapped", async () => {
    const env = { ...live("openai"), ...live("anthropic"), MODEL_ALIASES: "*=anthropic/claude-test" };
    const chat = (model: string, upstream: FakeUpstream) =>
      send("/v1/chat/completions", { model, messages: [{ role: "user", content: PROMPT }] }, env, upstream);
    const openai = scripted("openai", { text: "Shipped." });
    // Failed before (96b94bf0): sent to Anthropic as claude-test, the client's own `<provider>/<model>` overridden.
    expect((await chat("openai/gpt-4o", openai)).status).toBe(200);
    expect(openai.requests.map((request) => request.url)).toEqual([expect.stringMatching(/\/chat\/completions$/)]);
    expect(openai.requests[0]!.body).toMatchObject({ model: "gpt-4o" });
    // A name alone, or one whose provider is no provider of the Worker's, is the agents' own: `*` maps it.
    for (const model of ["gpt-4o", "vendor/model"]) {
      const anthropic = scripted("anthropic", { text: "Shipped." });
      expect((await chat(model, anthropic)).status).toBe(200);
      expect(anthropic.requests[0]!.body).toMatchObject({ model: "claude-test" });
    }
  });
});
