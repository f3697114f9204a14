// Anthropic's citations read by each protocol's real client (issue 34): @anthropic-ai/sdk's
// MessageStream keeps them on the text block, openai-node's Responses stream on the output_text's
// `annotations` (and its `response.output_text.annotation.added` event), openai-node's Chat
// Completions as the chunks' and the completion's `annotations`, and the AI SDK's
// readUIMessageStream as `source-url` / `source-document` parts (OpenAI Responses' file_citation and
// file_path too).
// A fetch stub serves the bytes.
import Anthropic from "@anthropic-ai/sdk";
import * as ai6 from "ai";
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import * as ai5strict from "ai-v5-0";
import * as ai5 from "ai-v5";
import * as ai7 from "ai-v7";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import {
  AnthropicMessagesEncoderStream,
  OpenAIChatEncoderStream,
  OpenAIResponsesEncoderStream,
  readOpenAIChatCompletion,
  streamToolCalls,
  UIMessageEncoderStream,
  type EncodableEvent,
  type Provider,
  type ToolCallEvent,
} from "../../src/index.ts";
import { CHAR, documentCited, WEB, webCited } from "../providers/anthropic/citations-recordings.ts";
import { documentCitedTurn } from "../providers/bedrock/citations-recordings.ts";
import { groundedWide, WIDE_SEGMENTS } from "../providers/gemini/grounding-recordings.ts";
import { serverToolTurn } from "../providers/bedrock/server-tools-recordings.ts";
import { ANNOTATIONS, FILE_PATH, responsesCited } from "../providers/openai-responses/citations-recordings.ts";
import { AGENT_OPTIONS, encodeAll, ENCODERS } from "../support/encoders.ts";
import { dataFrames } from "../support/protocol-readers.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

const eventsOf = (body: string | Uint8Array, provider: Provider = "anthropic"): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks([typeof body === "string" ? bytes(body) : body]), { provider }));
const body = (events: readonly EncodableEvent[], stage: TransformStream<EncodableEvent, Uint8Array>): Response =>
  new Response(fromChunks<EncodableEvent>(events).pipeThrough(stage), {
    headers: { "content-type": "text/event-stream" },
  });
const openai = (respond: () => Response): OpenAI =>
  new OpenAI({ apiKey: "t", baseURL: "http://127.0.0.1:9/v1", maxRetries: 0, fetch: async () => respond() });
const URL_CITATION = { url: WEB.url, title: WEB.title, start_index: 16, end_index: 37 };

