import { BODY_READ_MS } from "../../worker/http/read-json-body.ts";
import { describe, expect, it } from "vitest";
import {
  FakeUpstream,
  settled,
  ManualTimers,
  streamRequest,
  testEnv,
  validBody,
  worker,
  type UpstreamAnswer,
} from "./support.ts";

const key = "sk-proj-SECRETKEY0123456789";
const env = testEnv({ OPENAI_API_KEY: key, CLIENT_TOKEN: "t" });
const request = () => streamRequest(validBody(), { headers: { authorization: "Bearer t" } });
// What providers put in error bodies: the key (OpenAI's 401 quotes part of it) and internals.
const leakyBody = JSON.stringify({
  error: { message: `Incorrect API key provided: ${key}. Trace internal-host-17`, type: "invalid_request_error" },
});

async function answer(
  upstreamAnswer: UpstreamAnswer,
): Promise<{ response: Response; text: string; upstream: FakeUpstream }> {
  const upstream = new FakeUpstream(upstreamAnswer);
  const response = await worker(upstream).call(request(), env);
  return { response, text: await response.clone().text(), upstream };
}

/** The fake's bytes answer carries no content type (the case under test). */
function upstreamHadNoType(body: string): boolean {
  return new Response(new TextEncoder().encode(body)).headers.get("content-type") === null;
}

function expectNoLeak(text: string): void {
  expect(text).not.toContain(key);
  expect(text).not.toContain("SECRETKEY");
  expect(text).not.toContain("internal-host");
  expect(text).not.toContain("Incorrect API key");
}

