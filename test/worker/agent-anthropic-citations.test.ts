// Anthropic's citations through the Worker (issue 34): Claude Code sends an earlier answer's
// cited text blocks back with their `citations` (the SDK's `TextBlockParam`), and an Anthropic
// upstream gets each one as its own block with them, asserted on the exact body the fake
// Anthropic receives; an upstream answer's citations reach a Messages client as Anthropic sends
// them (and come back), and a Responses client as `url_citation` annotations.
import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam, TextCitationParam } from "@anthropic-ai/sdk/resources/messages/messages";
import { describe, expect, it } from "vitest";
import { webCited, WEB as CITED } from "../providers/anthropic/citations-recordings.ts";
import { openAIClient, OPENAI_ANTHROPIC_ENV as env, workerFetch } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const sdk = (upstream: FakeUpstream): Anthropic =>
  new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });

/** The Citations page's document citation and a web search one, as `TextCitationParam`s. */
const CHAR: TextCitationParam = {
  type: "char_location",
  cited_text: "The grass is green. ",
  document_index: 0,
  document_title: "My Document",
  start_char_index: 0,
  end_char_index: 20,
};
const WEB: TextCitationParam = {
  type: "web_search_result_location",
  url: "https://ferries.example/timetable",
  title: "Ferry timetable",
  encrypted_index: "Eo8BCioIAhgBIiQ",
  cited_text: "Three crossings a day.",
};

describe("/v1/messages to an Anthropic upstream: cited text blocks", () => {
  it("the next turn sends each cited block with its citations, the text around it as blocks of its own", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const assistant: MessageParam = {
      role: "assistant",
      content: [
        { type: "text", text: "According to the document, " },
        { type: "text", text: "the grass is green", citations: [CHAR] },
        { type: "text", text: " and " },
        { type: "text", text: "there are three ferries a day", citations: [WEB, CHAR] },
      ],
    };
    await sdk(upstream)
      .messages.create({
        model: "anthropic/claude-x",
        max_tokens: 1024,
        stream: true,
        messages: [{ role: "user", content: "Tell me." }, assistant, { role: "user", content: "Thanks." }],
      })
      .catch(() => undefined);
    const sent = upstream.requests[0]!.body as { messages: MessageParam[] };
    expect(sent.messages[1]).toEqual(assistant);
  });

  it("citations with a response's fields (file_id) go back in the TextCitationParam shape; another provider gets the text", async () => {
    const cited = { type: "text" as const, text: "green", citations: [{ ...CHAR, file_id: null }] };
    const messages: MessageParam[] = [
      { role: "user", content: "Colour?" },
      { role: "assistant", content: [cited] },
      { role: "user", content: "Sure?" },
    ];
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    await sdk(upstream)
      .messages.create({ model: "anthropic/claude-x", max_tokens: 64, stream: true, messages })
      .catch(() => undefined);
    const sent = upstream.requests[0]!.body as { messages: MessageParam[] };
    expect(sent.messages[1]).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "green", citations: [CHAR] }],
    });
    const openai = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    await sdk(openai)
      .messages.create({ model: "openai/gpt-x", max_tokens: 64, stream: true, messages })
      .catch(() => undefined);
    expect((openai.requests[0]!.body as { messages: unknown[] }).messages[1]).toEqual({
      role: "assistant",
      content: "green",
    });
  });

  it("an upstream answer's citations reach Claude Code on its text block, and go back to Anthropic with it", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [webCited] });
    const client = sdk(upstream);
    const first: MessageParam = { role: "user", content: "When does the ferry run?" };
    const message = await client.messages
      .stream({ model: "anthropic/claude-x", max_tokens: 1024, messages: [first] })
      .finalMessage();
    const texts = message.content.flatMap((block) => (block.type === "text" ? [block] : []));
    expect(texts.flatMap((block) => block.citations ?? [])).toEqual([CITED]);
    await client.messages
      .create({
        model: "anthropic/claude-x",
        max_tokens: 1024,
        stream: true,
        messages: [first, { role: "assistant", content: message.content }, { role: "user", content: "Sundays?" }],
      })
      .catch(() => undefined);
    const sent = upstream.requests[1]!.body as { messages: MessageParam[] };
    const { type, url, title, encrypted_index, cited_text } = CITED;
    // The text before the search is a block of its own (the search's blocks, not sent back without
    // ANTHROPIC_SERVER_TOOLS, stood between): the cited block goes back with its citation.
    const citations = [{ type, url, title, encrypted_index, cited_text }];
    // The cited text is a block of its own, and so is the text after it, as Anthropic sent them.
    expect(texts.map((block) => block.text)).toEqual([
      "I'll look it up.",
      "There are three a day",
      ", the first at 8:00.",
    ]);
    expect(sent.messages[1]).toEqual({
      role: "assistant",
      content: texts.map(({ text }, i) => ({ type: "text", text, ...(i === 1 ? { citations } : {}) })),
    });
  });

  it("a Responses client gets them as the output_text's url_citation annotations", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [webCited] });
    const response = await openAIClient(upstream)
      .responses.stream({ model: "anthropic/claude-x", input: "When does the ferry run?" })
      .finalResponse();
    const message = response.output.find((item) => item.type === "message");
    const part = message?.type === "message" ? message.content[0] : undefined;
    const annotations = part?.type === "output_text" ? part.annotations : [];
    expect(annotations).toEqual([
      { type: "url_citation", url: CITED.url, title: CITED.title, start_index: 16, end_index: 37 },
    ]);
    expect(response.output_text.slice(16, 37)).toBe("There are three a day");
  });
});
