// MAX_REQUEST_FILES refuses no request a provider takes: Gemini takes up to 3,000 images a prompt
// (Vertex AI's image-understanding page, Gemini 2.5 Pro / Flash), so 3,000 small inline images to
// Gemini, well inside the 20 MiB of files, reach the provider.
import { describe, expect, it } from "vitest";
import { MAX_REQUEST_FILES } from "../../worker/request/file-parts.ts";
import { FakeUpstream, testEnv, worker } from "./support.ts";

// 3 bytes: the Worker checks base64, not images; 3,001 parts fit /v1/stream's 256 KiB body.
const PNG = "AAAA";
const env = testEnv({ GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta", CLIENT_TOKEN: "t" });

describe("a request Gemini takes is not refused for its count of files", { timeout: 60_000 }, () => {
  it("/v1/stream: 3,000 inline images to Gemini reach the provider", async () => {
    expect(MAX_REQUEST_FILES).toBeGreaterThanOrEqual(3000);
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const content = Array.from({ length: 3000 }, () => ({ type: "file", media_type: "image/png", data: PNG }));
    const request = new Request("http://localhost:8787/v1/stream", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({ provider: "gemini", model: "gemini-2.5-flash", messages: [{ role: "user", content }] }),
    });
    const response = await worker(upstream).call(request, env);
    const text = await response.text();
    expect(text).not.toContain("files (images, documents, audio)");
    expect(upstream.requests).toHaveLength(1);
  });
});
