// A Gemini Interactions upstream's text annotations (Google Search grounding) through the Worker,
// read by openai-node: POST /v1/chat/completions gives the message a url_citation per annotation,
// and POST /v1/responses the output_text, each announced; their positions are UTF-16 code units of
// the text the client got, though Interactions counts them in UTF-8 bytes (the text here is
// Japanese with an emoji). The upstream's stream: test/providers/gemini-interactions/citations-recordings.ts.
import { describe, expect, it } from "vitest";
import { TOKYO_PLACE, tokyo, url } from "../providers/gemini-interactions/citations-recordings.ts";
import { chatCitedSpans, openAIClient, responsesCitedSpans } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({ GEMINI_API_KEY: "AIza-test-0123456789", CLIENT_TOKEN: "t" });
const body = tokyo([[url(0, 15)], [url(27, 42, "b"), TOKYO_PLACE]]);
const client = () => openAIClient(new FakeUpstream({ kind: "sse", chunks: [body] }), env);
const MODEL = "gemini-interactions/gemini-3-flash-preview";
const QUESTION = "東京タワーの高さは?";
/** What each annotation cites, in the order they came. */
const CITED = ["東京タワー", "333メートル", "🗼"];

describe("a Gemini Interactions upstream's text annotations through the Worker", () => {
  it("POST /v1/chat/completions: a url_citation over each, whole or streamed", async () => {
    const { spans, titles, streamedSame } = await chatCitedSpans(client, MODEL, QUESTION);
    expect(spans).toEqual(CITED);
    expect(titles).toEqual(["a.example", "b.example", "Tokyo Tower"]);
    expect(streamedSame).toBe(true);
  });

  it("POST /v1/responses: the output_text's url_citations, each announced", async () => {
    const { spans, announced } = await responsesCitedSpans(client(), MODEL, QUESTION);
    expect(spans).toEqual(CITED);
    expect(announced).toBe(spans.length);
  });
});
