// Images and files in `/v1/stream`'s own body (content parts, a result's `files`), and the rules
// every file of every protocol passes (issue 35): its media type, its base64, its size (413 past
// the per-file and per-request limits, named), and URLs only of schemes a provider reads itself.
import { describe, expect, it } from "vitest";
import { MAX_FILE_BYTES, MAX_REQUEST_FILE_BYTES } from "../../worker/request/file-parts.ts";
import { FakeUpstream, streamRequest, testEnv, worker } from "./support.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const live = { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" };
const auth = { authorization: "Bearer t" };

const body = (messages: unknown[]) => ({ provider: "anthropic", model: "claude-x", messages });
const file = (fields: Record<string, unknown>) => ({ type: "file", media_type: "image/png", ...fields });

async function send(messages: unknown[], env = testEnv(live)) {
  const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const response = await worker(upstream).call(streamRequest(body(messages), { headers: auth }), env);
  return { response, upstream, error: response.status === 200 ? undefined : ((await response.json()) as any).error };
}

describe("/v1/stream: files in the Worker's own body", () => {
  it("a user message's content parts reach the provider in its form, in order", async () => {
    const { upstream } = await send([
      { role: "user", content: [{ type: "text", text: "What is this?" }, file({ data: PNG })] },
    ]);
    expect((upstream.requests[0]!.body as any).messages[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      ],
    });
  });

  it("a tool result's files follow its text", async () => {
    const { upstream } = await send([
      { role: "user", content: "Screenshot." },
      { role: "assistant", content: "", tool_calls: [{ id: "toolu_1", name: "shot", arguments: {} }] },
      { role: "tool", tool_call_id: "toolu_1", content: "Done.", files: [file({ url: "https://example.com/a.png" })] },
    ]);
    expect((upstream.requests[0]!.body as any).messages[2].content[0].content).toEqual([
      { type: "text", text: "Done." },
      { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
    ]);
  });

  it("a part that is neither text nor a file, data that is not base64, a bad media type, both or neither source: 400s naming the part", async () => {
    const cases: [unknown, string][] = [
      [{ type: "image", data: PNG }, "messages[0].content[0]"],
      [file({ data: "not base64!" }), "messages[0].content[0]"],
      [file({ data: `QUJD${"=".repeat(4)}` }), "messages[0].content[0]"],
      [file({ media_type: "png", data: PNG }), "messages[0].content[0]"],
      [file({ data: PNG, url: "https://example.com/a.png" }), "messages[0].content[0]"],
      [file({}), "messages[0].content[0]"],
      [file({ data: PNG, detail: "max" }), "messages[0].content[0].detail"],
      [file({ data: PNG, colour: "red" }), "messages[0].content[0]"],
    ];
    for (const [part, field] of cases) {
      const { response, error, upstream } = await send([{ role: "user", content: [part] }]);
      expect(response.status, JSON.stringify(part)).toBe(400);
      expect(error.field).toBe(field);
      expect(upstream.requests).toHaveLength(0);
    }
  });

  it("a URL of a scheme no provider reads (file:, ftp:, javascript:, not a URL) is a 400, never fetched", async () => {
    for (const url of ["file:///etc/passwd", "ftp://example.com/a.png", "javascript:alert(1)", "not a url"]) {
      const { response, error, upstream } = await send([{ role: "user", content: [file({ url })] }]);
      expect(response.status).toBe(400);
      expect(error.field).toBe("messages[0].content[0]");
      expect(upstream.requests).toHaveLength(0);
    }
  });

  it("a URL of the deployment's own storage (s3://, gs://, Gemini's Files API) is a 400: the provider would read it with the operator's credentials", async () => {
    const providers = {
      bedrock: {
        AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
        AWS_SECRET_ACCESS_KEY: "secret",
        BEDROCK_BASE_URL: "https://provider.test",
      },
      gemini: { GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta" },
      "gemini-interactions": { GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta" },
      anthropic: live,
    };
    const urls = [
      "s3://operator-private/secrets.png",
      "S3://operator-private/secrets.png",
      "gs://operator-private/secrets.png",
      "https://generativelanguage.googleapis.com/v1beta/files/abc123",
      "https://GenerativeLanguage.googleapis.com./v1beta/files/abc123",
    ];
    for (const [provider, keys] of Object.entries(providers))
      for (const url of urls) {
        const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
        const request = { provider, model: "a-model", messages: [{ role: "user", content: [file({ url })] }] };
        const response = await worker(upstream).call(
          streamRequest(request, { headers: auth }),
          testEnv({ ...keys, CLIENT_TOKEN: "t" }),
        );
        expect(response.status, `${provider} ${url}`).toBe(400);
        const error = ((await response.json()) as any).error;
        expect(error.field).toBe("messages[0].content[0]");
        expect(error.message).toMatch(/storage/);
        expect(upstream.requests).toHaveLength(0);
      }
  });
});

describe("a kept Gemini part (an assistant message's reasoning_parts)", () => {
  const secret = { mimeType: "application/pdf", fileUri: "gs://operator-private/secrets.pdf" };
  // A part is one of Gemini's data members: a fileData beside the kept one, or one nested in a
  // functionResponse's parts (Gemini 3's multimodal results), or a functionCall, is none it streams.
  const blocks = [
    { inlineData: { mimeType: "image/png", data: PNG }, fileData: secret },
    { executableCode: { code: "1" }, functionResponse: { name: "f", response: {}, parts: [{ fileData: secret }] } },
    { codeExecutionResult: { outcome: "OUTCOME_OK" }, functionCall: { name: "f", args: {} } },
  ];
  it("cannot carry a file or a call beside its own data: a 400 naming it, no request", async () => {
    const env = testEnv({ GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta", CLIENT_TOKEN: "t" });
    for (const block of blocks) {
      const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
      const messages = [
        { role: "user", content: "Draw a cat." },
        { role: "assistant", content: "Here.", reasoning_parts: [{ type: "block", block }] },
        { role: "user", content: "Now summarize the file." },
      ];
      const request = { provider: "gemini", model: "gemini-x", messages };
      const response = await worker(upstream).call(streamRequest(request, { headers: auth }), env);
      expect(response.status, JSON.stringify(block)).toBe(400);
      expect(((await response.json()) as any).error.field).toBe("messages[1].reasoning_parts[0].block");
      expect(upstream.requests).toHaveLength(0);
    }
  });
});

// Each body holds up to 30 MiB: a minute's room each, as the fuzz tests have, for a loaded machine.
describe("file sizes", { timeout: 60_000 }, () => {
  // Above the default body limit, so the per-file limit is what stops it.
  const roomy = testEnv({ ...live, MAX_BODY_BYTES: 64 * 1024 * 1024 });
  const base64Of = (bytes: number) => "A".repeat(Math.ceil(bytes / 3) * 4);

  it(`one file over ${MAX_FILE_BYTES} bytes decoded is a 413 naming it`, async () => {
    const { response, error, upstream } = await send(
      [{ role: "user", content: [{ type: "text", text: "Look." }, file({ data: base64Of(MAX_FILE_BYTES + 3) })] }],
      roomy,
    );
    expect(response.status).toBe(413);
    expect(error).toMatchObject({ code: "file_too_large", field: "messages[0].content[1]" });
    expect(upstream.requests).toHaveLength(0);
  });

  it("a file at the limit is taken", async () => {
    const { upstream } = await send(
      [{ role: "user", content: [file({ data: base64Of(MAX_FILE_BYTES - (MAX_FILE_BYTES % 3)) })] }],
      roomy,
    );
    expect(upstream.requests).toHaveLength(1);
  });

  it(`files over ${MAX_REQUEST_FILE_BYTES} bytes in one request are a 413 naming messages`, async () => {
    const big = file({ data: base64Of(MAX_FILE_BYTES - 3) });
    const count = Math.floor(MAX_REQUEST_FILE_BYTES / (MAX_FILE_BYTES - 3)) + 1;
    const { response, error, upstream } = await send(
      [{ role: "user", content: Array.from({ length: count }, () => big) }],
      roomy,
    );
    expect(response.status).toBe(413);
    expect(error).toMatchObject({ code: "file_too_large", field: "messages" });
    expect(upstream.requests).toHaveLength(0);
  });
});
