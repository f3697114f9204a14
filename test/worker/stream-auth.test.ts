import { describe, expect, it } from "vitest";
import { FakeUpstream, readSSE, streamRequest, testEnv, validBody, worker } from "./support.ts";

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

  it("without CLIENT_TOKEN, the replay default runs open on localhost, 127.0.0.1 and [::1] only", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: sse });
    for (const host of ["localhost:8787", "127.0.0.1:8787", "[::1]:8787"]) {
      const response = await worker(upstream).call(streamRequest(validBody(), { host }));
      expect(response.status).toBe(200);
      expect(response.headers.get("x-replay-recording")).toBeTruthy();
      await response.body?.cancel();
    }
    for (const host of ["tool-call-stream.example.workers.dev", "192.168.1.20:8787", "localhost.example.com"]) {
      await expectUnauthorized(await worker(upstream).call(streamRequest(validBody(), { host })), upstream);
    }
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
