// A malformed setting (a limit that is no number, an OPEN_ACCESS that is neither "true" nor
// "false") is the operator's to fix, and no stranger's to learn of: a request without the client
// token gets the 401 a well-configured Worker gives, byte for byte, on every route; a request with
// it gets a 500 in its protocol's own error shape that says the Worker is misconfigured and names
// the setting, never its value, and the detail is logged once. A malformed OPEN_ACCESS never opens
// the Worker.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../../worker/env.ts";
import { endpoints } from "./endpoint-bodies.ts";
import { FakeUpstream, testEnv, worker } from "./support.ts";

const TOKEN = "s3cret-token";
/** A malformed value: it must never reach a client. */
const VALUE = "lots-7d1f";
const ORIGIN = "https://app.example";
const env = (overrides: Partial<Env> = {}) =>
  testEnv({ CLIENT_TOKEN: TOKEN, OPENAI_API_KEY: "sk-live", CORS_ALLOW_ORIGINS: ORIGIN, ...overrides });

/** Every route's request, with `headers`. */
function requests(headers: Record<string, string>): [string, () => Request][] {
  const url = (path: string) => `http://localhost:8787${path}`;
  const posts = Object.entries(endpoints).map(([name, endpoint]): [string, () => Request] => [
    name,
    () =>
      new Request(url(endpoint.path), {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(endpoint.valid()),
      }),
  ]);
  const gets = [
    "/v1/stream/resp_abc",
    "/v1/run/resp_abc",
    "/v1/responses/resp_abc",
    "/v1/responses/resp_abc/input_items",
    "/v1/models",
  ].map((path): [string, () => Request] => [`GET ${path}`, () => new Request(url(path), { headers })]);
  const anthropicModels: [string, () => Request] = [
    "GET /v1/models (Anthropic)",
    () => new Request(url("/v1/models"), { headers: { ...headers, "anthropic-version": "2023-06-01" } }),
  ];
  return [...posts, ...gets, anthropicModels];
}

/** The answer's status, headers and body, to compare whole. */
async function whole(response: Response) {
  return { status: response.status, headers: [...response.headers], body: await response.text() };
}

afterEach(() => {
  vi.restoreAllMocks();
});

// First: each malformed setting is logged once per isolate, and the tests below hit OPEN_ACCESS too.
describe("a malformed OPEN_ACCESS fails closed", () => {
  it("without CLIENT_TOKEN it is the 401 of OPEN_ACCESS unset, never the open replay, and the operator is told", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { OPEN_ACCESS: _open, ...closed } = testEnv();
    for (const [name, request] of requests({})) {
      const upstream = new FakeUpstream({ kind: "hang" });
      const expected = await whole(await worker(upstream).call(request(), closed));
      expect(expected.status, name).toBe(401);
      for (const value of ["yes", "TRUE", "1", "true,"])
        expect(await whole(await worker(upstream).call(request(), testEnv({ OPEN_ACCESS: value }))), name).toEqual(
          expected,
        );
      expect(upstream.requests).toHaveLength(0);
    }
    expect(logged.mock.calls.map((call) => call.map(String).join(" ")).join("\n")).toContain(
      'OPEN_ACCESS must be "true" or "false".',
    );
  });

  it("with CLIENT_TOKEN, the client with the token gets the 500 naming OPEN_ACCESS", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await worker().call(
      requests({ authorization: `Bearer ${TOKEN}` })[0]![1](),
      env({ OPEN_ACCESS: "yes" }),
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      error: { code: "worker_misconfigured", message: expect.stringContaining("OPEN_ACCESS") },
    });
  });
});

describe("a malformed setting and a client without the token", () => {
  const malformed: Partial<Env>[] = [
    { MAX_TOOL_CALLS: VALUE },
    { MAX_BODY_BYTES: VALUE, MAX_AGENT_BODY_BYTES: VALUE },
    { RESPONSE_OBJECTS: "1001" },
    { OPEN_ACCESS: VALUE },
  ];
  const refused = [{}, { authorization: "Bearer wr0ng" }, { "x-api-key": "wr0ng" }, { origin: ORIGIN }];

  it("every route answers the 401 of a well-configured Worker, byte for byte, and calls no provider", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    for (const headers of refused)
      for (const [name, request] of requests(headers)) {
        const upstream = new FakeUpstream({ kind: "hang" });
        const expected = await whole(await worker(upstream).call(request(), env()));
        expect(expected.status, name).toBe(401);
        for (const overrides of malformed) {
          const answer = await whole(await worker(upstream).call(request(), env(overrides)));
          expect(answer, `${name} ${JSON.stringify(overrides)}`).toEqual(expected);
        }
        expect(upstream.requests).toHaveLength(0);
      }
  });

  it("a CORS preflight and the AI SDK's resume check answer as with good settings", async () => {
    const preflight = () =>
      new Request("http://localhost:8787/v1/chat/completions", {
        method: "OPTIONS",
        headers: { origin: ORIGIN, "access-control-request-method": "POST" },
      });
    const resume = () => new Request("http://localhost:8787/v1/ui/chat_1/stream", { headers: { origin: ORIGIN } });
    for (const request of [preflight, resume]) {
      const expected = await whole(await worker().call(request(), env()));
      expect(expected.status).toBe(204);
      for (const overrides of malformed)
        expect(await whole(await worker().call(request(), env(overrides)))).toEqual(expected);
    }
  });
});

describe("a malformed setting and a client with the token", () => {
  it("each protocol answers a 500 in its own shape that says the Worker is misconfigured and names the setting, not its value", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const upstream = new FakeUpstream({ kind: "hang" });
      const response = await worker(upstream).call(
        new Request(`http://localhost:8787${endpoint.path}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
          body: JSON.stringify(endpoint.valid()),
        }),
        env({ MAX_TOOL_CALLS: VALUE }),
      );
      expect(response.status, name).toBe(500);
      const { message } = await endpoint.expectError(response);
      expect(message, name).toMatch(/misconfigured/);
      expect(message, name).toContain("MAX_TOOL_CALLS");
      expect(message, name).not.toContain(VALUE);
      expect(upstream.requests).toHaveLength(0);
    }
    for (const [name, request] of requests({ authorization: `Bearer ${TOKEN}` }).filter(([n]) => n.startsWith("GET"))) {
      const response = await worker().call(request(), env({ MAX_TOOL_CALLS: VALUE }));
      const text = await response.text();
      expect(response.status, name).toBe(500);
      expect(text, name).toMatch(/misconfigured/);
      expect(text, name).toContain("MAX_TOOL_CALLS");
      expect(text, name).not.toContain(VALUE);
    }
  });

  it("the detail goes to console.error once, never the value", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    for (let i = 0; i < 3; i++) {
      const response = await worker().call(
        requests({ authorization: `Bearer ${TOKEN}` })[0]![1](),
        env({ IDLE_TIMEOUT_MS: VALUE }),
      );
      expect(response.status).toBe(500);
      // The client reads the setting's name and that it is misconfigured, not what it must be.
      expect(await response.text()).not.toContain("must be");
    }
    expect(logged).toHaveBeenCalledTimes(1);
    const line = logged.mock.calls[0]!.map(String).join(" ");
    expect(line).toContain("IDLE_TIMEOUT_MS must be an integer of at least 1.");
    expect(line).not.toContain(VALUE);
  });
});