describe("the client libraries read Anthropic's citations as their protocol spells them", () => {
  it("@anthropic-ai/sdk: finalMessage()'s text block has the citations Anthropic sent", async () => {
    for (const [sse, citation] of [
      [documentCited, CHAR],
      [webCited, WEB],
    ] as const) {
      const events = await eventsOf(sse);
      const client = new Anthropic({
        apiKey: "t",
        baseURL: "http://127.0.0.1:9",
        maxRetries: 0,
        fetch: async () => body(events, new AnthropicMessagesEncoderStream(AGENT_OPTIONS.anthropic())),
      });
      const message = await client.messages
        .stream({ model: "m", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
        .finalMessage();
      const texts = message.content.flatMap((block) => (block.type === "text" ? [block] : []));
      expect(texts.flatMap((block) => block.citations ?? [])).toEqual([citation]);
    }
  });

  it("openai-node Responses: the output_text's annotations, each announced by its event", async () => {
    const events = await eventsOf(webCited);
    const stream = openai(() =>
      body(events, new OpenAIResponsesEncoderStream(AGENT_OPTIONS.responses())),
    ).responses.stream({ model: "m", input: "hi" });
    const announced: unknown[] = [];
    stream.on("response.output_text.annotation.added", (event) => announced.push(event.annotation));
    const response = await stream.finalResponse();
    const message = response.output.find((item) => item.type === "message");
    const part = message?.type === "message" ? message.content[0] : undefined;
    const annotation = { type: "url_citation", ...URL_CITATION };
    expect(part).toMatchObject({ type: "output_text", annotations: [annotation] });
    expect(announced).toEqual([annotation]);
    expect(response.output_text.slice(16, 37)).toBe("There are three a day");
  });

  it("openai-node Chat Completions: the streamed delta's annotations, and the completion message's", async () => {
    const events = await eventsOf(webCited);
    const options = { model: "m", created: 1_700_000_000, generateId: () => "x" };
    const chunks = await openai(() => body(events, new OpenAIChatEncoderStream(options))).chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    const streamed: unknown[] = [];
    for await (const chunk of chunks)
      streamed.push(...((chunk.choices[0]?.delta as { annotations?: unknown[] } | undefined)?.annotations ?? []));
    const annotation = { type: "url_citation", url_citation: URL_CITATION };
    expect(streamed).toEqual([annotation]);
    const result = await readOpenAIChatCompletion(fromChunks<EncodableEvent>(events), options);
    if (result.type !== "completion") throw new Error("a completion");
    const completion = await openai(() => Response.json(result.completion)).chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(completion.choices[0]!.message.annotations).toEqual([annotation]);
  });

  it("openai-node Chat Completions: every cited block's annotation in the streamed message, not the last block's alone", async () => {
    // Two cited blocks: openai-node's stream keeps a delta's `annotations` in place of the last
    // delta's, so they go together in one delta before the finish, as OpenAI's search models send them.
    const second = { ...WEB, url: "https://ferries.example/fares", title: "Fares" };
    const cited = (text: string, citation: typeof WEB): ToolCallEvent[] => [
      { type: "text-delta", text },
      { type: "reasoning-part", part: { type: "block", block: { type: "text", text, citations: [citation] } } },
    ];
    const events: ToolCallEvent[] = [
      { type: "text-delta", text: "Ferries: " },
      ...cited("three a day", WEB),
      { type: "text-delta", text: ", " },
      ...cited("4 euros each", second),
      {
        type: "finish",
        reason: "stop",
        rawReason: "end_turn",
        toolCalls: [],
        invalidToolCalls: [],
        text: "Ferries: three a day, 4 euros each",
        reasoning: "",
      },
    ];
    const options = { model: "m", created: 1_700_000_000, generateId: () => "x" };
    const completion = await openai(() => body(events, new OpenAIChatEncoderStream(options)))
      .chat.completions.stream({ model: "m", messages: [{ role: "user", content: "hi" }] })
      .finalChatCompletion();
    const message = completion.choices[0]!.message;
    const span = (start: number, end: number, source: typeof WEB) => ({
      type: "url_citation",
      url_citation: { url: source.url, title: source.title, start_index: start, end_index: end },
    });
    expect(message.annotations).toEqual([span(9, 20, WEB), span(22, 34, second)]);
    expect([message.content!.slice(9, 20), message.content!.slice(22, 34)]).toEqual(["three a day", "4 euros each"]);
  });

  it("openai-node reads Gemini's grounding over Japanese and emoji: text.slice(start_index, end_index) is each segment's text", async () => {
    const events = await eventsOf(groundedWide, "gemini");
    const response = await openai(() => body(events, new OpenAIResponsesEncoderStream(AGENT_OPTIONS.responses())))
      .responses.stream({ model: "m", input: "hi" })
      .finalResponse();
    const message = response.output.find((item) => item.type === "message");
    const part = message?.type === "message" ? message.content[0] : undefined;
    const spans = (part?.type === "output_text" ? part.annotations : []).map((annotation) =>
      annotation.type === "url_citation"
        ? response.output_text.slice(annotation.start_index, annotation.end_index)
        : "",
    );
    expect([...new Set(spans)]).toEqual([...WIDE_SEGMENTS]);
    const options = { model: "m", created: 1_700_000_000, generateId: () => "x" };
    const completion = await openai(() => body(events, new OpenAIChatEncoderStream(options)))
      .chat.completions.stream({ model: "m", messages: [{ role: "user", content: "hi" }] })
      .finalChatCompletion();
    const chat = completion.choices[0]!.message;
    const chatSpans = (chat.annotations ?? []).map(({ url_citation: { start_index, end_index } }) =>
      chat.content!.slice(start_index, end_index),
    );
    expect(chatSpans).toEqual(spans);
  });

  it("ai's readUIMessageStream: a source-url part for a web page, a source-document part for a document", async () => {
    const parts = async (sse: string, provider?: Provider) => {
      const events = await eventsOf(sse, provider);
      const chunks = body(events, new UIMessageEncoderStream({ messageId: "msg_1" }))
        .body!.pipeThrough(new TextDecoderStream())
        .pipeThrough(
          new TransformStream<string, UIMessageChunk>({
            transform(text, controller) {
              for (const line of text.split("\n"))
                if (line.startsWith("data: {")) controller.enqueue(JSON.parse(line.slice(6)) as UIMessageChunk);
            },
          }),
        );
      let message: UIMessage | undefined;
      for await (const snapshot of readUIMessageStream({ stream: chunks })) message = snapshot;
      return message!.parts.filter((part) => part.type.startsWith("source-"));
    };
    expect(await parts(webCited)).toEqual([
      { type: "source-url", sourceId: "source-1", url: WEB.url, title: WEB.title },
    ]);
    expect(await parts(documentCited)).toEqual([
      { type: "source-document", sourceId: "source-1", mediaType: "text/plain", title: "My Document" },
    ]);
    // OpenAI Responses: the page, then the stored file its file_citation names.
    const [page, file] = ANNOTATIONS;
    expect(await parts(responsesCited(), "openai-responses")).toEqual([
      { type: "source-url", sourceId: "source-1", url: page.url, title: page.title },
      {
        type: "source-document",
        sourceId: "source-2",
        mediaType: "text/plain",
        title: file.filename,
        filename: file.filename,
      },
    ]);
    // A file the model made (file_path), named by its id alone and of no known type, as the AI
    // SDK's own OpenAI provider gives it (mediaType application/octet-stream, title and filename the id).
    expect(await parts(responsesCited(false, [FILE_PATH]), "openai-responses")).toEqual([
      {
        type: "source-document",
        sourceId: "source-1",
        mediaType: "application/octet-stream",
        title: FILE_PATH.file_id,
        filename: FILE_PATH.file_id,
      },
    ]);
  });

  it("the source chunks (Anthropic's, OpenAI's, Bedrock Converse's) conform to every ai version's uiMessageChunkSchema (5.0.53 strict, 5, 6, 7)", async () => {
    const chunks = [
      ...dataFrames(encodeAll(ENCODERS.ui(), await eventsOf(webCited))),
      ...dataFrames(encodeAll(ENCODERS.ui(), await eventsOf(documentCited))),
      ...dataFrames(encodeAll(ENCODERS.ui(), await eventsOf(responsesCited(), "openai-responses"))),
      ...dataFrames(encodeAll(ENCODERS.ui(), await eventsOf(responsesCited(false, [FILE_PATH]), "openai-responses"))),
      ...dataFrames(encodeAll(ENCODERS.ui(), await eventsOf(serverToolTurn, "bedrock"))),
      ...dataFrames(encodeAll(ENCODERS.ui(), await eventsOf(documentCitedTurn, "bedrock"))),
    ]
      .filter((frame) => frame.includes('"source-'))
      .map((frame) => JSON.parse(frame) as unknown);
    expect(chunks).toHaveLength(7);
    for (const schema of [ai5strict, ai5, ai6, ai7].map((sdk) => sdk.uiMessageChunkSchema as unknown)) {
      for (const chunk of chunks) {
        const result =
          typeof schema === "function"
            ? await (schema as () => { validate: (v: unknown) => Promise<{ success: boolean }> })().validate(chunk)
            : (schema as { safeParse: (v: unknown) => { success: boolean } }).safeParse(chunk);
        expect(result.success, JSON.stringify(chunk)).toBe(true);
      }
    }
  });
});
