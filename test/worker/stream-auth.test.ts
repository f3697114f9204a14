import { describe, expect, it, vi } from "vitest";
import { FakeUpstream, readSSE, streamRequest, testEnv, validBody, worker } from "./support.ts";
import { authenticate, tokenOwner } from "../../worker/http/auth.ts";
import { responseIdKey } from "../../worker/resumable/response-id.ts";

const sse = ['data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\n', "data: [DONE]\n\n"];

async function expectUnauthorized(response: Response, upstream: FakeUpstream): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
  expect(await response.json()).toMatchObject({ error: { code: "unauthorized" } });
  expect(upstream.requests).toHaveLength(0);
}

describe("POST /v1/stream client authentication", () => {
  it("with CLIENT_TOKEN set, a missing token is 401 and the provider is never called", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
    const env = testEnv({ CLIENT_TOKEN: "s3cret-token", OPENAI_API_KEY: "sk-live" });
    await expectUnauthorized(await worker(upstream).call(streamRequest(validBody()), env), upstream);
  });

  it("a wrong token, a token of another length and a non-Bearer scheme are all 401", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
    const env = testEnv({ CLIENT_TOKEN: "s3cret-token", OPENAI_API_KEY: "sk-live" });
    for (const authorization of [
      "Bearer s3cret-tokem",
      "Bearer s3cret-token-longer",
      "Bearer s3cret",
      "Basic s3cret-token",
      "s3cret-token",
      "Bearer",
    ]) {
      await expectUnauthorized(
        await worker(upstream).call(streamRequest(validBody(), { headers: { authorization } }), env),
        upstream,
      );
    }
  });

  it("the right token streams, whatever the case of the Bearer scheme", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
    const env = testEnv({ CLIENT_TOKEN: "s3cret-token", OPENAI_API_KEY: "sk-live" });
    for (const scheme of ["Bearer", "bearer"]) {
      const response = await worker(upstream).call(
        streamRequest(validBody(), { headers: { authorization: `${scheme} s3cret-token` } }),
        env,
      );
      expect(response.status).toBe(200);
      expect((await readSSE(response)).events.map((e) => e.type)).toEqual(["text-delta", "finish"]);
    }
  });

  it("the token is required on localhost too, once the replay default is not in use", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
    await expectUnauthorized(
      await worker(upstream).call(streamRequest(validBody()), testEnv({ ANTHROPIC_API_KEY: "sk-ant" })),
      upstream,
    );
  });

  it("without CLIENT_TOKEN, the replay runs open only when OPEN_ACCESS asks for it, whatever the Host", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
    for (const host of ["localhost:8787", "tool-call-stream.example.workers.dev", "192.168.1.20:8787"]) {
      const response = await worker(upstream).call(streamRequest(validBody(), { host }), testEnv());
      expect(response.status).toBe(200);
      expect(response.headers.get("x-replay-recording")).toBeTruthy();
      await response.body?.cancel();
    }
    // A bare `wrangler dev` (OPEN_ACCESS unset or "false") refuses localhost, 127.0.0.1 and [::1] too.
    const { OPEN_ACCESS: _open, ...unset } = testEnv();
    for (const env of [unset, testEnv({ OPEN_ACCESS: "false" }), testEnv({ OPEN_ACCESS: "" })]) {
      for (const host of ["localhost:8787", "127.0.0.1:8787", "[::1]:8787"]) {
        const response = await worker(upstream).call(streamRequest(validBody(), { host }), env);
        await expectUnauthorized(response, upstream);
      }
    }
  });

  it("the 401 of a Worker without CLIENT_TOKEN is the 401 of a missing token: it does not advertise the setup", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
    const unconfigured = await worker(upstream).call(streamRequest(validBody()), testEnv({ OPEN_ACCESS: "false" }));
    const configured = await worker(upstream).call(
      streamRequest(validBody()),
      testEnv({ CLIENT_TOKEN: "s3cret-token", OPEN_ACCESS: "false" }),
    );
    expect(unconfigured.status).toBe(401);
    expect(await unconfigured.text()).toBe(await configured.text());
    expect([...unconfigured.headers]).toEqual([...configured.headers]);
  });

  it("OPEN_ACCESS with a provider key set still needs the token", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
    for (const key of ["OPENAI_API_KEY", "AWS_ACCESS_KEY_ID", "OLLAMA_BASE_URL"] as const) {
      const response = await worker(upstream).call(
        streamRequest(validBody()),
        testEnv({ OPEN_ACCESS: "true", [key]: "x" }),
      );
      await expectUnauthorized(response, upstream);
    }
  });

  it("an OPEN_ACCESS that is neither true nor false is closed, never an open Worker (test/worker/misconfigured-settings.test.ts)", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await worker(upstream).call(streamRequest(validBody()), testEnv({ OPEN_ACCESS: "yes" }));
    await expectUnauthorized(response, upstream);
    error.mockRestore();
  });

  it("a blank CLIENT_TOKEN counts as not set, never as the empty token", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
    const env = testEnv({ CLIENT_TOKEN: "  ", OPENAI_API_KEY: "sk-live" });
    await expectUnauthorized(
      await worker(upstream).call(streamRequest(validBody(), { headers: { authorization: "Bearer " } }), env),
      upstream,
    );
  });
});

