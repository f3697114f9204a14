// A data: URL's base64 read as `fetch(url)` reads it (the fetch spec's data: URL processor and the
// infra spec's forgiving-base64 decode): wrapped every 76 columns, spaced, or unpadded base64 is the
// same file a browser decodes, and reaches the provider as canonical base64; a body fetch fails on
// stays a 400 naming the part. Through every protocol that takes a data: URL.
import { HttpAgent } from "@ag-ui/client";
import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { canonicalBase64 } from "../../worker/request/forgiving-base64.ts";
import { openAIClient, workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const wrapped = (text: string, columns: number, eol: string) =>
  Array.from({ length: Math.ceil(text.length / columns) }, (_, i) => text.slice(i * columns, (i + 1) * columns)).join(
    eol,
  );
// Bodies fetch decodes to PNG's bytes.
const GOOD: Record<string, string> = {
  "wrapped at 76 columns (CRLF)": wrapped(PNG, 76, "\r\n"),
  "wrapped at 40 columns (LF)": `${wrapped(PNG, 40, "\n")}\n`,
  "spaces, tabs and a form feed": ` ${PNG.slice(0, 10)} \t${PNG.slice(10, 30)}\f${PNG.slice(30)} `,
  "no padding": PNG.replace(/==$/, ""),
  "padding after a line break": `${PNG.slice(0, -2)}\n==`,
  "percent-escaped letters and padding": `${PNG.slice(0, -2).replace("+", "%2B").replace("/", "%2f")}%3D%3D`,
  "a fragment": `${PNG}#page=1`,
  // The URL parser drops tabs and line breaks before it reads a `%` escape: `%6\n9` is `i`.
  "an escape a line break splits": `%6\n9${PNG.slice(1)}`,
};
const BAD: Record<string, string> = {
  "one letter over a multiple of 4": `${PNG.slice(0, -2)}AAA`,
  "padding that does not complete 4": `${PNG.slice(0, -1)}`,
  "a letter after padding": `${PNG}AA==`,
  "three padding": `${PNG.slice(0, -2)}A===`,
  "a character outside base64": `${PNG.slice(0, 10)}-${PNG.slice(11)}`,
  "an escaped percent": `%25${PNG}`,
};

const env = testEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });
const fake = () => new FakeUpstream({ kind: "response", status: 500, body: "{}" });
const blocks = (upstream: FakeUpstream) => (upstream.requests[0]!.body as any).messages[0].content;
const IMAGE = { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } };

const chat = async (content: OpenAI.Chat.ChatCompletionContentPart[]) => {
  const upstream = fake();
  const error = await openAIClient(upstream, env)
    .chat.completions.create({ model: "anthropic/claude-x", messages: [{ role: "user", content }] })
    .catch((caught: unknown) => caught);
  return { upstream, error };
};

