// Every route's refusals reach a listed browser origin with the CORS headers its answers carry, and
// with `x-content-type-options: nosniff`, `cache-control: no-store` and their body's media type
// (else the browser shows an opaque network error instead of the status and message): a 404 of an
// unknown path (whose message says how to fix a base URL) and of `count_tokens` (which Claude Code
// asks first), a 405, a 401, a 413, a 400. `count_tokens` answers its preflight too. An origin
// that is not listed is never given them.
import { describe, expect, it } from "vitest";
import { testEnv, worker } from "./support.ts";

const ORIGIN = "https://app.example";
const env = testEnv({
  CORS_ALLOW_ORIGINS: ORIGIN,
  CLIENT_TOKEN: "t",
  MAX_BODY_BYTES: "64",
  MAX_AGENT_BODY_BYTES: "64",
});
const POSTED = [
  "/v1/stream",
  "/v1/run",
  "/v1/chat/completions",
  "/v1/ui",
  "/v1/ag-ui",
  "/v1/messages",
  "/v1/responses",
];

function call(
  method: string,
  path: string,
  init: { token?: boolean; body?: string; origin?: string; type?: string } = {},
) {
  const headers: Record<string, string> = {
    origin: init.origin ?? ORIGIN,
    "content-type": init.type ?? "application/json",
  };
  if (init.token) Object.assign(headers, { authorization: "Bearer t", "x-api-key": "t" });
  return worker().call(new Request(`http://localhost:8787${path}`, { method, headers, body: init.body ?? null }), env);
}

const CASES: [label: string, method: string, path: string, status: number, init?: Parameters<typeof call>[2]][] = [
  ["an unknown path", "GET", "/v1/nope", 404],
  ["a base URL without /v1", "POST", "/chat/completions", 404],
  ["count_tokens, not served", "POST", "/v1/messages/count_tokens", 404, { token: true, body: "{}" }],
  ["the health check's other methods", "POST", "/healthz", 405],
  ["the page's other methods", "POST", "/", 405],
  ["the UI stream resume's other methods", "POST", "/v1/ui/chat_1/stream", 405],
  ["models without the token", "GET", "/v1/models", 401],
  ["a stored response without the token", "GET", "/v1/responses/resp_1", 401],
  ["a resume's other methods", "POST", "/v1/stream/any-id", 405],
  ...POSTED.flatMap((path): typeof CASES => [
    [`${path}: GET`, "GET", path, 405],
    [`${path}: no token`, "POST", path, 401, { body: "{}" }],
    [
      `${path}: a body over the limit`,
      "POST",
      path,
      413,
      { token: true, body: JSON.stringify({ pad: "x".repeat(100) }) },
    ],
    [`${path}: not JSON`, "POST", path, 400, { token: true, body: "{" }],
    [`${path}: not an object`, "POST", path, 400, { token: true, body: "[]" }],
    [`${path}: not sent as JSON`, "POST", path, 415, { token: true, body: "{}", type: "text/plain" }],
  ]),
  ["models' other methods", "POST", "/v1/models", 405],
  ["input items without the token", "GET", "/v1/responses/resp_1/input_items", 401],
  ["a run's resume without the token", "GET", "/v1/run/any-id", 401],
];

describe("the CORS headers of every route's errors", () => {
  it.each(CASES)("%s: %s %s is a %i a listed origin can read", async (_label, method, path, status, init) => {
    const response = await call(method, path, init);
    expect(response.status).toBe(status);
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(response.headers.get("vary")).toBe("Origin");
    // Never read as another type than it says, never cached; the AI SDK shows a plain-text body as
    // the error's message, every other protocol's error is JSON.
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const type = path.startsWith("/v1/ui") ? /^text\/plain; charset=utf-8$/ : /^application\/json/;
    expect(response.headers.get("content-type")).toMatch(type);
    await response.body?.cancel();
  });

  it("count_tokens keeps Anthropic's error shape, so that Claude Code falls back to its estimate", async () => {
    const response = await call("POST", "/v1/messages/count_tokens", { token: true, body: "{}" });
    expect(await response.json()).toMatchObject({ type: "error", error: { type: "not_found_error" } });
  });

  it("count_tokens answers a listed origin's preflight, as /v1/messages does", async () => {
    const response = await worker().call(
      new Request("http://localhost:8787/v1/messages/count_tokens", {
        method: "OPTIONS",
        headers: {
          origin: ORIGIN,
          "access-control-request-method": "POST",
          "access-control-request-headers": "x-api-key",
        },
      }),
      env,
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
  });

  it("an origin that is not listed gets none, on a 404 as on count_tokens", async () => {
    for (const path of ["/v1/nope", "/v1/messages/count_tokens"]) {
      const response = await call("POST", path, { origin: "https://evil.example", token: true, body: "{}" });
      expect(response.headers.get("access-control-allow-origin"), path).toBeNull();
      await response.body?.cancel();
    }
  });
});
