// What the file checks of one request may cost (worker/request/file-parts.ts): each file is counted
// before it is checked, so the file past MAX_REQUEST_FILES costs no check; each new kind of file
// (provider, media type, a URL's scheme; a host only if it is Gemini's Files API) builds one small provider request, at most
// MAX_REQUEST_FILE_KINDS a request, so files of distinct kinds cannot make one build each; a media
// type is at most 127 + 127 characters; and no URL's userinfo is part of what is remembered.
// Builds are counted with refusalChecks().
import { describe, expect, it } from "vitest";
import { MAX_REQUEST_FILES } from "../../worker/request/file-parts.ts";
import { MAX_REQUEST_FILE_KINDS, refusalChecks } from "../../worker/request/file-refusals.ts";
import { postToFailingProvider } from "./client-support.ts";
import { testEnv } from "./support.ts";

// 3 bytes: the Worker checks base64, not images; 3,001 parts fit /v1/stream's 256 KiB body.
const PNG = "AAAA";
const env = testEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });
const N = 2_000;
const kinds = (make: (i: number) => unknown) => Array.from({ length: N }, (_, i) => make(i));

const stream = (content: unknown[]) => ({
  provider: "anthropic",
  model: "claude-x",
  messages: [{ role: "user", content }],
});

const distinct: [string, unknown][] = [
  [
    "/v1/stream",
    stream(kinds((i) => ({ type: "file", media_type: `image/x-${i}`, url: "https://example.com/a.png" }))),
  ],
];

describe("the file checks one request costs are bounded", { timeout: 120_000 }, () => {
  for (const [path, body] of distinct) {
    it(`${path}: ${N} files of distinct kinds: a 400 naming the file past ${MAX_REQUEST_FILE_KINDS} kinds, after at most that many builds`, async () => {
      const before = refusalChecks();
      const { status, upstream, text } = await postToFailingProvider(path, body, env);
      expect(status).toBe(400);
      expect(text).toContain(`more than ${MAX_REQUEST_FILE_KINDS} kinds`);
      expect(text).toContain(`messages[0].content[${MAX_REQUEST_FILE_KINDS}]`);
      expect(upstream.requests).toHaveLength(0);
      expect(refusalChecks() - before).toBeLessThanOrEqual(MAX_REQUEST_FILE_KINDS);
    });
  }

  it(`/v1/messages: ${N} image URLs on as many hosts are one kind: one build, not ${N}`, async () => {
    const before = refusalChecks();
    const { upstream, text } = await postToFailingProvider(
      "/v1/messages",
      {
        model: "anthropic/claude-x",
        max_tokens: 10,
        messages: [
          {
            role: "user",
            content: kinds((i) => ({ type: "image", source: { type: "url", url: `https://h${i}.example/a.png` } })),
          },
        ],
      },
      env,
    );
    expect(text).not.toContain("kinds");
    expect(upstream.requests).toHaveLength(1);
    expect(refusalChecks() - before).toBeLessThanOrEqual(1);
  });

  it(`/v1/stream: the file past ${MAX_REQUEST_FILES} is refused before it is checked`, async () => {
    const file = { type: "file", media_type: "image/png", data: PNG };
    const content = [...Array.from({ length: MAX_REQUEST_FILES }, () => file), { type: "file", media_type: "x" }];
    const { status, text } = await postToFailingProvider("/v1/stream", stream(content), env);
    expect(status).toBe(400);
    expect(JSON.parse(text).error.field).toBe(`messages[0].content[${MAX_REQUEST_FILES}]`);
    expect(text).toContain(`more than ${MAX_REQUEST_FILES} files`);
  });

  it("a media type's type and subtype are at most 127 characters each: a 400 naming the part", async () => {
    const at = (subtype: string) =>
      postToFailingProvider("/v1/stream", stream([{ type: "file", media_type: `image/${subtype}`, data: PNG }]), env);
    const long = await at("x".repeat(128));
    expect(long.status).toBe(400);
    expect(JSON.parse(long.text).error).toMatchObject({ field: "messages[0].content[0]" });
    expect(long.text).toContain("127 characters");
    // 127 is a media type: Anthropic's builder refuses it, as it refuses any image but its four.
    expect((await at("x".repeat(127))).text).toContain("JPEG, PNG, GIF or WebP");
  });

  it("a URL's userinfo is not part of the kind: two users of one host cost one build", async () => {
    const url = (user: string) =>
      stream([{ type: "file", media_type: "image/png", url: `https://${user}@userinfo-host.example/a.png` }]);
    await postToFailingProvider("/v1/stream", url("alice:secret-1"), env);
    const before = refusalChecks();
    const { upstream } = await postToFailingProvider("/v1/stream", url("bob:secret-2"), env);
    expect(upstream.requests).toHaveLength(1);
    expect(refusalChecks() - before).toBe(0);
  });
});
