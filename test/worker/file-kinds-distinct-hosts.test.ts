// Review 72 on 7831419f: MAX_REQUEST_FILE_KINDS counted a URL's host as a kind for every
// provider, so a request of 65 image URLs on 65 hosts is a 400, though Anthropic takes up to 100
// images a request (OpenAI 500) by URL from any host, and no builder but Gemini's and Bedrock's
// reads the host at all; the Worker refuses no
// request a provider takes (worker/README.md). 300 hosts: past the 256 kinds too.
import { describe, expect, it } from "vitest";
import { postToFailingProvider } from "./client-support.ts";
import { testEnv } from "./support.ts";

const env = testEnv({
  ANTHROPIC_API_KEY: "k",
  ANTHROPIC_BASE_URL: "https://provider.test/v1",
  OPENAI_API_KEY: "k",
  OPENAI_BASE_URL: "https://provider.test/v1",
  CLIENT_TOKEN: "t",
});
const HOSTS = 300;

describe("image URLs on many hosts reach a provider that fetches any URL", () => {
  it(`/v1/messages: ${HOSTS} images, each on its own shop's host, to Anthropic (which refuses past its own 100, not the Worker)`, async () => {
    const content = Array.from({ length: HOSTS }, (_, i) => ({
      type: "image",
      source: { type: "url", url: `https://cdn.shop${i}.example/product.jpg` },
    }));
    const { text, upstream } = await postToFailingProvider(
      "/v1/messages",
      {
        model: "anthropic/claude-sonnet-4-5",
        max_tokens: 10,
        messages: [{ role: "user", content }],
      },
      env,
    );
    expect(text).not.toContain("kinds");
    expect(upstream.requests).toHaveLength(1);
  });

  it(`/v1/chat/completions: ${HOSTS} image_url parts on distinct hosts, to OpenAI (takes 500)`, async () => {
    const content = Array.from({ length: HOSTS }, (_, i) => ({
      type: "image_url",
      image_url: { url: `https://img${i}.example/a.png` },
    }));
    const { text, upstream } = await postToFailingProvider(
      "/v1/chat/completions",
      {
        model: "openai/gpt-4o-mini",
        messages: [{ role: "user", content }],
      },
      env,
    );
    expect(text).not.toContain("kinds");
    expect(upstream.requests).toHaveLength(1);
  });
});
