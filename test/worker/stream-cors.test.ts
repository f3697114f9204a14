import { afterEach, describe, expect, it, vi } from "vitest";
import { ResponseWatch } from "../../worker/upstream/response-watch.ts";
import { FakeUpstream, streamRequest, testEnv, validBody, worker } from "./support.ts";

const sse = ['data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\n', "data: [DONE]\n\n"];
const env = testEnv({ CORS_ALLOW_ORIGINS: "https://app.example, https://admin.example" });

function preflight(origin: string): Request {
  return new Request("http://localhost:8787/v1/stream", {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type",
    },
  });
}

describe("POST /v1/stream CORS allow-list", () => {
  it("a preflight from a listed origin is 204 and allows POST with Authorization and Content-Type", async () => {
    const response = await worker().call(preflight("https://admin.example"), env);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://admin.example");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    expect(response.headers.get("access-control-allow-headers")).toContain("authorization");
    expect(response.headers.get("access-control-allow-headers")).toContain("content-type");
    expect(response.headers.get("vary")).toBe("Origin");
  });

  it("a preflight or a request from an unlisted origin is 403 and never reaches the provider", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
    const denied = await worker(upstream).call(preflight("https://evil.example"), env);
    expect(denied.status).toBe(403);
    expect(denied.headers.get("access-control-allow-origin")).toBeNull();
    expect(await denied.json()).toMatchObject({ error: { code: "origin_not_allowed" } });
    const direct = await worker(upstream).call(
      streamRequest(validBody(), { headers: { origin: "https://evil.example" } }),
      env,
    );
    expect(direct.status).toBe(403);
    expect(upstream.requests).toHaveLength(0);
  });

  it("a listed origin gets the stream with Access-Control-Allow-Origin, and its errors are readable too", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
    const ok = await worker(upstream).call(
      streamRequest(validBody(), { headers: { origin: "https://app.example" } }),
      env,
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://app.example");
    await ok.body?.cancel();
    const bad = await worker(upstream).call(
      streamRequest(validBody({ model: "" }), { headers: { origin: "https://app.example" } }),
      env,
    );
    expect(bad.status).toBe(400);
    expect(bad.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(bad.headers.get("access-control-expose-headers")).toContain("retry-after");
    // A browser's openai-node reads the wait and whether to retry at all.
    expect(bad.headers.get("access-control-expose-headers")).toContain("retry-after-ms");
    expect(bad.headers.get("access-control-expose-headers")).toContain("x-should-retry");
  });

  describe("a failure the Worker did not expect", () => {
    afterEach(() => vi.restoreAllMocks());

    it("is a 500 a listed origin can read, in each protocol's shape, not an opaque network error", async () => {
      vi.spyOn(ResponseWatch.prototype, "events").mockImplementation(() => {
        throw new TypeError("secret-internals");
      });
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const headers = { origin: "https://app.example" };
      const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
      const chat = new Request("http://localhost:8787/v1/chat/completions", {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
      });
      for (const request of [streamRequest(validBody(), { headers }), chat]) {
        const response = await worker(upstream).call(request, env);
        expect(response.status, request.url).toBe(500);
        expect(response.headers.get("access-control-allow-origin"), request.url).toBe("https://app.example");
        const text = await response.text();
        expect(text, request.url).toContain("internal_error");
        expect(text, request.url).not.toContain("secret");
      }
      expect(logged).toHaveBeenCalledTimes(2);
    });
  });

  it("same-origin requests (the Worker's own page) and requests without Origin need no entry", async () => {
    const closed = testEnv({ CORS_ALLOW_ORIGINS: "" });
    const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
    const same = await worker(upstream).call(
      streamRequest(validBody(), { headers: { origin: "http://localhost:8787" } }),
      closed,
    );
    expect(same.status).toBe(200);
    expect(same.headers.get("access-control-allow-origin")).toBeNull();
    await same.body?.cancel();
    const curl = await worker(upstream).call(streamRequest(validBody()), closed);
    expect(curl.status).toBe(200);
    await curl.body?.cancel();
    const other = await worker(upstream).call(
      streamRequest(validBody(), { headers: { origin: "http://localhost:3000" } }),
      closed,
    );
    expect(other.status).toBe(403);
  });

  it("a listed origin can read the refusals of the GET endpoints too (a 401 without the token, a 405)", async () => {
    const guarded = testEnv({ CORS_ALLOW_ORIGINS: "https://app.example", CLIENT_TOKEN: "t" });
    const origin = { origin: "https://app.example" };
    for (const [path, method, status] of [
      ["/v1/models", "GET", 401],
      ["/v1/models", "DELETE", 405],
      ["/v1/stream/any-id", "GET", 401],
      ["/v1/responses/resp_any", "GET", 401],
    ] as const) {
      const response = await worker().call(
        new Request(`http://localhost:8787${path}`, { method, headers: origin }),
        guarded,
      );
      expect(response.status, `${method} ${path}`).toBe(status);
      expect(response.headers.get("access-control-allow-origin"), `${method} ${path}`).toBe("https://app.example");
    }
  });

  it("each route's preflight allows that route's methods: the model list GET and HEAD, never POST", async () => {
    for (const [path, methods] of [
      ["/v1/models", "GET, HEAD, OPTIONS"],
      ["/v1/ui/chat_1/stream", "GET, HEAD, OPTIONS"],
      ["/v1/stream/any-id", "GET, HEAD, DELETE, OPTIONS"],
      ["/v1/responses/resp_1", "GET, HEAD, DELETE, OPTIONS"],
      ["/v1/chat/completions", "POST, OPTIONS"],
    ] as const) {
      const response = await worker().call(
        new Request(`http://localhost:8787${path}`, {
          method: "OPTIONS",
          headers: { origin: "https://app.example", "access-control-request-method": methods.split(", ")[0]! },
        }),
        env,
      );
      expect(response.status, path).toBe(204);
      expect(response.headers.get("access-control-allow-methods"), path).toBe(methods);
    }
  });

  it("`*` allows any origin", async () => {
    const response = await worker().call(preflight("https://anyone.example"), testEnv({ CORS_ALLOW_ORIGINS: "*" }));
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://anyone.example");
  });
});
