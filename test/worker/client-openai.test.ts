// openai-node against POST /v1/chat/completions, in workerd, its `fetch` option pointed at the
// Worker's handler: for every recording the Worker replays, `chat.completions.stream(...)
// .finalChatCompletion()`, `create({stream: true})` and `create()` give the calls of `/v1/stream`
// for the same request (ids, names, arguments). Errors before the stream are OpenAI's shape, so
// openai-node raises its own error classes; a provider error inside the stream is an APIError;
// a client that goes away cancels the provider request.
import OpenAI, { APIError, AuthenticationError, BadRequestError, RateLimitError } from "openai";
import { describe, expect, it } from "vitest";
import { post, referenceCalls, replays, streamCalls, TOOL, workerFetch } from "./client-support.ts";
import { callIdOf } from "../../worker/protocols/thought-signatures.ts";
import {
  eventually,
  FakeUpstream,
  liveOpenAI,
  openAIChunks,
  testEnv,
  weatherCall,
  chatChunk,
  worker,
} from "./support.ts";

const tools = [{ type: "function" as const, function: TOOL }];
const client = (options: { apiKey?: string; fetch?: typeof fetch } = {}) =>
  new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: options.apiKey ?? "anything-on-localhost",
    fetch: options.fetch ?? workerFetch(),
    maxRetries: 0,
  });
/** The `error` member of an OpenAI error body. */
const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { message: string; type: string; param: string | null; code: string } }).error;
const callsOf = (message: { tool_calls?: unknown[] | undefined | null }) =>
  ((message.tool_calls ?? []) as { id: string; function: { name: string; arguments: string } }[]).map((call) => ({
    id: call.id,
    name: call.function.name,
    arguments: call.function.arguments,
  }));

describe("openai-node against POST /v1/chat/completions, every recording of every provider the Worker serves", () => {
  for (const { provider, recording, prompt, tools: declared } of replays) {
    it(`${provider} (${recording.name}): stream().finalChatCompletion(), create({stream: true}) and create() give the calls of /v1/stream`, async () => {
      const reference = await streamCalls(provider, prompt, declared);
      expect(reference.recording).toBe(recording.name);
      const expected = referenceCalls(reference.finish);
      const request = {
        model: `${provider}/test-model`,
        messages: [{ role: "user" as const, content: prompt }],
        tools: declared.map((tool) => ({ type: "function" as const, function: tool })),
      };

      const final = await client()
        .chat.completions.stream({ ...request, stream_options: { include_usage: true } })
        .finalChatCompletion();
      expect(final.model).toBe(`${provider}/test-model`);
      const calls = callsOf(final.choices[0]!.message);
      expect(calls.map((call) => [call.name, call.arguments])).toEqual(
        expected.map((call) => [call.name, call.rawArguments]),
      );
      // An Interactions call's id carries its signature after the provider's id (thought-signatures.ts).
      calls.forEach((call, i) => expect(callIdOf(call.id, provider)).toBe(expected[i]!.id ?? call.id));
      // A provider without call ids (Gemini) gets generated ones, unique in the response.
      expect(new Set(calls.map((call) => call.id)).size).toBe(calls.length);
      for (const call of calls) expect(call.id).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(final.choices[0]!.finish_reason).toBe(expected.length > 0 ? "tool_calls" : "stop");
      expect(final.choices[0]!.message.content ?? "").toBe(reference.finish.text);
      if (reference.finish.usage) expect(final.usage?.prompt_tokens).toBe(reference.finish.usage.inputTokens ?? 0);

      // create({stream: true}), accumulated by tool_calls[].index as the API reference shows.
      const { data: chunks, response } = await client()
        .chat.completions.create({ ...request, stream: true })
        .withResponse();
      expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(response.headers.get("x-replay-recording")).toBe(recording.name);
      const byIndex: { id: string; name: string; arguments: string }[] = [];
      for await (const chunk of chunks) {
        for (const part of chunk.choices[0]?.delta.tool_calls ?? []) {
          const call = (byIndex[part.index] ??= { id: "", name: "", arguments: "" });
          call.id ||= part.id ?? "";
          call.name += part.function?.name ?? "";
          call.arguments += part.function?.arguments ?? "";
        }
      }
      expect(byIndex.map((call) => [call.name, call.arguments])).toEqual(
        expected.map((call) => [call.name, call.rawArguments]),
      );

      // create() without stream: one chat.completion object built from the same events.
      const completion = await client().chat.completions.create(request);
      expect(completion.object).toBe("chat.completion");
      const whole = callsOf(completion.choices[0]!.message);
      expect(whole.map((call) => [call.name, call.arguments])).toEqual(
        expected.map((call) => [call.name, call.rawArguments]),
      );
      whole.forEach((call, i) => expect(callIdOf(call.id, provider)).toBe(expected[i]!.id ?? call.id));
      expect(completion.choices[0]!.finish_reason).toBe(final.choices[0]!.finish_reason);
    });
  }

  it("with CLIENT_TOKEN set, the token is the SDK's apiKey: the right one streams, a wrong one is AuthenticationError", async () => {
    const env = testEnv({ CLIENT_TOKEN: "client-secret" });
    const request = {
      model: "openai/gpt-4o-mini",
      messages: [{ role: "user" as const, content: "Replay chat-tool-call-gpt-4o-mini-usage: the capital of the UK?" }],
      tools,
    };
    const completion = await client({ apiKey: "client-secret", fetch: workerFetch({ env }) }).chat.completions.create(
      request,
    );
    expect(callsOf(completion.choices[0]!.message).map((call) => call.name)).toEqual(["get_capital"]);
    const thrown = await client({ apiKey: "wrong", fetch: workerFetch({ env }) })
      .chat.completions.create(request)
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(AuthenticationError);
    expect(thrown).toMatchObject({ status: 401, type: "invalid_request_error", code: "unauthorized" });
  });
});

