import { describe, expect, it } from "vitest";
import { FakeUpstream, streamRequest, testEnv, validBody, worker } from "./support.ts";

async function expectError(response: Response, status: number, error: Record<string, unknown>): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(await response.json()).toMatchObject({ error });
}

describe("POST /v1/stream request validation", () => {
  const upstream = new FakeUpstream({ kind: "hang" });
  const call = (request: Request, env = testEnv()) => worker(upstream).call(request, env);

  it("bad JSON is 400 invalid_json", async () => {
    await expectError(await call(streamRequest(null, { raw: '{"provider": "openai",' })), 400, {
      code: "invalid_json",
    });
  });

  it("a body that is not an object is 400 invalid_request", async () => {
    await expectError(await call(streamRequest([1, 2])), 400, { code: "invalid_request" });
  });

  it("an unknown provider is 400 unknown_provider, listing the known ones without echoing the value", async () => {
    const response = await call(streamRequest(validBody({ provider: "<script>evil</script>" })));
    const body = await response.clone().text();
    await expectError(response, 400, { code: "unknown_provider", field: "provider" });
    expect(body).toContain("openai");
    expect(body).not.toContain("evil");
  });

  it("no provider and a model of Chat Completions' provider/model form: the 400 says provider is a field of its own", async () => {
    const response = await call(streamRequest(validBody({ provider: undefined, model: "openai/gpt-4o-secret-tune" })));
    const body = await response.clone().text();
    await expectError(response, 400, {
      code: "unknown_provider",
      field: "provider",
      message:
        '`provider` is a field of its own here: send `"provider": "openai"` and `model` without its `openai/` prefix (`provider/model` in `model` is Chat Completions\' form).',
    });
    expect(body).not.toContain("secret-tune");
    // No provider and no such prefix: it is required; a prefix that is no provider's is not named.
    for (const model of ["gpt-4o", "acme/gpt-4o", "/gpt-4o"])
      await expectError(await call(streamRequest(validBody({ provider: undefined, model }))), 400, {
        code: "unknown_provider",
        message: expect.stringMatching(/^`provider` is required: one of openai, /),
      });
  });

  it("a missing model and missing or empty messages are 400 naming the field", async () => {
    await expectError(await call(streamRequest(validBody({ model: undefined }))), 400, {
      code: "invalid_request",
      field: "model",
    });
    await expectError(await call(streamRequest(validBody({ model: "../../v1/files" }))), 400, {
      code: "invalid_request",
      field: "model",
    });
    // A `.`, `..` or empty path segment would be normalized out of the provider's URL (Bedrock's
    // /model/{id}/converse-stream, Gemini's /models/{id}): never sent.
    for (const model of [".", "..", "a/./b", "a//b", "/a", "a/", "models/."]) {
      for (const provider of ["bedrock", "gemini", "openai"]) {
        await expectError(await call(streamRequest(validBody({ provider, model }))), 400, {
          code: "invalid_request",
          field: "model",
        });
      }
    }
    await expectError(await call(streamRequest(validBody({ messages: undefined }))), 400, {
      code: "invalid_request",
      field: "messages",
    });
    await expectError(await call(streamRequest(validBody({ messages: [] }))), 400, {
      code: "invalid_request",
      field: "messages",
    });
    // A prompt sent as a string is there, and told the shape it needs rather than that it is missing.
    await expectError(await call(streamRequest(validBody({ messages: "Weather in Paris?" }))), 400, {
      field: "messages",
      message: '`messages` must be a non-empty array, such as `[{"role": "user", "content": "Hi"}]`.',
    });
    await expectError(await call(streamRequest(validBody({ messages: [{ role: "robot", content: "hi" }] }))), 400, {
      code: "invalid_request",
      field: "messages[0].role",
    });
    await expectError(await call(streamRequest(validBody({ messages: [{ role: "user", content: 42 }] }))), 400, {
      code: "invalid_request",
      field: "messages[0].content",
    });
  });

  it("tools, tool_choice, max_tokens and temperature are checked", async () => {
    await expectError(await call(streamRequest(validBody({ tools: [{ name: "has space" }] }))), 400, {
      field: "tools[0].name",
    });
    // The Chat Completions form: the field is named where it is, under `function`.
    const nested = [{ type: "function", function: { name: "has space", parameters: { type: "object" } } }];
    await expectError(await call(streamRequest(validBody({ tools: nested }))), 400, {
      field: "tools[0].function.name",
    });
    const badSchema = [{ type: "function", function: { name: "ok", parameters: "DEEP" } }];
    await expectError(await call(streamRequest(validBody({ tools: badSchema }))), 400, {
      field: "tools[0].function.parameters",
    });
    // Another API's name for the schema is named, never silently dropped.
    const misnamed = [{ name: "get_weather", inputSchema: { type: "object" } }];
    await expectError(await call(streamRequest(validBody({ tools: misnamed }))), 400, {
      field: "tools[0].inputSchema",
    });
    await expectError(await call(streamRequest(validBody({ tools: [{ name: "a" }, { name: "a" }] }))), 400, {
      field: "tools",
    });
    await expectError(await call(streamRequest(validBody({ tool_choice: { name: "missing" } }))), 400, {
      field: "tool_choice",
    });
    await expectError(await call(streamRequest(validBody({ tools: [], tool_choice: "required" }))), 400, {
      field: "tool_choice",
    });
    await expectError(await call(streamRequest(validBody({ max_tokens: 0 }))), 400, { field: "max_tokens" });
    await expectError(await call(streamRequest(validBody({ temperature: "hot" }))), 400, { field: "temperature" });
  });

  it("an unknown field is 400 unknown_field, so a typo is not silently ignored", async () => {
    await expectError(await call(streamRequest(validBody({ tool_choise: "auto" }))), 400, {
      code: "unknown_field",
      field: "tool_choise",
    });
  });

  it("a body over MAX_BODY_BYTES is 413 body_too_large, with or without Content-Length", async () => {
    const env = testEnv({ MAX_BODY_BYTES: "1000" });
    const big = validBody({ messages: [{ role: "user", content: "x".repeat(2000) }] });
    await expectError(await call(streamRequest(big), env), 413, { code: "body_too_large" });
    const chunked = new Request("http://localhost/v1/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Blob([JSON.stringify(big)]).stream(),
    });
    expect(chunked.headers.get("content-length")).toBeNull();
    await expectError(await call(chunked, env), 413, { code: "body_too_large" });
  });

  it("a body that is not declared as JSON is 415", async () => {
    await expectError(await call(streamRequest(validBody(), { headers: { "content-type": "text/plain" } })), 415, {
      code: "unsupported_media_type",
    });
  });

  it("other methods are 405 with Allow", async () => {
    const response = await call(new Request("http://localhost/v1/stream"));
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
    await expectError(response, 405, { code: "method_not_allowed" });
  });

  it("a bad setting is 500 worker_misconfigured naming the variable", async () => {
    await expectError(await call(streamRequest(validBody()), testEnv({ IDLE_TIMEOUT_MS: "soon" })), 500, {
      code: "worker_misconfigured",
      message: "This Worker is misconfigured (IDLE_TIMEOUT_MS): its operator's log says what to fix.",
    });
  });

  it("no invalid request ever reached the provider", () => {
    expect(upstream.requests).toHaveLength(0);
  });
});
