// A `data:` URL's scheme, media type and `;base64` are case-insensitive, spaces may precede `base64` (RFC 2397 over RFC 2045's
// tokens; the WHATWG fetch spec's data: URL processor matches `;base64` ASCII case-insensitively and
// lowercases the MIME type). `DATA:IMAGE/PNG;BASE64,...` is the same image as `data:image/png;base64,...`.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PDF = "JVBERi0xLjQK";

const env = testEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });

const sendToAnthropic = async (content: OpenAI.Chat.ChatCompletionContentPart[]) => {
  const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const client = new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });
  const error = await client.chat.completions
    .create({ model: "anthropic/claude-x", messages: [{ role: "user", content }] })
    .catch((caught: unknown) => caught);
  return { upstream, error };
};

describe("a data: URL in any letter case", () => {
  it("an image_url and a file in upper case reach Anthropic as base64 blocks", async () => {
    const { upstream } = await sendToAnthropic([
      { type: "image_url", image_url: { url: `DATA:IMAGE/PNG;BASE64,${PNG}` } },
      { type: "file", file: { filename: "a.pdf", file_data: `Data:Application/PDF;Base64,${PDF}` } },
    ]);
    expect(upstream.requests).toHaveLength(1);
    expect((upstream.requests[0]!.body as any).messages[0].content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, title: "a.pdf" },
    ]);
  });

  it("spaces before base64 and around the header", async () => {
    const { upstream } = await sendToAnthropic([
      { type: "image_url", image_url: { url: `data: image/png ;  BASE64 ,${PNG}` } },
    ]);
    expect(upstream.requests).toHaveLength(1);
    expect((upstream.requests[0]!.body as any).messages[0].content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
    ]);
  });

  it("a tab or a line break inside the header, which the URL parser drops", async () => {
    for (const url of [`data:image/png;\tbase64,${PNG}`, `data:image/png;\nbase64,${PNG}`]) {
      const { upstream } = await sendToAnthropic([{ type: "image_url", image_url: { url } }]);
      expect(upstream.requests, JSON.stringify(url)).toHaveLength(1);
    }
  });

  it("a data: URL that is not base64 is still a 400 naming the part", async () => {
    const { upstream, error } = await sendToAnthropic([
      { type: "image_url", image_url: { url: "DATA:image/png,abc" } },
    ]);
    expect(upstream.requests).toHaveLength(0);
    expect(error).toMatchObject({ status: 400 });
    expect(String((error as Error).message)).toContain("messages[0].content[0].image_url.url");
  });
});