describe("POST /v1/chat/completions: errors before the stream in OpenAI's shape", () => {
  const send = (body: unknown, init: Parameters<typeof post>[2] = {}, env = testEnv()) =>
    worker().call(post("/v1/chat/completions", body, init), env);
  const valid = { model: "openai/gpt-4o-mini", messages: [{ role: "user" as const, content: "hi" }] };
  const bad = async (request: Promise<unknown>) => (await request.catch((error: unknown) => error)) as BadRequestError;

  it("an empty body (a POST without one) is a 400 invalid_json that says it is empty", async () => {
    for (const raw of ["", " \r\n\t"]) {
      const response = await send(undefined, { raw });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: {
          message: "The request body is empty: send the request as a JSON object.",
          type: "invalid_request_error",
          param: null,
          code: "invalid_json",
        },
      });
    }
  });

  it("a body that is not JSON is 400 invalid_request_error with code invalid_json", async () => {
    const response = await send(undefined, { raw: "{not json" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: "The request body is not valid JSON.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_json",
      },
    });
  });

  it("an unknown provider, a malformed message, content other than text and an unknown parameter are BadRequestErrors naming the param", async () => {
    const sdk = client();
    const unknown = await bad(sdk.chat.completions.create({ ...valid, model: "mistral/large" } as never));
    expect(unknown).toBeInstanceOf(BadRequestError);
    expect(unknown).toMatchObject({ status: 400, code: "unknown_provider", param: "model" });
    expect(unknown.message).toContain("openai, openai-responses, anthropic, gemini");
    expect(unknown.message).not.toContain("mistral");
    // A name alone is OpenAI's offline (any name is served) or with its key; with other keys only, a 400.
    expect((await sdk.chat.completions.create({ ...valid, model: "gpt-4o" })).model).toBe("gpt-4o");
    const keyed = client({
      apiKey: "t",
      fetch: workerFetch({ env: testEnv({ CLIENT_TOKEN: "t", GEMINI_API_KEY: "g" }) }),
    });
    expect(await bad(keyed.chat.completions.create({ ...valid, model: "gpt-4o" } as never))).toMatchObject({
      code: "unknown_provider",
      param: "model",
    });
    expect(
      await bad(sdk.chat.completions.create({ ...valid, messages: [{ role: "robot", content: "x" }] } as never)),
    ).toMatchObject({ code: "invalid_request", param: "messages[0].role" });
    expect(
      await bad(
        sdk.chat.completions.create({
          ...valid,
          messages: [{ role: "user", content: [{ type: "video_url", video_url: { url: "https://x.test/a.mp4" } }] }],
        } as never),
      ),
    ).toMatchObject({
      param: "messages[0].content[0].type",
    });
    expect(
      await bad(sdk.chat.completions.create({ ...valid, messages: [{ role: "tool", content: "r" }] } as never)),
    ).toMatchObject({ param: "messages[0].tool_call_id" });
    expect(await bad(sdk.chat.completions.create({ ...valid, messages: [] }))).toMatchObject({ param: "messages" });
    expect(await bad(sdk.chat.completions.create({ ...valid, frobnicate: true } as never))).toMatchObject({
      code: "unknown_field",
      param: "frobnicate",
    });
    expect(await bad(sdk.chat.completions.create({ ...valid, n: 2 }))).toMatchObject({
      code: "unknown_field",
      param: "n",
    });
    expect(await bad(sdk.chat.completions.create({ ...valid, stream_options: { include_usage: true } }))).toMatchObject(
      { param: "stream_options" },
    );
    expect(
      await bad(
        sdk.chat.completions.create({ ...valid, tools: [{ type: "function", function: { name: "bad name!" } }] }),
      ),
    ).toMatchObject({ param: "tools[0].function.name" });
    expect(await bad(sdk.chat.completions.create({ ...valid, temperature: 7 }))).toMatchObject({
      param: "temperature",
    });
  });

  it("neutral values of parameters it does not implement, and the ones it ignores, are accepted", async () => {
    const completion = await client().chat.completions.create({
      ...(valid as { model: string; messages: [{ role: "user"; content: string }] }),
      n: 1,
      top_p: 1,
      presence_penalty: 0,
      user: "u-1",
      seed: 7,
      parallel_tool_calls: true,
      store: false,
      max_tokens: null,
    });
    expect(completion.object).toBe("chat.completion");
  });

  it("GET is 405 with Allow, a body over MAX_BODY_BYTES 413, a text body 415, all in OpenAI's shape", async () => {
    const get = await worker().call(new Request("http://localhost:8787/v1/chat/completions"), testEnv());
    expect([get.status, get.headers.get("allow"), (await errorOf(get)).type]).toEqual([
      405,
      "POST, OPTIONS",
      "invalid_request_error",
    ]);
    const large = await send(
      valid,
      { raw: JSON.stringify({ ...valid, messages: [{ role: "user", content: "x".repeat(600) }] }) },
      testEnv({ MAX_BODY_BYTES: "256" }),
    );
    expect([large.status, (await errorOf(large)).code]).toEqual([413, "body_too_large"]);
    const text = await send(valid, { headers: { "content-type": "text/plain" } });
    expect([text.status, (await errorOf(text)).code]).toEqual([415, "unsupported_media_type"]);
  });

  it("CORS: a preflight from an allowed origin may send openai-node's own headers; another origin is 403 in OpenAI's shape", async () => {
    const env = testEnv({ CORS_ALLOW_ORIGINS: "https://app.example" });
    const preflight = await worker().call(
      new Request("http://localhost:8787/v1/chat/completions", {
        method: "OPTIONS",
        headers: {
          origin: "https://app.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization,content-type,x-stainless-os,x-stainless-retry-count",
        },
      }),
      env,
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(preflight.headers.get("access-control-allow-headers")).toBe(
      "authorization, content-type, last-event-id, x-stainless-os, x-stainless-retry-count",
    );
    const denied = await send(valid, { headers: { origin: "https://evil.example" } }, env);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({
      error: { type: "invalid_request_error", code: "origin_not_allowed", param: null },
    });
  });

  it("provider failures: 401 is 502 server_error without the provider's text, 429 is RateLimitError with Retry-After", async () => {
    const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });
    const auth = new FakeUpstream({
      kind: "response",
      status: 401,
      body: '{"error":{"message":"Incorrect API key provided: sk-SECRET"}}',
    });
    const failed = await bad(
      client({ apiKey: "t", fetch: workerFetch({ env, upstream: auth }) }).chat.completions.create(valid as never),
    );
    expect(failed).toBeInstanceOf(APIError);
    expect(failed).toMatchObject({ status: 502, type: "server_error", code: "upstream_auth_failed" });
    expect(failed.message).not.toContain("SECRET");
    const limited = new FakeUpstream({ kind: "response", status: 429, body: "", headers: { "retry-after": "17" } });
    const rate = await bad(
      client({ apiKey: "t", fetch: workerFetch({ env, upstream: limited }) }).chat.completions.create(valid as never),
    );
    expect(rate).toBeInstanceOf(RateLimitError);
    expect(rate.headers?.get("retry-after")).toBe("17");
  });

  it("a provider error inside the stream is an APIError from the stream, and a 502 server_error without stream", async () => {
    const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });
    const chunks = [
      `data: ${JSON.stringify(chatChunk({ content: "Hel" }))}\n\n`,
      'data: {"error":{"message":"The server had an error","type":"server_error"}}\n\n',
    ];
    const streamed = client({
      apiKey: "t",
      fetch: workerFetch({ env, upstream: new FakeUpstream({ kind: "sse", chunks }) }),
    });
    const thrown = await streamed.chat.completions
      .stream(valid as never)
      .finalChatCompletion()
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(APIError);
    expect(thrown).toMatchObject({ type: "server_error", code: "provider-error" });
    const whole = await bad(
      client({
        apiKey: "t",
        fetch: workerFetch({ env, upstream: new FakeUpstream({ kind: "sse", chunks }) }),
      }).chat.completions.create(valid as never),
    );
    expect(whole).toMatchObject({ status: 502, type: "server_error", code: "provider-error" });
  });
});