describe("POST /v1/stream provider failures before the stream starts", () => {
  for (const status of [401, 403]) {
    it(`provider ${status} is 502 upstream_auth_failed naming the key's secret, without the key or the provider's body`, async () => {
      const { response, text } = await answer({
        kind: "response",
        status,
        body: leakyBody,
        headers: { "content-type": "application/json" },
      });
      expect(response.status).toBe(502);
      expect(JSON.parse(text)).toEqual({
        error: {
          code: "upstream_auth_failed",
          message: "The provider refused the Worker's API key; check the `OPENAI_API_KEY` secret.",
          upstreamStatus: status,
        },
      });
      expectNoLeak(text);
    });
  }

  it("provider 429 is 429 upstream_rate_limited with its Retry-After passed through", async () => {
    const { response, text } = await answer({
      kind: "response",
      status: 429,
      body: leakyBody,
      headers: { "retry-after": "17" },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("17");
    expect(JSON.parse(text)).toMatchObject({ error: { code: "upstream_rate_limited", upstreamStatus: 429 } });
    expectNoLeak(text);
  });

  it("a Retry-After that is neither seconds nor a date, or a date without the provider's Date, is not passed on", async () => {
    const { response } = await answer({
      kind: "response",
      status: 429,
      body: "",
      headers: { "retry-after": "soon <script>" },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBeNull();
    // A date is a wait only counted from the provider's own clock (its Date): the SDKs sleep what it says.
    const undated = await answer({
      kind: "response",
      status: 429,
      body: "",
      headers: { "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT" },
    });
    expect(undated.response.headers.get("retry-after")).toBeNull();
    const dated = await answer({
      kind: "response",
      status: 429,
      body: "",
      headers: { "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT", date: "Wed, 21 Oct 2026 07:27:30 GMT" },
    });
    expect([dated.response.headers.get("retry-after"), dated.response.headers.get("retry-after-ms")]).toEqual([
      "30",
      "30000",
    ]);
  });

  for (const status of [500, 502, 504]) {
    it(`provider ${status} is 502 upstream_error`, async () => {
      const { response, text } = await answer({ kind: "response", status, body: leakyBody });
      expect(response.status).toBe(502);
      expect(JSON.parse(text)).toMatchObject({ error: { code: "upstream_error", upstreamStatus: status } });
      expectNoLeak(text);
    });
  }

  for (const status of [503, 529]) {
    it(`provider ${status} (overloaded) is 503 upstream_overloaded with its Retry-After passed on, if valid`, async () => {
      const { response, text } = await answer({
        kind: "response",
        status,
        body: leakyBody,
        headers: { "retry-after": "12" },
      });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("12");
      expect(JSON.parse(text)).toMatchObject({ error: { code: "upstream_overloaded", upstreamStatus: status } });
      expectNoLeak(text);
      const bad = await answer({ kind: "response", status, body: "", headers: { "retry-after": "soon <script>" } });
      expect(bad.response.status).toBe(503);
      expect(bad.response.headers.get("retry-after")).toBeNull();
    });
  }

  // The request's own fault is the client's 4xx, which SDKs do not retry (a 502 they retry, up to
  // 10 times in Claude Code, for a rejection that cannot pass).
  for (const [status, expected] of [
    [400, 400],
    [422, 400],
    [404, 404],
    [413, 413],
    [405, 502],
  ] as const) {
    it(`a provider ${status} it does not otherwise tell is ${expected} upstream_rejected with the status only`, async () => {
      const { response, text } = await answer({ kind: "response", status, body: leakyBody });
      expect(response.status).toBe(expected);
      expect(JSON.parse(text)).toEqual({
        error: { code: "upstream_rejected", message: expect.any(String), upstreamStatus: status },
      });
      if (status === 404) expect(JSON.parse(text).error.message).toContain("model");
      // A 4xx it answers with a 502 tells the SDKs not to retry it (their rule retries every 5xx).
      expect(response.headers.get("x-should-retry")).toBe(expected === 502 ? "false" : null);
      expectNoLeak(text);
    });
  }

  // A thinking model's refusal of a history whose tool turn lost its reasoning, in each
  // provider's words (DeepSeek's now and before, on its Anthropic endpoint too, Kimi, Anthropic):
  // the client's to fix, so a 400 of the Worker's own words, not a 502 an agent retries.
  const refusals = [
    "The `reasoning_content` in the thinking mode must be passed back to the API.",
    "Missing `reasoning_content` field in the assistant message at message index 2. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls",
    "The `content[].thinking` in the thinking mode must be passed back to the API.",
    "thinking is enabled but reasoning_content is missing in assistant tool call message at index 2",
    "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block.",
  ];
  for (const message of refusals) {
    it(`a 400 refusing a tool turn without its reasoning is 400 reasoning_required: ${message.slice(0, 40)}...`, async () => {
      const body = JSON.stringify({
        error: {
          message: `${message} (${key})`,
          type: "invalid_request_error",
          param: null,
          code: "invalid_request_error",
        },
      });
      const { response, text } = await answer({ kind: "response", status: 400, body });
      expect(response.status).toBe(400);
      expect(JSON.parse(text)).toEqual({
        error: { code: "reasoning_required", message: expect.stringContaining("reasoning"), upstreamStatus: 400 },
      });
      expectNoLeak(text);
      expect(text).not.toContain("thinking mode");
    });
  }

  it("a provider 404 names the base URL's variable beside the model: a base URL without its /v1 is a 404 for every model", async () => {
    const { text } = await answer({ kind: "response", status: 404, body: leakyBody });
    expect(JSON.parse(text).error.message).toBe(
      "The provider knows no such model (or endpoint): check the model, and `OPENAI_BASE_URL` (unset: the provider's own).",
    );
  });

  it("a 4xx whose body stalls is cut off by IDLE_TIMEOUT_MS: 400 upstream_rejected", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      status: 400,
      chunks: ['{"error": {"message": "The '],
      then: "stall",
    });
    const timers = new ManualTimers();
    const pending = worker(upstream, timers).call(
      request(),
      testEnv({ OPENAI_API_KEY: key, CLIENT_TOKEN: "t", IDLE_TIMEOUT_MS: "30000" }),
    );
    for (let i = 0; i < 100 && upstream.pulled === 0; i++) await settled();
    expect(upstream.pulled).toBe(1); // the error body's first bytes were read; the rest never comes
    timers.fire(timers.handlesOf(30000)[0]!);
    const response = await pending;
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "upstream_rejected", upstreamStatus: 400 } });
  });

  it("a redirect is not followed (key headers would go along) and is 502 upstream_rejected", async () => {
    const { response } = await answer({
      kind: "response",
      status: 307,
      body: "",
      headers: { location: "https://elsewhere.example/" },
    });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { code: "upstream_rejected", upstreamStatus: 307 } });
  });

  it("a 200 that is neither an event stream nor a whole answer (a proxy's HTML page) is 502 upstream_error", async () => {
    const { response, text } = await answer({
      kind: "response",
      status: 200,
      body: `<html><body>${leakyBody}</body></html>`,
      headers: { "content-type": "text/html" },
    });
    expect(response.status).toBe(502);
    expect(JSON.parse(text)).toMatchObject({ error: { code: "upstream_error" } });
    expectNoLeak(text);
  });

  it("a 200 JSON error object (a whole answer's type: a gateway that ignored stream: true) is the provider's error in the stream, none of it leaked", async () => {
    const { response, text } = await answer({
      kind: "response",
      status: 200,
      body: leakyBody,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(200);
    expect(text).toContain('"code":"provider-error"');
    expect(text).toContain('"reason":"provider-error"');
    expectNoLeak(text);
  });

  it("a 200 without a content type is no more an event stream: 502 upstream_error, even with SSE in its body", async () => {
    const sse = 'data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\n';
    const { response, text } = await answer({ kind: "response", status: 200, body: sse, bytes: true });
    expect(upstreamHadNoType(sse)).toBe(true);
    expect(response.status).toBe(502);
    expect(JSON.parse(text)).toMatchObject({ error: { code: "upstream_error", upstreamStatus: 200 } });
  });

  it("a network error is 502 upstream_unreachable naming the base URL's variable, never the URL (it can hold a password)", async () => {
    const { response, text } = await answer({ kind: "network-error" });
    expect(response.status).toBe(502);
    expect(JSON.parse(text)).toMatchObject({
      error: {
        code: "upstream_unreachable",
        message:
          "The provider could not be reached at the Worker's base URL for it: check `OPENAI_BASE_URL` (unset: the provider's own) and that its server is up.",
      },
    });
    const secretUrl = testEnv({
      OPENAI_API_KEY: key,
      CLIENT_TOKEN: "t",
      OPENAI_BASE_URL: "https://u:pw-9917@llm.internal/v1",
    });
    const hidden = await worker(new FakeUpstream({ kind: "network-error" })).call(request(), secretUrl);
    const body = await hidden.text();
    expect(body).toContain("`OPENAI_BASE_URL`");
    expect(body).not.toMatch(/pw-9917|llm\.internal/);
  });

  it("no headers within IDLE_TIMEOUT_MS is 504 upstream_timeout, and the fetch is aborted", async () => {
    const upstream = new FakeUpstream({ kind: "hang" });
    const timers = new ManualTimers();
    const arrived = upstream.nextRequest();
    const pending = worker(upstream, timers).call(
      request(),
      testEnv({ OPENAI_API_KEY: key, CLIENT_TOKEN: "t", IDLE_TIMEOUT_MS: "30000" }),
    );
    await arrived;
    // The wait for the headers is under the response's one timer (its idle timeout, before the
    // deadline of MAX_RESPONSE_MS), no timer of its own; the request body's deadline came first
    // and was cleared once the body was read.
    expect(timers.pending).toBe(1);
    expect(timers.scheduled).toEqual([BODY_READ_MS, 30000]);
    timers.fire(timers.handlesOf(30000)[0]!);
    const response = await pending;
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ error: { code: "upstream_timeout" } });
    expect(upstream.requests[0]?.signal.aborted).toBe(true);
  });
});
