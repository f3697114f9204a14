// A `data:` URL's scheme, media type and `;base64` are case-insensitive, spaces may precede `base64` (RFC 2397 over RFC 2045's
// tokens; the WHATWG fetch spec's data: URL processor matches `;base64` ASCII case-insensitively and
// lowercases the MIME type). `DATA:IMAGE/PNG;BASE64,...` is the same image as `data:image/png;base64,...`.
// And the header is read in time linear in its length (review 73, HIGH on 1dc99b4b: a trim by
// /[\t\n\f\r ]+$/g tried again from each space of an inner run; 60,000 spaces cost about 3.4 s of CPU
// in Node 20 and 2.3 s in workerd, 250,000 about 38 s a case, before the media type's 127-character
// limit is looked at).
import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { openAIClient } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PDF = "JVBERi0xLjQK";
// 250,000: 60,000 cost the quadratic trim ~2.5 s a case on a free core, under vitest's 5 s timeout,
// so the test could not catch it; the linear trim answers at once.
const SPACES = 250_000;

const env = testEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });

const sendToAnthropic = async (content: OpenAI.Chat.ChatCompletionContentPart[]) => {
  const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const error = await openAIClient(upstream, env)
    .chat.completions.create({ model: "anthropic/claude-x", messages: [{ role: "user", content }] })
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

describe("a data: URL header of many inner spaces", () => {
  for (const [name, header] of [
    ["inside the media type", `image/png${" ".repeat(SPACES)}x;base64`],
    ["before the ;", `image/png${" ".repeat(SPACES)}x ;base64`],
  ] as const)
    it(`${name}: a 400 naming the part, without a scan per space`, async () => {
      const url = `data:${header},iVBORw0KGgo=`;
      const { upstream, error } = await sendToAnthropic([{ type: "image_url", image_url: { url } }]);
      expect(upstream.requests).toHaveLength(0);
      expect(error).toMatchObject({ status: 400 });
      expect(String((error as Error).message)).toContain("messages[0].content[0].image_url.url");
    });
});