describe("POST /v1/chat/completions: a client that goes away cancels the provider request", () => {
  const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });
  const headers = { authorization: "Bearer t" };
  const stalled = () =>
    new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([weatherCall(0, "call_1", '{"city":'), weatherCall(0, "call_1", '"Par')]).slice(0, 2),
      then: "stall",
    });

  it("streaming: cancelling the answer's body cancels the upstream body and aborts its request", async () => {
    const upstream = stalled();
    const response = await worker(upstream).call(
      post(
        "/v1/chat/completions",
        { model: "openai/gpt-4o-mini", stream: true, messages: [{ role: "user", content: "hi" }] },
        { headers },
      ),
      env,
    );
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"tool_calls"');
    await reader.cancel("client went away");
    expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
    expect(upstream.requests[0]?.signal.aborted).toBe(true);
  });

  it("without stream: the request's signal aborting (the client's disconnect) aborts the upstream request", async () => {
    const upstream = stalled();
    const client = new AbortController();
    const request = new Request(
      post(
        "/v1/chat/completions",
        { model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "hi" }] },
        { headers },
      ),
      { signal: client.signal },
    );
    const arrived = upstream.nextRequest();
    const pending = worker(upstream).call(request, env);
    await arrived;
    client.abort();
    const response = await pending;
    expect(upstream.requests[0]?.signal.aborted).toBe(true);
    expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
    expect([response.status, (await errorOf(response)).code]).toEqual([502, "cancelled"]);
  });
});
