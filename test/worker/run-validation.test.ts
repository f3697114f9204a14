// POST /v1/run: the checks it shares with /v1/stream (auth, CORS, body limits, fields) and its own
// (`tools` names the Worker's tools, `max_steps`), and the tools it lists in the provider request.
import { describe, expect, it } from "vitest";
import { FakeUpstream, openAIChunks, testEnv, worker } from "./support.ts";

const runRequest = (
  body: unknown,
  init: { host?: string; headers?: Record<string, string>; method?: string } = {},
): Request =>
  new Request(`http://${init.host ?? "localhost:8787"}/v1/run`, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json", ...init.headers },
    ...(init.method === "GET" || init.method === "OPTIONS" ? {} : { body: JSON.stringify(body) }),
  });

const runBody = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  provider: "openai",
  model: "gpt-4o-mini",
  messages: [{ role: "user", content: "What time is it in Tokyo?" }],
  tools: ["current_time", "calculate"],
  ...overrides,
});

async function expectError(response: Response, status: number, error: Record<string, unknown>): Promise<string> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(JSON.parse(text)).toMatchObject({ error });
  return text;
}

describe("POST /v1/run request validation", () => {
  const upstream = new FakeUpstream({ kind: "hang" });
  const call = (request: Request, env = testEnv()) => worker(upstream).call(request, env);

  it("a tool the Worker does not have is 400 naming the entry and listing the tools it has, without echoing the name", async () => {
    const text = await expectError(await call(runRequest(runBody({ tools: ["calculate", "rm_rf"] }))), 400, {
      code: "invalid_request",
      field: "tools[1]",
    });
    expect(text).toContain("current_time, calculate, convert_units");
    expect(text).not.toContain("rm_rf");
  });

  it("tool definitions, a non-array and a repeated name are 400 naming the field", async () => {
    await expectError(await call(runRequest(runBody({ tools: [{ name: "get_weather", parameters: {} }] }))), 400, {
      field: "tools[0]",
    });
    await expectError(await call(runRequest(runBody({ tools: "calculate" }))), 400, { field: "tools" });
    await expectError(await call(runRequest(runBody({ tools: ["calculate", "calculate"] }))), 400, {
      field: "tools[1]",
    });
  });

  it("max_steps must be an integer from 1 to 8", async () => {
    for (const bad of [0, 9, 2.5, "2"])
      await expectError(await call(runRequest(runBody({ max_steps: bad }))), 400, { field: "max_steps" });
  });

  it("the fields of /v1/stream are checked the same way", async () => {
    await expectError(await call(runRequest(runBody({ messages: [] }))), 400, { field: "messages" });
    await expectError(await call(runRequest(runBody({ provider: "acme" }))), 400, { code: "unknown_provider" });
    await expectError(await call(runRequest(runBody({ tool_choice: { name: "convert_units" } }))), 400, {
      field: "tool_choice",
    });
    await expectError(await call(runRequest(runBody({ stream: false }))), 400, { field: "stream" });
    await expectError(await call(runRequest(runBody({ tool_choise: "auto" }))), 400, {
      code: "unknown_field",
      field: "tool_choise",
    });
  });

  it("a body over MAX_BODY_BYTES is 413 and a body that is not JSON is 415", async () => {
    await expectError(
      await call(
        runRequest(runBody({ messages: [{ role: "user", content: "x".repeat(3000) }] })),
        testEnv({ MAX_BODY_BYTES: "1000" }),
      ),
      413,
      { code: "body_too_large" },
    );
    const text = new Request("http://localhost:8787/v1/run", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "{}",
    });
    await expectError(await call(text), 415, { code: "unsupported_media_type" });
  });

  it("GET is 405 with Allow; a preflight from an allowed origin is 204; another origin is 403 before anything runs", async () => {
    const get = await call(runRequest(undefined, { method: "GET" }));
    await expectError(get, 405, { code: "method_not_allowed" });
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
    const env = testEnv({ CORS_ALLOW_ORIGINS: "https://app.example" });
    const preflight = await call(
      runRequest(undefined, {
        method: "OPTIONS",
        headers: { origin: "https://app.example", "access-control-request-method": "POST" },
      }),
      env,
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const evil = await call(runRequest(runBody(), { headers: { origin: "https://evil.example" } }), env);
    await expectError(evil, 403, { code: "origin_not_allowed" });
  });
});

