// The operator's way back to its own storage (ALLOWED_STORAGE_URLS): a client's s3://, gs:// or
// Gemini Files API URL under a listed prefix goes to Bedrock and Gemini as before the refusal of
// 15b00de; a lookalike bucket, a folder beside the listed one, a traversal (`..`, `.`, `//`, an
// encoded `.` or `/`) or any URL with the setting unset is still a 400 naming the part, on
// /v1/stream and through the real Anthropic and OpenAI SDKs; a malformed setting is a 500 naming it.
import Anthropic, { BadRequestError as AnthropicBadRequest } from "@anthropic-ai/sdk";
import OpenAI, { BadRequestError as OpenAIBadRequest } from "openai";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, streamRequest, testEnv, worker } from "./support.ts";

const LISTED = "s3://my-bucket/docs/, gs://my-bucket,https://generativelanguage.googleapis.com/v1beta/files/";
const KEYS: Record<string, { env: Partial<Env>; model: string }> = {
  bedrock: {
    env: { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret", AWS_REGION: "us-west-2" },
    model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
  },
  gemini: { env: { GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta" }, model: "gemini-2.5-flash" },
};
/** The env of `provider`'s keys with `listed` as ALLOWED_STORAGE_URLS (null: unset). */
const envOf = (provider: string, listed: string | null) =>
  testEnv({ ...KEYS[provider]!.env, CLIENT_TOKEN: "t", ...(listed === null ? {} : { ALLOWED_STORAGE_URLS: listed }) });
const fake = () => new FakeUpstream({ kind: "response", status: 500, body: "{}" });

/** A `/v1/stream` request with `url` as its one user part; the answer's status and error, and what the provider got. */
async function stream(provider: string, url: string, listed: string | null = LISTED) {
  const upstream = fake();
  const part = { type: "file", media_type: "image/png", url };
  const body = { provider, model: KEYS[provider]!.model, messages: [{ role: "user", content: [part] }] };
  const response = await worker(upstream).call(
    streamRequest(body, { headers: { authorization: "Bearer t" } }),
    envOf(provider, listed),
  );
  const error = response.status === 200 ? undefined : ((await response.json()) as any).error;
  return { status: response.status, error, requests: upstream.requests };
}

/** Where each provider puts a file at a URL it reads itself, in the body it is sent. */
const SENT: Record<string, (body: any) => unknown> = {
  bedrock: (body) => body.messages[0].content[0],
  gemini: (body) => body.contents[0].parts[0],
};
const SHAPE: Record<string, (url: string) => unknown> = {
  bedrock: (url) => ({ image: { format: "png", source: { s3Location: { uri: url } } } }),
  gemini: (url) => ({ fileData: { mimeType: "image/png", fileUri: url } }),
};

const PASSING: [string, string][] = [
  ["bedrock", "s3://my-bucket/docs/cat.png"],
  ["bedrock", "s3://my-bucket/docs/2025/q4/cat.png"],
  ["gemini", "gs://my-bucket/cat.png"],
  ["gemini", "gs://my-bucket/a/b/cat.png"],
  ["gemini", "https://generativelanguage.googleapis.com/v1beta/files/abc123"],
];

/** Lookalikes and traversals of the listed prefixes: each must stay a 400. */
const REFUSED: [string, string][] = [
  ["bedrock", "s3://my-bucket-evil/docs/cat.png"],
  ["bedrock", "s3://my-bucket/docs-evil/cat.png"],
  ["bedrock", "s3://my-bucket/docsevil/cat.png"],
  ["bedrock", "s3://my-bucket/secret/cat.png"],
  ["bedrock", "s3://my-bucket@other-bucket/docs/cat.png"],
  ["bedrock", "S3://my-bucket/docs/cat.png"],
  ["bedrock", "s3://my-bucket/docs/../secret/cat.png"],
  ["bedrock", "s3://my-bucket/docs/./cat.png"],
  ["bedrock", "s3://my-bucket/docs//cat.png"],
  ["bedrock", "s3://my-bucket/docs/%2e%2e/secret/cat.png"],
  ["bedrock", "s3://my-bucket/docs/%2E%2E%2Fsecret%2Fcat.png"],
  ["bedrock", "s3://my-bucket/docs/..%2fsecret/cat.png"],
  ["bedrock", "s3://my-bucket/docs/..\\secret\\cat.png"],
  ["bedrock", "s3://my-bucket/docs/cat.png?versionId=1"],
  ["bedrock", "s3://my-bucket/docs/cat.png#x"],
  ["bedrock", "s3://my-bucket/docs/a cat.png"],
  ["bedrock", "s3://my-bucket/docs/"],
  ["bedrock", "s3://my-bucket/docs/.."],
  ["gemini", "gs://my-bucket-evil/cat.png"],
  ["gemini", "gs://my-bucket.evil/cat.png"],
  ["gemini", "GS://my-bucket/cat.png"],
  ["gemini", "gs://my-bucket/../other/cat.png"],
  ["gemini", "gs://my-bucket/%2e%2e/other/cat.png"],
  ["gemini", "https://generativelanguage.googleapis.com./v1beta/files/abc123"],
  ["gemini", "https://GenerativeLanguage.googleapis.com/v1beta/files/abc123"],
  ["gemini", "https://generativelanguage.googleapis.com/v1beta/files/../cachedContents/x"],
  ["gemini", "https://generativelanguage.googleapis.com/v1/files/abc123"],
];

describe("ALLOWED_STORAGE_URLS on /v1/stream", () => {
  it("a URL under a listed prefix reaches Bedrock as its s3Location and Gemini as fileData", async () => {
    for (const [provider, url] of PASSING) {
      const { requests, error } = await stream(provider, url);
      expect(requests, `${url}: ${JSON.stringify(error)}`).toHaveLength(1);
      expect(SENT[provider]!(requests[0]!.body)).toEqual(SHAPE[provider]!(url));
    }
  });

  it("a lookalike bucket, a folder beside the listed one, or a traversal is still a 400 naming the part", async () => {
    for (const [provider, url] of REFUSED) {
      const { status, error, requests } = await stream(provider, url);
      expect(status, url).toBe(400);
      expect(error.field).toBe("messages[0].content[0]");
      expect(error.message).toContain("ALLOWED_STORAGE_URLS");
      expect(requests).toHaveLength(0);
    }
  });

  it("unset, empty or blank, it lists nothing: every storage URL is a 400", async () => {
    for (const listed of [null, "", " , "])
      for (const [provider, url] of PASSING) {
        const { status, error, requests } = await stream(provider, url, listed);
        expect(status, `${listed} ${url}`).toBe(400);
        expect(error.field).toBe("messages[0].content[0]");
        expect(requests).toHaveLength(0);
      }
  });

  it("a malformed prefix is a 500 naming the variable, as any malformed setting's, with or without a storage URL", async () => {
    const malformed = [
      "s3://my-bucket/docs",
      "s3://",
      "s3:/my-bucket/",
      "s3://My_Bucket/",
      "s3://my-bucket/../",
      "s3://my-bucket/./",
      "s3://my-bucket//",
      "gs://my-bucket/%2e%2e/",
      "https://example.com/",
      "http://generativelanguage.googleapis.com/",
      "*",
    ];
    for (const listed of malformed)
      for (const url of ["s3://my-bucket/docs/cat.png", "https://example.com/cat.png"]) {
        const { status, error, requests } = await stream("bedrock", url, `gs://ok-bucket/,${listed}`);
        expect(status, listed).toBe(500);
        expect(error.code).toBe("worker_misconfigured");
        expect(error.message).toContain("ALLOWED_STORAGE_URLS");
        expect(requests).toHaveLength(0);
      }
  });
});

describe("ALLOWED_STORAGE_URLS through the client SDKs", () => {
  /** The SDKs' options: the Worker's fetch over `provider`'s keys and `listed`. */
  const options = (provider: string, upstream: FakeUpstream, listed: string) => ({
    apiKey: "t",
    fetch: workerFetch({ env: envOf(provider, listed), upstream }),
    maxRetries: 0,
  });
  const anthropic = (provider: string, upstream: FakeUpstream, listed = LISTED) =>
    new Anthropic({ baseURL: "http://localhost:8787", ...options(provider, upstream, listed) });
  const openai = (provider: string, upstream: FakeUpstream, listed = LISTED) =>
    new OpenAI({ baseURL: "http://localhost:8787/v1", ...options(provider, upstream, listed) });
  const viaMessages = (provider: string, url: string, upstream: FakeUpstream, listed?: string) =>
    anthropic(provider, upstream, listed)
      .messages.create({
        model: `${provider}/${KEYS[provider]!.model}`,
        max_tokens: 256,
        messages: [{ role: "user", content: [{ type: "image", source: { type: "url", url } }] }],
      })
      .catch((caught: unknown) => caught);
  const viaResponses = (provider: string, url: string, upstream: FakeUpstream, listed?: string) =>
    openai(provider, upstream, listed)
      .responses.create({
        model: `${provider}/${KEYS[provider]!.model}`,
        input: [{ role: "user", content: [{ type: "input_image", image_url: url, detail: "auto" }] }],
      })
      .catch((caught: unknown) => caught);

  for (const [provider, url] of [
    ["bedrock", "s3://my-bucket/docs/cat.png"],
    ["gemini", "gs://my-bucket/cat.png"],
  ] as const) {
    it(`/v1/messages and /v1/responses: ${url} (listed) reaches ${provider} in its form`, async () => {
      for (const send of [viaMessages, viaResponses]) {
        const upstream = fake();
        await send(provider, url, upstream);
        expect(upstream.requests).toHaveLength(1);
        expect(SENT[provider]!(upstream.requests[0]!.body)).toEqual(SHAPE[provider]!(url));
      }
    });

    it(`/v1/messages and /v1/responses: a lookalike of ${url}, or it unlisted, is a 400 naming the client's part`, async () => {
      const lookalike = url.replace("my-bucket", "my-bucket-evil");
      for (const [sent, listed] of [
        [lookalike, LISTED],
        [url, ""],
      ] as const) {
        const upstream = fake();
        const messages = await viaMessages(provider, sent, upstream, listed);
        expect(messages).toBeInstanceOf(AnthropicBadRequest);
        expect((messages as Error).message).toContain("messages[0].content[0].source");
        expect((messages as Error).message).toContain("ALLOWED_STORAGE_URLS");
        const responses = await viaResponses(provider, sent, upstream, listed);
        expect(responses).toBeInstanceOf(OpenAIBadRequest);
        expect((responses as Error).message).toContain("input[0].content[0].image_url");
        expect(upstream.requests).toHaveLength(0);
      }
    });
  }
});
