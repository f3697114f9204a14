// A 403 from Bedrock is not always a wrong secret: AWS names the refusal in its `x-amzn-errortype`
// header (`AccessDeniedException:http://internal.amazon.com/coral/...`; the awsJson protocols in
// the body's `__type`), and the Worker's 502 says which, from AWS's documented exceptions
// (Bedrock's troubleshooting of API error codes: AccessDeniedException 403 for missing
// permissions, InvalidClientTokenId / UnrecognizedClientException for an unknown access key id,
// a signature that does not match for a wrong secret, an expired session token). Never the
// key, the provider's message or the header's internal part.
import { describe, expect, it } from "vitest";
import { FakeUpstream, streamRequest, testEnv, validBody, worker } from "./support.ts";

const SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYSECRETKEY";
const keys = { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: SECRET };
const env = testEnv({ ...keys, AWS_REGION: "eu-central-1", CLIENT_TOKEN: "t" });
const request = () =>
  streamRequest(validBody({ provider: "bedrock", model: "anthropic.claude-3-haiku-20240307-v1:0" }), {
    headers: { authorization: "Bearer t" },
  });
const INTERNAL = "http://internal.amazon.com/coral/com.amazon.bedrock/";

async function refusal(
  body: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; message: string }> {
  const upstream = new FakeUpstream({
    kind: "response",
    status: 403,
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", ...headers },
  });
  const response = await worker(upstream).call(request(), env);
  const text = await response.text();
  for (const leak of [SECRET, "AKIDEXAMPLE", "internal.amazon.com", "You don't have access", "signature we calculated"])
    expect(text).not.toContain(leak);
  const { error } = JSON.parse(text) as { error: { code: string; message: string; upstreamStatus: number } };
  expect([error.code, error.upstreamStatus]).toEqual(["upstream_auth_failed", 403]);
  return { status: response.status, message: error.message };
}

describe("POST /v1/stream: a Bedrock 403 says which refusal it was", () => {
  it("AccessDeniedException (no access to the model, or a policy without it): the model and the policy, not a secret", async () => {
    const { status, message } = await refusal(
      { message: "You don't have access to the model with the specified model ID." },
      { "x-amzn-errortype": `AccessDeniedException:${INTERNAL}` },
    );
    expect(status).toBe(502);
    expect(message).toContain("AccessDeniedException");
    expect(message).toMatch(/access to the model/);
    expect(message).not.toMatch(/AWS_SECRET_ACCESS_KEY|AWS_ACCESS_KEY_ID/);
  });

  it("an access key id AWS does not know: AWS_ACCESS_KEY_ID", async () => {
    const { message } = await refusal(
      { message: "The security token included in the request is invalid." },
      { "x-amzn-errortype": `UnrecognizedClientException:${INTERNAL}` },
    );
    expect(message).toContain("UnrecognizedClientException");
    expect(message).toContain("`AWS_ACCESS_KEY_ID`");
  });

  it("a signature that does not match: AWS_SECRET_ACCESS_KEY", async () => {
    const { message } = await refusal(
      { message: "The request signature we calculated does not match the signature you provided." },
      { "x-amzn-errortype": "InvalidSignatureException" },
    );
    expect(message).toContain("InvalidSignatureException");
    expect(message).toContain("`AWS_SECRET_ACCESS_KEY`");
  });

  it("the type from the body's __type when no header names it: an expired session token", async () => {
    const { message } = await refusal({
      __type: "com.amazon.coral.service#ExpiredTokenException",
      message: "The security token included in the request is expired",
    });
    expect(message).toContain("ExpiredTokenException");
    expect(message).toContain("`AWS_SESSION_TOKEN`");
  });

  it("a type that is not an identifier is not echoed; the message names both key secrets", async () => {
    const { message } = await refusal({ message: "denied" }, { "x-amzn-errortype": `<b>${SECRET}</b>` });
    expect(message).toContain("`AWS_ACCESS_KEY_ID`");
    expect(message).toContain("`AWS_SECRET_ACCESS_KEY`");
  });
});
