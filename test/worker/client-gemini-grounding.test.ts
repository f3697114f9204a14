// A Gemini upstream's Google Search grounding through the Worker, read by openai-node: POST
// /v1/chat/completions gives the message a url_citation per page of each grounding support, and
// POST /v1/responses the output_text, each announced; their positions are UTF-16 code units of the
// text the client got, though Gemini counts its segments in UTF-8 bytes (the text here is Japanese
// with emoji). The upstream's stream: test/providers/gemini/grounding-recordings.ts (built from
// @google/genai's types). The search's own prompt, which Gemini counts apart from the prompt, is in
// the usage's prompt_tokens.
import { describe, expect, it } from "vitest";
import { groundedWide, WIDE_SEGMENTS } from "../providers/gemini/grounding-recordings.ts";
import { chatCitedSpans, openAIClient, responsesCitedSpans } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({ GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta", CLIENT_TOKEN: "t" });
const client = () => openAIClient(new FakeUpstream({ kind: "sse", chunks: [groundedWide] }), env);
const MODEL = "gemini/gemini-2.5-flash";
const QUESTION = "東京タワーの高さは?";

describe("a Gemini upstream's grounding through the Worker", () => {
  it("POST /v1/chat/completions: url_citations over each support's segment, whole or streamed", async () => {
    const { spans, streamedSame } = await chatCitedSpans(client, MODEL, QUESTION);
    expect([...new Set(spans)]).toEqual([...WIDE_SEGMENTS]);
    expect(streamedSame).toBe(true);
  });

  it("the usage's prompt counts the search's prompt (toolUsePromptTokenCount), as the total does", async () => {
    // 12 prompt and 140 search prompt tokens, 14 of the answer: 166 in all.
    const counts = [12, 140, 14, 166];
    const names = ["promptTokenCount", "toolUsePromptTokenCount", "candidatesTokenCount", "totalTokenCount"];
    const usageMetadata = Object.fromEntries(names.map((name, at) => [name, counts[at]]));
    const body = `data: ${JSON.stringify({
      candidates: [{ content: { role: "model", parts: [{ text: "333 m." }] }, finishReason: "STOP", index: 0 }],
      usageMetadata,
    })}\r\n\r\n`;
    const searched = openAIClient(new FakeUpstream({ kind: "sse", chunks: [body] }), env);
    const completion = await searched.chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: QUESTION }],
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 152, completion_tokens: 14, total_tokens: 166 });
  });

  it("POST /v1/responses: the output_text's url_citations, each announced", async () => {
    const { spans, announced } = await responsesCitedSpans(client(), MODEL, QUESTION);
    expect([...new Set(spans)]).toEqual([...WIDE_SEGMENTS]);
    expect(announced).toBe(spans.length);
  });
});
