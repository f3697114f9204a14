// A file's media type read from its name or URL (client-files.ts mediaTypeOfName) and an audio
// part's format, on every client route that reads one: a name ending in an Object.prototype key
// (`a.constructor`) was a 500 (the table's inherited `Object` taken as a media type), and a name
// of many `.a#` runs and a line break was read by a regular expression retried from every `.`
// (quadratic: a 1.5 MB image URL held workerd a minute).
import { describe, expect, it } from "vitest";
import { mediaTypeOfName, mediaTypeOfUrl } from "../../worker/protocols/client-files.ts";
import { FakeUpstream, testEnv, worker } from "./support.ts";

const env = testEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });
const model = "anthropic/claude-x";
const NAMED = "https://example.com/a.constructor";
const agUI = (content: unknown[]) => ({
  threadId: "t",
  runId: "r",
  state: {},
  tools: [],
  context: [],
  forwardedProps: { model },
  messages: [{ id: "m", role: "user", content }],
});

/** Each route's part with a file of name or URL `name`. */
const ROUTES: [string, string, (name: string) => unknown][] = [
  [
    "chat image_url",
    "/v1/chat/completions",
    (url) => ({ model, messages: [{ role: "user", content: [{ type: "image_url", image_url: { url } }] }] }),
  ],
  [
    "chat file filename",
    "/v1/chat/completions",
    (filename) => ({
      model,
      messages: [{ role: "user", content: [{ type: "file", file: { filename, file_data: "JVBERi0xLjQK" } }] }],
    }),
  ],
  [
    "responses input_file filename",
    "/v1/responses",
    (filename) => ({
      model,
      input: [{ role: "user", content: [{ type: "input_file", filename, file_data: "JVBERi0xLjQK" }] }],
    }),
  ],
  [
    "responses input_file file_url",
    "/v1/responses",
    (file_url) => ({ model, input: [{ role: "user", content: [{ type: "input_file", file_url }] }] }),
  ],
  [
    "messages document url",
    "/v1/messages",
    (url) => ({
      model,
      max_tokens: 10,
      messages: [{ role: "user", content: [{ type: "document", source: { type: "url", url } }] }],
    }),
  ],
  ["ag-ui document url", "/v1/ag-ui", (value) => agUI([{ type: "document", source: { type: "url", value } }])],
];

async function send(path: string, body: unknown) {
  const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const response = await worker(upstream).call(
    new Request(`http://localhost:8787${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t", "x-api-key": "t" },
      body: JSON.stringify(body),
    }),
    env,
  );
  return { response, upstream, text: await response.text() };
}

describe("a file named after an Object.prototype key", () => {
  for (const [name, path, body] of ROUTES)
    it(`${name}: a.constructor is answered as a.zzz, the route's fallback type (was a 500)`, async () => {
      const named = await send(path, body(NAMED));
      const unknown = await send(path, body("https://example.com/a.zzz"));
      expect(named.response.status, named.text).not.toBe(500);
      // Answered as a name of an extension no table knows: the same status, the same provider request.
      expect([named.response.status, named.upstream.requests.length]).toEqual([
        unknown.response.status,
        unknown.upstream.requests.length,
      ]);
      expect(JSON.stringify(named.upstream.requests[0]?.body)).toBe(
        JSON.stringify(unknown.upstream.requests[0]?.body)?.replace("a.zzz", "a.constructor"),
      );
    });

  it("chat input_audio of format constructor or toString: a 400 naming the format (was a 500)", async () => {
    for (const format of ["constructor", "toString"]) {
      const { response, text } = await send("/v1/chat/completions", {
        model: "openai/gpt-4o-audio-preview",
        messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "UklGRgAAAAA=", format } }] }],
      });
      expect([response.status, JSON.parse(text).error.param]).toEqual([
        400,
        "messages[0].content[0].input_audio.format",
      ]);
    }
  });
});

describe("mediaTypeOfName and mediaTypeOfUrl", () => {
  it("reads the extension before the query or the fragment, whatever follows (a line break too)", () => {
    expect(mediaTypeOfUrl("https://example.com/a.PDF?x=1.png", "x/y")).toBe("application/pdf");
    expect(mediaTypeOfUrl("a.png#frag\nment", "x/y")).toBe("image/png");
    expect(mediaTypeOfName("a.tar.gz", "x/y")).toBe("x/y");
    expect(mediaTypeOfUrl("https://example.com/a.b/c", "x/y")).toBe("x/y");
    expect(mediaTypeOfName(".", "x/y")).toBe("x/y");
    for (const key of ["constructor", "toString", "__proto__", "hasOwnProperty"])
      expect(mediaTypeOfName(`a.${key}`, "x/y")).toBe("x/y");
  });

  it("reads a 600 KB name of `.a#` runs and a line break in one pass (main's expression: minutes)", () => {
    // No time is asserted: main's regular expression does not return within the test's timeout.
    expect(mediaTypeOfUrl(`${".a#".repeat(200_000)}\n`, "x/y")).toBe("x/y");
    expect(mediaTypeOfUrl(`a.png${"#.a".repeat(200_000)}\n`, "x/y")).toBe("image/png");
  });
});
