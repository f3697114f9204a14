// How many files one request may hold (MAX_REQUEST_FILES), on every endpoint that takes files, and
// what each costs: a file's provider check is built once per kind of file in a request (provider,
// media type), not once per file, so a body of tiny data URLs costs no more than its translation.
import { describe, expect, it } from "vitest";
import { MAX_REQUEST_FILES } from "../../worker/request/file-parts.ts";
import { refusalChecks } from "../../worker/request/file-refusals.ts";
import { postToFailingProvider } from "./client-support.ts";
import { testEnv } from "./support.ts";

// 3 bytes: the Worker checks base64, not images; 3,001 parts fit /v1/stream's 256 KiB body.
const PNG = "AAAA";
const PNG_URL = `data:image/png;base64,${PNG}`;
const env = testEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });
const model = "anthropic/claude-x";
const times = <T>(n: number, part: T): T[] => Array.from({ length: n }, () => part);

/** Each endpoint that takes files: its path, a body of `n` images, and where its error names the field. */
const endpoints: [string, (n: number) => unknown, (error: any) => unknown][] = [
  [
    "/v1/stream",
    (n) => ({
      provider: "anthropic",
      model: "claude-x",
      messages: [{ role: "user", content: times(n, { type: "file", media_type: "image/png", data: PNG }) }],
    }),
    (body) => body.error.field,
  ],
  [
    "/v1/messages",
    (n) => ({
      model,
      max_tokens: 10,
      messages: [
        {
          role: "user",
          content: times(n, { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } }),
        },
      ],
    }),
    (body) => body.error.message,
  ],
  [
    "/v1/responses",
    (n) => ({ model, input: [{ role: "user", content: times(n, { type: "input_image", image_url: PNG_URL }) }] }),
    (body) => body.error.param,
  ],
  [
    "/v1/chat/completions",
    (n) => ({
      model,
      messages: [{ role: "user", content: times(n, { type: "image_url", image_url: { url: PNG_URL } }) }],
    }),
    (body) => body.error.param,
  ],
  [
    "/v1/ui",
    (n) => ({
      id: "c",
      trigger: "submit-message",
      model,
      messages: [{ id: "u1", role: "user", parts: times(n, { type: "file", mediaType: "image/png", url: PNG_URL }) }],
    }),
    (text) => text,
  ],
  [
    "/v1/ag-ui",
    (n) => ({
      threadId: "t1",
      runId: "r1",
      state: {},
      tools: [],
      context: [],
      forwardedProps: { model },
      messages: [
        {
          id: "m1",
          role: "user",
          content: times(n, { type: "image", source: { type: "data", value: PNG, mimeType: "image/png" } }),
        },
      ],
    }),
    (body) => JSON.stringify(body),
  ],
];

describe(`at most ${MAX_REQUEST_FILES} files a request`, { timeout: 60_000 }, () => {
  for (const [path, body, named] of endpoints) {
    it(`${path}: ${MAX_REQUEST_FILES} images reach the provider; one more is a 400 naming that file, no provider request`, async () => {
      const taken = await postToFailingProvider(path, body(MAX_REQUEST_FILES), env);
      expect(taken.upstream.requests, path).toHaveLength(1);
      const { status, text, upstream } = await postToFailingProvider(path, body(MAX_REQUEST_FILES + 1), env);
      expect(status, path).toBe(400);
      // The AI SDK's error is text (useChat shows it as it is); every other protocol's is JSON.
      const error = path === "/v1/ui" ? text : JSON.parse(text);
      // The client's own path of the file one too many: Responses' `input[0]...`, every other's `messages[0]...`.
      const field = path === "/v1/responses" ? "input" : "messages";
      expect(String(named(error))).toMatch(new RegExp(`\`?${field}\\[0\\]\\.\\w+\\[${MAX_REQUEST_FILES}\\]`));
      expect(text).toContain(`more than ${MAX_REQUEST_FILES} files`);
      expect(upstream.requests).toHaveLength(0);
    });
  }
});

describe("a file's provider check", () => {
  for (const [path, body] of endpoints) {
    it(`${path}: is built once per kind of file in a request, not once per file`, async () => {
      const before = refusalChecks();
      const { upstream } = await postToFailingProvider(path, body(200), env);
      expect(upstream.requests).toHaveLength(1);
      // One image kind (anthropic, image/png): one build at most, where each file had two before.
      expect(refusalChecks() - before, path).toBeLessThanOrEqual(1);
    });
  }
});
