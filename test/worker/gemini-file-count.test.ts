// MAX_REQUEST_FILES refuses no request a provider takes: Gemini takes up to 3,000 images a prompt
// (Vertex AI's image-understanding page, Gemini 2.5 Pro / Flash), so 3,000 small inline images to
// Gemini, well inside the 20 MiB of files, reach the provider.
import { describe, expect, it } from "vitest";
import { MAX_REQUEST_FILES } from "../../worker/request/file-parts.ts";
import { postToFailingProvider } from "./client-support.ts";
import { testEnv } from "./support.ts";

// 3 bytes: the Worker checks base64, not images; 3,001 parts fit /v1/stream's 256 KiB body.
const PNG = "AAAA";
const env = testEnv({ GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta", CLIENT_TOKEN: "t" });

describe("a request Gemini takes is not refused for its count of files", { timeout: 60_000 }, () => {
  it("/v1/stream: 3,000 inline images to Gemini reach the provider", async () => {
    expect(MAX_REQUEST_FILES).toBeGreaterThanOrEqual(3000);
    const content = Array.from({ length: 3000 }, () => ({ type: "file", media_type: "image/png", data: PNG }));
    const body = { provider: "gemini", model: "gemini-2.5-flash", messages: [{ role: "user", content }] };
    const { text, upstream } = await postToFailingProvider("/v1/stream", body, env);
    expect(text).not.toContain("files (images, documents, audio)");
    expect(upstream.requests).toHaveLength(1);
  });
});
