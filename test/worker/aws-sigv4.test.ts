// The Worker's AWS Signature Version 4 (worker/upstream/providers/aws-sigv4.ts) against the published
// AWS SigV4 test suite (aws-sig-v4-test-suite, 2015 edition): its documented credentials, date,
// region and service, and for each request the canonical request (.creq), string to sign (.sts)
// and Authorization header (.authz) it publishes.
import { describe, expect, it } from "vitest";
import {
  canonicalRequest,
  signAwsRequest,
  stringToSign,
  toAmzDate,
  type SignableRequest,
} from "../../worker/upstream/providers/aws-sigv4.ts";

const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const scope = { region: "us-east-1", service: "service" };
const date = new Date("2015-08-30T12:36:00Z");
const credentialScope = "20150830/us-east-1/service/aws4_request";
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
// The suite's session token (post-sts-token/post-sts-header-before).
const SESSION_TOKEN =
  "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==";

interface Vector {
  name: string;
  request: SignableRequest;
  /** The suite writes its paths unencoded: one encoding, as S3 signs. */
  singleEncoded?: boolean;
  token?: string;
  creq?: string;
  stsHash?: string;
  signedHeaders: string;
  signature: string;
}

const vectors: Vector[] = [
  {
    name: "get-vanilla",
    request: { method: "GET", url: "https://example.amazonaws.com/", headers: {}, body: "" },
    creq: [
      "GET",
      "/",
      "",
      "host:example.amazonaws.com",
      "x-amz-date:20150830T123600Z",
      "",
      "host;x-amz-date",
      EMPTY_SHA256,
    ].join("\n"),
    stsHash: "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
    signedHeaders: "host;x-amz-date",
    signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
  },
  {
    name: "post-vanilla",
    request: { method: "POST", url: "https://example.amazonaws.com/", headers: {}, body: "" },
    creq: [
      "POST",
      "/",
      "",
      "host:example.amazonaws.com",
      "x-amz-date:20150830T123600Z",
      "",
      "host;x-amz-date",
      EMPTY_SHA256,
    ].join("\n"),
    stsHash: "553f88c9e4d10fc9e109e2aeb65f030801b70c2f6468faca261d401ae622fc87",
    signedHeaders: "host;x-amz-date",
    signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b",
  },
  {
    name: "get-vanilla-query-order-key-case",
    request: {
      method: "GET",
      url: "https://example.amazonaws.com/?Param2=value2&Param1=value1",
      headers: {},
      body: "",
    },
    creq: [
      "GET",
      "/",
      "Param1=value1&Param2=value2",
      "host:example.amazonaws.com",
      "x-amz-date:20150830T123600Z",
      "",
      "host;x-amz-date",
      EMPTY_SHA256,
    ].join("\n"),
    signedHeaders: "host;x-amz-date",
    signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500",
  },
  {
    name: "get-utf8",
    request: { method: "GET", url: "https://example.amazonaws.com/ሴ", headers: {}, body: "" },
    singleEncoded: true,
    creq: [
      "GET",
      "/%E1%88%B4",
      "",
      "host:example.amazonaws.com",
      "x-amz-date:20150830T123600Z",
      "",
      "host;x-amz-date",
      EMPTY_SHA256,
    ].join("\n"),
    stsHash: "2a0a97d02205e45ce2e994789806b19270cfbbb0921b278ccf58f5249ac42102",
    signedHeaders: "host;x-amz-date",
    signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85",
  },
  {
    name: "post-x-www-form-urlencoded",
    request: {
      method: "POST",
      url: "https://example.amazonaws.com/",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "Param1=value1",
    },
    creq: [
      "POST",
      "/",
      "",
      "content-type:application/x-www-form-urlencoded",
      "host:example.amazonaws.com",
      "x-amz-date:20150830T123600Z",
      "",
      "content-type;host;x-amz-date",
      "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e",
    ].join("\n"),
    signedHeaders: "content-type;host;x-amz-date",
    signature: "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a",
  },
  {
    name: "post-sts-header-before (a session token, signed)",
    request: { method: "POST", url: "https://example.amazonaws.com/", headers: {}, body: "" },
    token: SESSION_TOKEN,
    signedHeaders: "host;x-amz-date;x-amz-security-token",
    signature: "85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead",
  },
];

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

describe("AWS Signature Version 4: the published test suite", () => {
  for (const vector of vectors) {
    it(`${vector.name}: canonical request, string to sign and Authorization as published`, async () => {
      const signing = vector.token === undefined ? credentials : { ...credentials, sessionToken: vector.token };
      const doubleEncodePath = !vector.singleEncoded;
      const headers = await signAwsRequest(vector.request, signing, scope, { date, doubleEncodePath });
      expect(headers["x-amz-date"]).toBe("20150830T123600Z");
      expect(headers["authorization"]).toBe(
        `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/${credentialScope}, SignedHeaders=${vector.signedHeaders}, Signature=${vector.signature}`,
      );
      if (vector.token !== undefined) expect(headers["x-amz-security-token"]).toBe(vector.token);
      else expect(headers).not.toHaveProperty("x-amz-security-token");

      const signed = {
        ...vector.request,
        headers: {
          ...vector.request.headers,
          "x-amz-date": "20150830T123600Z",
          ...(vector.token ? { "x-amz-security-token": vector.token } : {}),
        },
      };
      const { text, signedHeaders } = await canonicalRequest(signed, doubleEncodePath);
      expect(signedHeaders).toBe(vector.signedHeaders);
      if (vector.creq !== undefined) expect(text).toBe(vector.creq);
      if (vector.stsHash !== undefined) {
        expect(await sha256Hex(text)).toBe(vector.stsHash);
        expect(stringToSign("20150830T123600Z", credentialScope, vector.stsHash)).toBe(
          `AWS4-HMAC-SHA256\n20150830T123600Z\n${credentialScope}\n${vector.stsHash}`,
        );
      }
    });
  }

  it("x-amz-date is the instant in UTC, in the basic ISO 8601 format", () => {
    expect(toAmzDate(new Date("2026-01-02T03:04:05.678Z"))).toBe("20260102T030405Z");
  });

  it("a path already encoded in its URL is encoded again (every service but S3), dot segments resolved", async () => {
    const request = {
      method: "POST",
      url: "https://bedrock-runtime.us-east-1.amazonaws.com/model/./x/../us.anthropic.claude-v1%3A0/converse-stream",
      headers: {},
      body: "{}",
    };
    const { text } = await canonicalRequest(request);
    expect(text.split("\n")[1]).toBe("/model/us.anthropic.claude-v1%253A0/converse-stream");
  });

  it("a different secret, date, region or body gives another signature", async () => {
    const request = vectors[1]!.request;
    const base = (await signAwsRequest(request, credentials, scope, { date }))["authorization"];
    const variants = await Promise.all([
      signAwsRequest(request, { ...credentials, secretAccessKey: "other" }, scope, { date }),
      signAwsRequest(request, credentials, scope, { date: new Date(date.getTime() + 1000) }),
      signAwsRequest(request, credentials, { ...scope, region: "eu-west-1" }, { date }),
      signAwsRequest({ ...request, body: "x" }, credentials, scope, { date }),
    ]);
    for (const variant of variants) expect(variant["authorization"]).not.toBe(base);
  });
});
