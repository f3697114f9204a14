// Images and files in a ProviderRequest (issue 35): every kit writes a user message's files and a
// tool result's in its provider's documented form; a provider whose tool results hold text only is
// sent the files in a user message right after the results; what a provider cannot take is an
// invalid-request error naming the part and the provider.
import {
  PROVIDERS,
  providerKit,
  ToolCallStreamError,
  type Provider,
  type RequestContentPart,
  type RequestFilePart,
  type RequestMessage,
} from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const png: RequestFilePart = { type: "file", mediaType: "image/png", source: { type: "base64", data: PNG } };
const pdf: RequestFilePart = {
  type: "file",
  mediaType: "application/pdf",
  source: { type: "base64", data: "JVBERi0xLjQK" },
  filename: "a.pdf",
};
const text = (value: string): RequestContentPart => ({ type: "text", text: value });

const body = (provider: Provider, messages: RequestMessage[]) =>
  providerKit(provider).requestBody({ model: "m", messages, tools: [] }) as Record<string, any>;

/** The invalid-request error a body throws: its path and message. */
function refusal(provider: Provider, parts: RequestContentPart[]): { path: string | undefined; message: string } {
  try {
    body(provider, [{ role: "user", content: "", parts }]);
  } catch (error) {
    assert(error instanceof ToolCallStreamError && error.code === "invalid-request", String(error));
    return { path: error.info.path, message: error.message };
  }
  throw new Error(`${provider} took the parts`);
}

/** A turn whose tool result carries a screenshot, then the user's next question. */
const screenshotTurn: RequestMessage[] = [
  { role: "user", content: "Screenshot." },
  { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "shot", arguments: {} }] },
  { role: "tool", toolCallId: "c1", name: "shot", content: "Done.", parts: [text("Done."), png] },
  { role: "tool", toolCallId: "c2", name: "shot", content: "Also." },
  { role: "user", content: "What do you see?" },
];

group("Provider kits: files in a request", (test) => {
  test("every kit takes a PNG as base64 in a user message, and keeps the text beside it", () => {
    for (const provider of PROVIDERS) {
      const sent = JSON.stringify(body(provider, [{ role: "user", content: "Look.", parts: [text("Look."), png] }]));
      assert(sent.includes(PNG), `${provider} lost the image`);
      assert(sent.includes("Look."), `${provider} lost the text`);
    }
  });

  test("a message without parts is sent as before (its text alone)", () => {
    for (const provider of PROVIDERS) {
      const plain = body(provider, [{ role: "user", content: "Hi" }]);
      const empty = body(provider, [{ role: "user", content: "Hi", parts: [text("Hi")] }]);
      assertEquals(JSON.stringify(empty), JSON.stringify(plain), provider);
    }
  });

  test("OpenAI Chat, Cohere and Ollama: a result's files follow the run of results in a user message", () => {
    const chat = body("openai", screenshotTurn)["messages"];
    assertEquals(
      chat.map((m: Record<string, unknown>) => m["role"]),
      ["user", "assistant", "tool", "tool", "user", "user"],
    );
    assertEquals(chat[2], { role: "tool", tool_call_id: "c1", content: "Done." });
    assertEquals(chat[4], {
      role: "user",
      content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } }],
    });
    const ollama = body("ollama", screenshotTurn)["messages"];
    assertEquals(ollama[4], { role: "user", content: "", images: [PNG] });
    const cohere = body("cohere", screenshotTurn)["messages"];
    assertEquals(cohere[4]["content"][0]["type"], "image_url");
  });

  test("Gemini: a result's image follows its functionResponse in the same user turn", () => {
    const contents = body("gemini", screenshotTurn)["contents"];
    assertEquals(contents[2]["parts"][1], { inlineData: { mimeType: "image/png", data: PNG } });
  });

  test("Gemini Interactions: a result with files is a list of content blocks", () => {
    const input = body("gemini-interactions", screenshotTurn)["input"];
    assertEquals(input[2]["result"], [
      { type: "text", text: "Done." },
      { type: "image", data: PNG, mime_type: "image/png" },
    ]);
  });

  test("an image's detail original is OpenAI Responses' alone: OpenAI Chat and Cohere are sent high", () => {
    const original: RequestFilePart = { ...png, detail: "original" };
    const sent = (provider: Provider) =>
      JSON.stringify(body(provider, [{ role: "user", content: "", parts: [original] }]));
    assert(sent("openai-responses").includes('"detail":"original"'), sent("openai-responses"));
    for (const provider of ["openai", "cohere"] as const) {
      assert(sent(provider).includes('"detail":"high"'), sent(provider));
      assert(!sent(provider).includes("original"), sent(provider));
    }
  });

  test("Anthropic takes a plain-text file as a document with a text source", () => {
    const file: RequestFilePart = {
      type: "file",
      mediaType: "text/plain",
      source: { type: "base64", data: "aMOpbGxv" },
      filename: "notes.txt",
    };
    assertEquals(body("anthropic", [{ role: "user", content: "", parts: [file] }])["messages"][0]["content"], [
      { type: "document", source: { type: "text", media_type: "text/plain", data: "héllo" }, title: "notes.txt" },
    ]);
  });

  test("Bedrock names a document with the characters Converse takes", () => {
    const named = { ...pdf, filename: "Q3 report (final)_v2.pdf" };
    const sent = body("bedrock", [{ role: "user", content: "", parts: [named] }])["messages"][0]["content"][0];
    assertEquals(sent, {
      document: { format: "pdf", name: "Q3 report (final)-v2", source: { bytes: "JVBERi0xLjQK" } },
    });
  });

  test("what a provider cannot take is an invalid-request naming the part and the provider", () => {
    const url: RequestFilePart = {
      type: "file",
      mediaType: "image/*",
      source: { type: "url", url: "https://example.com/a" },
    };
    const cases: [Provider, RequestContentPart[], string][] = [
      ["ollama", [text("x"), pdf], "Ollama"],
      ["ollama", [url], "Ollama"],
      ["cohere", [pdf], "Cohere"],
      ["bedrock", [url], "Bedrock"],
      ["gemini", [url], "Gemini"],
      ["gemini-interactions", [url], "Gemini Interactions"],
      ["anthropic", [{ ...png, mediaType: "image/tiff" }], "Anthropic"],
      ["openai", [{ ...pdf, source: { type: "url", url: "https://example.com/a.pdf" } }], "OpenAI Chat Completions"],
    ];
    for (const [provider, parts, name] of cases) {
      const { path, message } = refusal(provider, parts);
      assertEquals(path, `messages[0].parts[${parts.length - 1}]`, provider);
      assert(message.startsWith(`${name} cannot take this file`), message);
    }
  });
});
