// A provider's refusal before its stream, answered through the RESPONSES Durable Object (the
// resumable `/v1/stream` and `/v1/run`): a listed browser origin reads its wait and whether to
// retry (`retry-after`, `retry-after-ms`, `x-should-retry`), as it does without the object. The
// object's own header (`x-response-id`) is exposed beside them, not instead of them.
import { runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { platformRuntime } from "../../worker/runtime.ts";
import { FakeUpstream, liveOpenAI, ManualTimers, objectOf, responses, testEnv, testMac, worker } from "./support.ts";

const ORIGIN = "https://app.example";
// One object in the pool: the one every response of this test starts in (no colo here: `any-0`).
const env = testEnv({ RESPONSES: responses, RESPONSE_OBJECTS: "1", CORS_ALLOW_ORIGINS: ORIGIN });
const pooled = () => objectOf(`any-0.${crypto.randomUUID()}.${testMac()}`);

/** The object answers with `upstream` as its provider (OpenAI, live). */
async function provider(upstream: FakeUpstream): Promise<void> {
  await runInDurableObject(pooled(), (instance: ResponseBuffer) =>
    instance.useRuntime({ fetch: upstream.fetch, timers: new ManualTimers() }, liveOpenAI),
  );
}

afterEach(() => runInDurableObject(pooled(), (instance: ResponseBuffer) => instance.useRuntime(platformRuntime)));

const exposed = (response: Response) =>
  (response.headers.get("access-control-expose-headers") ?? "").split(",").map((name) => name.trim());

describe("a refusal before the stream, through the Durable Object, read by a listed origin", () => {
  const body = {
    provider: "openai",
    model: "gpt-x",
    messages: [{ role: "user", content: "Go." }],
    tools: [{ name: "get_weather", parameters: { type: "object" } }],
  };
  for (const path of ["/v1/stream", "/v1/run"]) {
    it(`${path}: a 429 with its wait exposes retry-after, retry-after-ms and x-response-id`, async () => {
      await provider(
        new FakeUpstream({
          kind: "response",
          status: 429,
          body: JSON.stringify({ error: { type: "requests", message: "Rate limit reached." } }),
          headers: { "content-type": "application/json", "retry-after-ms": "2500" },
        }),
      );
      const request = new Request(`http://localhost:8787${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN },
        body: JSON.stringify(path === "/v1/run" ? { ...body, tools: undefined } : body),
      });
      const response = await worker().call(request, env);
      expect(response.status).toBe(429);
      expect([response.headers.get("retry-after"), response.headers.get("retry-after-ms")]).toEqual(["3", "2500"]);
      expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
      expect(exposed(response)).toEqual(
        expect.arrayContaining(["retry-after", "retry-after-ms", "x-should-retry", "x-response-id"]),
      );
    });
  }
});
