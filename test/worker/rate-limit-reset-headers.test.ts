// A 429 that names no wait but OpenAI's rate-limit headers (`x-ratelimit-reset-requests: 6s`, as
// OpenAI-compatible servers send them, some without Retry-After): the reset of the limit it hit
// reaches the client as the retry-after / retry-after-ms that openai-node and @anthropic-ai/sdk
// read, on every protocol; without them the SDKs retried after 0.5 to 8 s, before the limit let
// them through.
import { describe, expect, it } from "vitest";
import { post } from "./client-support.ts";
import { endpoints } from "./endpoint-bodies.ts";
import { FakeUpstream, liveOpenAI, testEnv, worker } from "./support.ts";

const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });
const body = (type: string) =>
  JSON.stringify({ error: { message: "Rate limit reached.", type, param: null, code: "rate_limit_exceeded" } });

async function refused(name: string, headers: Record<string, string>, type = "requests") {
  const endpoint = endpoints[name]!;
  const upstream = new FakeUpstream({
    kind: "response",
    status: 429,
    body: body(type),
    headers: { "content-type": "application/json", ...headers },
  });
  const response = await worker(upstream).call(
    post(endpoint.path, endpoint.valid(), { headers: { authorization: "Bearer t" } }),
    env,
  );
  await response.body?.cancel();
  return [response.status, response.headers.get("retry-after"), response.headers.get("retry-after-ms")];
}

const SPENT_REQUESTS = {
  "x-ratelimit-remaining-requests": "0",
  "x-ratelimit-reset-requests": "6s",
  "x-ratelimit-remaining-tokens": "149000",
  "x-ratelimit-reset-tokens": "20ms",
};

describe("a 429 with OpenAI's rate-limit headers and no wait of its own", () => {
  for (const name of ["stream", "chat", "messages", "responses", "ui", "agui"])
    it(`${endpoints[name]!.path}: the spent limit's reset as retry-after and retry-after-ms`, async () => {
      expect(await refused(name, SPENT_REQUESTS)).toEqual([429, "6", "6000"]);
    });

  it("the limit the body types it by where no remaining count says which (a Go duration of minutes and seconds)", async () => {
    const headers = { "x-ratelimit-reset-requests": "1s", "x-ratelimit-reset-tokens": "0m7.5s" };
    expect(await refused("chat", headers, "tokens")).toEqual([429, "8", "7500"]);
    expect(await refused("chat", headers, "requests")).toEqual([429, "1", "1000"]);
  });

  it("the provider's own Retry-After first; a reset past a minute, of 0, or no Go duration, is not passed on", async () => {
    expect(await refused("chat", { ...SPENT_REQUESTS, "retry-after": "2" })).toEqual([429, "2", "2000"]);
    expect(await refused("chat", { ...SPENT_REQUESTS, "x-ratelimit-reset-requests": "6m0s" })).toEqual([
      429,
      null,
      null,
    ]);
    expect(await refused("chat", { ...SPENT_REQUESTS, "x-ratelimit-reset-requests": "6 s" })).toEqual([
      429,
      null,
      null,
    ]);
    // Azure's Responses API: remaining counts of -1 and a reset of 0, which says nothing.
    const azure = { "x-ratelimit-remaining-tokens": "-1", "x-ratelimit-reset-tokens": "0" };
    expect(await refused("chat", azure, "tokens")).toEqual([429, null, null]);
  });
});
