// A Gemini upstream's Google Search grounding through the Worker, read by openai-node: POST
// /v1/chat/completions gives the message a url_citation per page of each grounding support, and
// POST /v1/responses the output_text, each announced; their positions are UTF-16 code units of the
// text the client got, though Gemini counts its segments in UTF-8 bytes (the text here is Japanese
// with emoji). The upstream's stream: test/providers/gemini/grounding-recordings.ts (built from
// @google/genai's types).
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

  it("POST /v1/responses: the output_text's url_citations, each announced", async () => {
    const { spans, announced } = await responsesCitedSpans(client(), MODEL, QUESTION);
    expect([...new Set(spans)]).toEqual([...WIDE_SEGMENTS]);
    expect(announced).toBe(spans.length);
  });
});