describe("POST /v1/run authentication", () => {
  const call = (request: Request, env = testEnv()) => worker(new FakeUpstream({ kind: "hang" })).call(request, env);

  it("with CLIENT_TOKEN set, a request without the bearer token or with a wrong one is 401", async () => {
    const env = testEnv({ CLIENT_TOKEN: "secret-token" });
    const missing = await call(runRequest(runBody()), env);
    await expectError(missing, 401, { code: "unauthorized" });
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    await expectError(await call(runRequest(runBody(), { headers: { authorization: "Bearer nope" } }), env), 401, {
      code: "unauthorized",
    });
    const ok = await call(
      runRequest(runBody({ messages: [{ role: "user", content: "weather in London" }] }), {
        headers: { authorization: "Bearer secret-token" },
      }),
      env,
    );
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });

  it("without CLIENT_TOKEN, only the replay with OPEN_ACCESS is open: a provider key or no OPEN_ACCESS needs a token", async () => {
    await expectError(await call(runRequest(runBody()), testEnv({ OPENAI_API_KEY: "sk-live" })), 401, {
      code: "unauthorized",
    });
    await expectError(await call(runRequest(runBody()), testEnv({ OPEN_ACCESS: "false" })), 401, {
      code: "unauthorized",
    });
  });
});

describe("POST /v1/run: the provider request of the first step", () => {
  const env = (key: string) => testEnv({ [key]: "test-key", CLIENT_TOKEN: "t" });
  const auth = { headers: { authorization: "Bearer t" } };
  const textOnly = openAIChunks([{ choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: "stop" }] }]);

  it("openai: lists the enabled tools as functions with their JSON Schema, streams, and keeps tool_choice", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: textOnly });
    const response = await worker(upstream).call(
      runRequest(runBody({ tools: ["calculate"], tool_choice: { name: "calculate" } }), auth),
      env("OPENAI_API_KEY"),
    );
    await response.text();
    const body = upstream.requests[0]!.body;
    expect(body["tools"]).toEqual([
      {
        type: "function",
        function: {
          name: "calculate",
          description: expect.stringMatching(/^Evaluate an arithmetic expression/),
          parameters: expect.objectContaining({ required: ["expression"] }),
        },
      },
    ]);
    expect(body["tool_choice"]).toEqual({ type: "function", function: { name: "calculate" } });
    expect(body["stream"]).toBe(true);
    expect(upstream.requests[0]!.headers.get("authorization")).toBe("Bearer test-key");
  });

  it("anthropic and gemini: the same tools in their own shapes; a provider failure on the first step is a JSON error", async () => {
    const anthropic = new FakeUpstream({ kind: "response", status: 500, body: "internal detail" });
    const a = await worker(anthropic).call(
      runRequest(runBody({ provider: "anthropic", model: "claude-sonnet-4-5", tools: ["convert_units"] }), auth),
      env("ANTHROPIC_API_KEY"),
    );
    const text = await expectError(a, 502, { code: "upstream_error", upstreamStatus: 500 });
    expect(text).not.toContain("internal detail");
    expect(anthropic.requests[0]!.body["tools"]).toEqual([
      {
        name: "convert_units",
        description: expect.any(String),
        input_schema: expect.objectContaining({ required: ["value", "from", "to"] }),
      },
    ]);
    const gemini = new FakeUpstream({ kind: "response", status: 401, body: "bad key" });
    await expectError(
      await worker(gemini).call(
        runRequest(runBody({ provider: "gemini", model: "gemini-2.5-flash", tools: ["current_time"] }), auth),
        env("GEMINI_API_KEY"),
      ),
      502,
      { code: "upstream_auth_failed", message: expect.stringContaining("check the `GEMINI_API_KEY` secret") },
    );
    expect(gemini.requests[0]!.body["tools"]).toEqual([
      {
        functionDeclarations: [
          {
            name: "current_time",
            description: expect.any(String),
            parametersJsonSchema: expect.objectContaining({ required: ["time_zone"] }),
          },
        ],
      },
    ]);
  });
});