describe("the client token's comparison", () => {
  const letIn = async (presented: string, configured: string): Promise<boolean> => {
    const request = new Request("https://w.example/v1/responses", { headers: { "x-api-key": presented } });
    try {
      await authenticate(request, { clientToken: configured, open: false });
      return true;
    } catch (error) {
      expect(error).toMatchObject({ status: 401 });
      return false;
    }
  };

  it("lets in the configured token alone, at every length: compared unit by unit up to 256 units, by hash past them", async () => {
    for (const length of [1, 2, 40, 255, 256, 257, 300]) {
      const token = Array.from({ length }, (_, i) => "abcdefghijklmnopqrstuvwxyz0123456789"[(i * 7) % 36]).join("");
      expect(await letIn(token, token)).toBe(true);
      // Shorter, longer, its last unit or its first changed (to one the tokens never have).
      for (const other of [token.slice(0, -1), `${token}a`, `${token.slice(0, -1)}Z`, `Z${token.slice(1)}`])
        if (other !== "") expect(await letIn(other, token)).toBe(false);
    }
    // A token whose units past the presented one's end are zeros in the padded form is still longer.
    expect(await letIn("abc", "abc\u0000")).toBe(false);
    // Units above one byte: a configured token of any characters (a header carries bytes, read as Latin-1).
    expect(await letIn("tok\u00e9n", "tok\u00e9n")).toBe(true);
    expect(await letIn("tok\u00e9n", "tok\u00e8n")).toBe(false);
    expect(await letIn("tok\u00e9n", "tok\u01e9n")).toBe(false);
  });

  it("hashes nothing for a token of at most 256 units, presented right or wrong", async () => {
    const digest = vi.spyOn(crypto.subtle, "digest");
    try {
      const token = `t-${crypto.randomUUID()}`;
      expect(await letIn(token, token)).toBe(true);
      expect(await letIn(`${token}x`, token)).toBe(false);
      // failed before: one hash of the presented token per request, and the configured one's once.
      expect(digest).toHaveBeenCalledTimes(0);
      expect(await letIn("x".repeat(257), token)).toBe(false);
      expect(digest).toHaveBeenCalledTimes(2);
    } finally {
      digest.mockRestore();
    }
  });
});

describe("the isolate's caches of hashes and keys", () => {
  // workerd cancels a request's wait on a promise another request made once that one ended
  // ("A promise was resolved or rejected from a different request context than the one it was
  // created in"; then "The script will never generate a response"): a cache shared by requests
  // keeps the value made, never a promise another request would await.
  // Two calls of async functions are two promises whatever they cache, so what is counted is the
  // work: two requests side by side before anything is kept each make their own (a kept promise
  // would be one digest, one import, awaited by both), and a request after that makes none.
  it("never hand a request a promise made for another: the id key is a value once made, the owner never kept (nor the client's token with it)", async () => {
    const digest = vi.spyOn(crypto.subtle, "digest");
    const importKey = vi.spyOn(crypto.subtle, "importKey");
    try {
      const token = `t-${crypto.randomUUID()}`;
      const request = () =>
        new Request("https://w.example/v1/responses", { headers: { authorization: `Bearer ${token}` } });
      const [first, second] = await Promise.all([tokenOwner(request()), tokenOwner(request())]);
      expect(first).toBe(second);
      expect(digest).toHaveBeenCalledTimes(2);
      // The owner is never kept either: keeping it would keep the client's raw token to look it up.
      expect(await tokenOwner(request())).toBe(first);
      expect(digest).toHaveBeenCalledTimes(3);
      const sign = async (key: CryptoKey) =>
        Array.from(new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode("id"))));
      for (const secret of [undefined, `id-secret-${crypto.randomUUID()}`]) {
        importKey.mockClear();
        const [a, b] = await Promise.all([responseIdKey(secret), responseIdKey(secret)]);
        expect(importKey).toHaveBeenCalledTimes(2);
        // Keys imported side by side while none was kept sign alike: one key per isolate.
        expect(await sign(a)).toEqual(await sign(b));
        expect(await sign(await responseIdKey(secret))).toEqual(await sign(a));
        expect(importKey).toHaveBeenCalledTimes(2);
      }
    } finally {
      digest.mockRestore();
      importKey.mockRestore();
    }
  });

  it("a request let in with the configured token has that token's owner, made once: the same owner as before it was kept", async () => {
    const token = `t-${crypto.randomUUID()}`;
    const request = () =>
      new Request("https://w.example/v1/responses", { headers: { authorization: `Bearer ${token}` } });
    // Not let in by authenticate: hashed as the key it presents.
    const presented = await tokenOwner(request());
    const digest = vi.spyOn(crypto.subtle, "digest");
    try {
      const context = { clientToken: token, open: false };
      const owners: string[] = [];
      for (let n = 0; n < 3; n++) {
        const admitted = request();
        await authenticate(admitted, context);
        owners.push(await tokenOwner(admitted));
      }
      expect(owners).toEqual([presented, presented, presented]);
      // The owner once; authenticate hashes nothing for a token of at most 256 units (failed before: 3 + 1 + 1,
      // the presented token each time and the configured one once).
      expect(digest).toHaveBeenCalledTimes(1);
      // Another token: refused, and its requests have their own owner.
      const other = new Request("https://w.example/v1/responses", { headers: { authorization: "Bearer other" } });
      await expect(authenticate(other, context)).rejects.toMatchObject({ status: 401 });
      expect(await tokenOwner(other)).not.toBe(presented);
    } finally {
      digest.mockRestore();
    }
  });
});