describe("the decoder agrees with atob (the HTML spec's forgiving-base64)", () => {
  const cases = [
    "",
    "QQ",
    "QR",
    "QUI",
    "QUJ",
    "QUJD",
    "Q Q = =",
    "QQ=",
    "QQ==",
    "QUI=",
    "Q",
    "QQ=A",
    "====",
    "QQ===",
    "QUJD\n",
  ];
  for (const body of [...cases, ...Object.values(GOOD).filter((b) => !/[%#]/.test(b)), ...Object.values(BAD)])
    it(JSON.stringify(body.slice(0, 24)), () => {
      let expected: string | undefined;
      try {
        expected = btoa(atob(body.replace(/\s+$/, "")));
      } catch {
        expected = undefined;
      }
      expect(canonicalBase64(body)).toBe(/%25/.test(body) ? undefined : expected);
    });
});

describe("/v1/chat/completions: image_url and file parts", () => {
  for (const [name, body] of Object.entries(GOOD))
    it(`${name}: reaches Anthropic as the canonical base64`, async () => {
      const { upstream } = await chat([
        { type: "image_url", image_url: { url: `data:image/png;base64,${body}` } },
        { type: "file", file: { filename: "a.png", file_data: `data:image/png;base64,${body}` } },
      ]);
      expect(upstream.requests).toHaveLength(1);
      expect(blocks(upstream)).toEqual([IMAGE, IMAGE]);
    });
  for (const [name, body] of Object.entries(BAD))
    it(`${name}: a 400 naming the part`, async () => {
      const { upstream, error } = await chat([
        { type: "image_url", image_url: { url: `data:image/png;base64,${body}` } },
      ]);
      expect(upstream.requests).toHaveLength(0);
      expect(error).toMatchObject({ status: 400, param: "messages[0].content[0].image_url.url" });
    });
  it("a body of 200,000 spaces and one letter (within MAX_BODY_BYTES) is a 400 naming the part", async () => {
    const { error } = await chat([
      { type: "image_url", image_url: { url: `data:image/png;base64,${" ".repeat(200_000)}A` } },
    ]);
    expect(error).toMatchObject({ status: 400, param: "messages[0].content[0].image_url.url" });
  });
});

describe("bare base64 in file_data: canonical only, never read as a URL", () => {
  // A `#` or `%` in bare base64 is no fragment or escape: the file is refused, not cut short there.
  for (const data of ["JVBERi0x#LjQKJeLjz9MK", "JVBERi0x%4C%4C%4C%3D", wrapped(PNG, 76, "\r\n")])
    it(`${JSON.stringify(data.slice(0, 12))}: a 400 naming file_data (Chat and Responses)`, async () => {
      const { upstream, error } = await chat([{ type: "file", file: { filename: "a.pdf", file_data: data } }]);
      expect(upstream.requests).toHaveLength(0);
      expect(error).toMatchObject({ status: 400, param: "messages[0].content[0].file.file_data" });
      const responses = fake();
      const refused = await openAIClient(responses, env)
        .responses.create({
          model: "anthropic/claude-x",
          input: [{ role: "user", content: [{ type: "input_file", filename: "a.pdf", file_data: data }] }],
        })
        .catch((caught: unknown) => caught);
      expect(responses.requests).toHaveLength(0);
      expect(refused).toMatchObject({ status: 400, param: "input[0].content[0].file_data" });
    });
  it("canonical bare base64 reaches the provider as it was sent", async () => {
    const { upstream } = await chat([{ type: "file", file: { filename: "a.png", file_data: PNG } }]);
    expect(blocks(upstream)).toEqual([IMAGE]);
  });
});

describe("the other protocols' data: URLs", () => {
  const url = `data:image/png;base64,${wrapped(PNG.replace(/==$/, ""), 76, "\r\n")}`;
  it("/v1/responses input_image", async () => {
    const upstream = fake();
    await openAIClient(upstream, env)
      .responses.create({
        model: "anthropic/claude-x",
        input: [{ role: "user", content: [{ type: "input_image", image_url: url, detail: "auto" }] }],
      })
      .catch(() => undefined);
    expect(blocks(upstream)).toEqual([IMAGE]);
  });
  it("/v1/responses input_file", async () => {
    const upstream = fake();
    await openAIClient(upstream, env)
      .responses.create({
        model: "anthropic/claude-x",
        input: [{ role: "user", content: [{ type: "input_file", filename: "a.png", file_data: url }] }],
      })
      .catch(() => undefined);
    expect(blocks(upstream)).toEqual([IMAGE]);
  });
  it("/v1/messages url source", async () => {
    const upstream = fake();
    await workerFetch({ env, upstream })("http://localhost:8787/v1/messages", {
      method: "POST",
      headers: { "x-api-key": "t", "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({
        model: "anthropic/claude-x",
        max_tokens: 16,
        messages: [{ role: "user", content: [{ type: "image", source: { type: "url", url } }] }],
      }),
    }).then((response) => response.text());
    expect(blocks(upstream)).toEqual([IMAGE]);
  });
  it("/v1/ui file part", async () => {
    const upstream = fake();
    await workerFetch({ env, upstream })("http://localhost:8787/v1/ui", {
      method: "POST",
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      body: JSON.stringify({
        model: "anthropic/claude-x",
        messages: [{ id: "u1", role: "user", parts: [{ type: "file", mediaType: "image/png", url }] }],
      }),
    }).then((response) => response.text());
    expect(blocks(upstream)).toEqual([IMAGE]);
  });
  it("/v1/ag-ui url source", async () => {
    const upstream = fake();
    const agent = new HttpAgent({
      url: "http://localhost:8787/v1/ag-ui",
      threadId: "thread_1",
      initialMessages: [
        { id: "m1", role: "user", content: [{ type: "image", source: { type: "url", value: url } }] } as never,
      ],
      headers: { authorization: "Bearer t" },
      fetch: workerFetch({ env, upstream }),
    });
    await agent.runAgent({ forwardedProps: { model: "anthropic/claude-x" } }).catch(() => undefined);
    expect(blocks(upstream)).toEqual([IMAGE]);
  });
});
