// A 401 or 403 answered with an HTML page is a proxy's or a firewall's before the provider's API
// (Cloudflare's "Access denied" page in front of a provider's host), not the provider refusing the
// key: the 502 says so, in every protocol's shape, not retried, without the page or its host, and
// does not send the operator to check a key the API never saw. A JSON refusal still names the key.
import { describe, expect, it } from "vitest";
import { post } from "./client-support.ts";
import { endpoints } from "./endpoint-bodies.ts";
import { FakeUpstream, liveOpenAI, streamRequest, testEnv, validBody, worker } from "./support.ts";

const env = testEnv({
  ...liveOpenAI,
  AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
  AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYSECRETKEY",
  AWS_REGION: "eu-central-1",
  CLIENT_TOKEN: "t",
});
const PAGE =
  "<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head><body>" +
  "<h1>Sorry, you have been blocked</h1><p>You are unable to access api.example-provider.com</p>" +
  "<p>Cloudflare Ray ID: 8f0c1d2e3a4b5c6d</p></body></html>";
const page = (status: number) =>
  new FakeUpstream({ kind: "response", status, body: PAGE, headers: { "content-type": "text/html; charset=UTF-8" } });

/** OpenAI's refusal of the key, a 401 of JSON, under the content type `type`. */
const keyRefusal = (type: string) =>
  new FakeUpstream({
    kind: "response",
    status: 401,
    body: JSON.stringify({ error: { message: "Incorrect API key provided.", code: "invalid_api_key" } }),
    headers: { "content-type": type },
  });

async function answer(name: string, upstream: FakeUpstream) {
  const endpoint = endpoints[name]!;
  const response = await worker(upstream).call(
    post(endpoint.path, endpoint.valid(), { headers: { authorization: "Bearer t" } }),
    env,
  );
  const text = await response.text();
  return { response, text };
}

function expectProxy(response: Response, text: string): void {
  expect([response.status, response.headers.get("x-should-retry")]).toEqual([502, "false"]);
  // /v1/ui's plain-text message carries the code in its header.
  expect(`${text} ${response.headers.get("x-error-code")}`).toContain("upstream_rejected");
  expect(text).toContain("a proxy or firewall before its API refused");
  for (const leak of ["OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "<html", "Cloudflare", "example-provider", "Ray ID"])
    expect(text).not.toContain(leak);
}

describe("a 401 or 403 that is an HTML page", () => {
  for (const name of ["stream", "chat", "messages", "responses", "ui", "agui"])
    it(`${endpoints[name]!.path}: a 403 page is a proxy's refusal, not the key's`, async () => {
      const { response, text } = await answer(name, page(403));
      expectProxy(response, text);
    });

  it("a 401 page too, and Bedrock's (whose 403s are read for AWS's exception type)", async () => {
    const chat = await answer("chat", page(401));
    expectProxy(chat.response, chat.text);
    const bedrock = validBody({ provider: "bedrock", model: "anthropic.claude-3-haiku-20240307-v1:0" });
    const response = await worker(page(403)).call(
      streamRequest(bedrock, { headers: { authorization: "Bearer t" } }),
      env,
    );
    expectProxy(response, await response.text());
  });

  it("the provider's own JSON refusal still names the key's secret", async () => {
    const { response, text } = await answer("stream", keyRefusal("application/json"));
    expect(response.status).toBe(502);
    expect(JSON.parse(text).error).toMatchObject({ code: "upstream_auth_failed", upstreamStatus: 401 });
    expect(text).toContain("OPENAI_API_KEY");
  });
  // Review 77 (whole77): the content type alone decides, and a server that writes its JSON refusal
  // without setting one (Flask's `return json.dumps(...), 401`, PHP's default) labels it text/html.
  it("a JSON refusal labelled text/html is still the provider's, naming the key's secret", async () => {
    const { text } = await answer("stream", keyRefusal("text/html; charset=utf-8"));
    expect(JSON.parse(text).error).toMatchObject({ code: "upstream_auth_failed", upstreamStatus: 401 });
    expect(text).toContain("OPENAI_API_KEY");
  });
});
