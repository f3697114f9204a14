// GET /healthz fails while the Worker is misconfigured: a setting that makes every request (or
// every request to one provider) a 500 `worker_misconfigured` makes the health check a 503, so a
// load balancer or uptime monitor sees what clients will. A client with the token reads which
// setting; a stranger only that the Worker is misconfigured (the 401s name nothing either), and
// nobody ever a value.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../../worker/env.ts";
import { testEnv, worker } from "./support.ts";

const TOKEN = "s3cret-token";
/** A marker in each malformed value: it must never reach a client. */
const VALUE = "lots-7d1f";
const env = (overrides: Partial<Env> = {}) => testEnv({ CLIENT_TOKEN: TOKEN, OPENAI_API_KEY: "sk-live", ...overrides });
const health = (headers: Record<string, string> = {}, method = "GET") =>
  new Request("http://localhost:8787/healthz", { method, headers });
const withToken = { authorization: `Bearer ${TOKEN}` };

afterEach(() => {
  vi.restoreAllMocks();
});

describe("GET /healthz of a misconfigured Worker", () => {
  const cases: [Partial<Env>, string][] = [
    [{ MODEL_ALIASES: `claude-${VALUE}` }, "MODEL_ALIASES"],
    [{ OPENAI_SERVER_TOOLS: `web_search,${VALUE}` }, "OPENAI_SERVER_TOOLS"],
    [{ ANTHROPIC_SERVER_TOOLS: `web_search_20250305` }, "ANTHROPIC_SERVER_TOOLS"],
    [{ MAX_TOOL_CALLS: VALUE }, "MAX_TOOL_CALLS"],
    [{ OPEN_ACCESS: VALUE }, "OPEN_ACCESS"],
    [{ ALLOWED_STORAGE_URLS: `ftp://${VALUE}/` }, "ALLOWED_STORAGE_URLS"],
    [{ ANTHROPIC_BASE_URL: `${VALUE}.example` }, "ANTHROPIC_BASE_URL"],
    [{ AWS_SECRET_ACCESS_KEY: `secret-${VALUE}` }, "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"],
    [{ AWS_ACCESS_KEY_ID: "AKIAEXAMPLE", AWS_SECRET_ACCESS_KEY: "x", AWS_REGION: VALUE }, "AWS_REGION"],
  ];

  it("is a 503 that names the setting to a client with the token, never its value", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    for (const [overrides, setting] of cases) {
      for (const headers of [withToken, { "x-api-key": TOKEN }]) {
        const response = await worker().call(health(headers), env(overrides));
        const text = await response.text();
        expect(response.status, setting).toBe(503);
        expect(response.headers.get("cache-control")).toBe("no-store");
        expect(JSON.parse(text), setting).toEqual({ status: "misconfigured", setting, message: expect.any(String) });
        expect(text, setting).not.toContain(VALUE);
      }
    }
  });

  it("is a 503 to a stranger too, which names no setting", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    for (const [overrides, setting] of cases)
      for (const headers of [{}, { authorization: "Bearer wr0ng" }]) {
        const response = await worker().call(health(headers), env(overrides));
        const text = await response.text();
        expect(response.status, setting).toBe(503);
        expect(JSON.parse(text), setting).toEqual({ status: "misconfigured", message: expect.any(String) });
        expect(text, setting).not.toContain(setting);
        expect(text, setting).not.toContain(VALUE);
      }
  });

  it("answers HEAD with the status alone, and logs what to fix", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await worker().call(health(withToken, "HEAD"), env({ MAX_ARGUMENTS_LENGTH: VALUE }));
    expect(response.status).toBe(503);
    expect(await response.text()).toBe("");
    expect(logged.mock.calls.map((call) => call.join(" ")).join("\n")).toContain(
      "MAX_ARGUMENTS_LENGTH must be an integer of at least 1.",
    );
  });

  it("a well-configured Worker is ok, with or without the token", async () => {
    for (const headers of [{}, withToken]) {
      const response = await worker().call(health(headers), env({ MODEL_ALIASES: "claude-*=openai/gpt-5" }));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "ok" });
    }
  });
});
