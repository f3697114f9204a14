// Gemini's grounding (a `{ groundingMetadata }` part, kept by GeminiGrounding) through the
// client-protocol encoders: the AI SDK UI stream shows each web grounding chunk's page once as a
// `source-url`, as the AI SDK's own Google provider gives search grounding as sources; the other
// protocols' citations sit on spans of the text, which Gemini's supports count in UTF-8 bytes of
// one part of the candidate, so they show the text alone. The stream:
// test/providers/gemini/grounding-recordings.ts (built from @google/genai's types).
import { AnthropicMessagesEncoder, OpenAIResponsesEncoder, streamToolCalls } from "../../src/index.ts";
import { GROUNDED_TEXT, GROUNDING, grounded } from "../providers/gemini/grounding-recordings.ts";
import { readMessagesEvents, readResponsesEvents } from "../support/agent-protocol-readers.ts";
import { AGENT_OPTIONS, ENCODERS, encodeAll } from "../support/encoders.ts";
import { assertEquals, group } from "../support/harness.ts";
import { dataFrames, readChatChunks, uiSourceChunks } from "../support/protocol-readers.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

group("Gemini grounding through the client-protocol encoders", (test) => {
  test("AI SDK UI: each web grounding chunk is a source-url, once; Responses and Chat show the text alone", async () => {
    const events = await collect(streamToolCalls(fromChunks([bytes(grounded)]), { provider: "gemini" }));
    const sources = uiSourceChunks(encodeAll(ENCODERS.ui(), events));
    assertEquals(
      sources,
      GROUNDING.groundingChunks.map(({ web }, i) => ({
        type: "source-url",
        sourceId: `source-${i + 1}`,
        url: web.uri,
        title: web.title,
      })),
    );
    const responses = readResponsesEvents(encodeAll(ENCODERS.responses(), events));
    assertEquals(responses.text, GROUNDED_TEXT);
    const parts = responses.items.flatMap(
      (item) => (item["content"] as { annotations?: unknown[] }[] | undefined) ?? [],
    );
    assertEquals(
      parts.flatMap((part) => part.annotations ?? []),
      [],
    );
    assertEquals(readChatChunks(encodeAll(ENCODERS.openai(), events)).choices.get(0)!.annotations, undefined);
  });

  test("Messages and Responses write no block for them, even with a signature / encrypted_content option: nothing goes back", async () => {
    const events = await collect(streamToolCalls(fromChunks([bytes(grounded)]), { provider: "gemini" }));
    // The options the Worker gives to carry a kept block through a client (a seal of the part).
    const seal = (part: unknown) => JSON.stringify(part);
    const messages = new AnthropicMessagesEncoder({ ...AGENT_OPTIONS.anthropic(), signature: seal });
    const content = readMessagesEvents(encodeAll(messages, events)).content;
    assertEquals(
      content.map((block) => block.type),
      ["text"],
    );
    const responses = new OpenAIResponsesEncoder({ ...AGENT_OPTIONS.responses(), encryptedContent: seal });
    assertEquals(
      readResponsesEvents(encodeAll(responses, events)).items.map((item) => item["type"]),
      ["message"],
    );
  });
  test("AI SDK UI: a page that two grounding chunks name is one source-url", async () => {
    const events = await collect(streamToolCalls(fromChunks([bytes(grounded)]), { provider: "gemini" }));
    // The same page in two chunks (and in a second step's grounding): shown once.
    const doubled = events.flatMap((event) =>
      event.type === "reasoning-part" && event.part.type === "block" && "groundingMetadata" in event.part.block
        ? [0, 1].map(() => ({
            ...event,
            part: {
              ...event.part,
              block: {
                groundingMetadata: {
                  ...GROUNDING,
                  groundingChunks: [...GROUNDING.groundingChunks, ...GROUNDING.groundingChunks],
                },
              },
            },
          }))
        : [event],
    );
    const sources = dataFrames(encodeAll(ENCODERS.ui(), doubled))
      .flatMap((frame) => (frame.startsWith("{") ? [JSON.parse(frame) as { type: string; url?: string }] : []))
      .filter((chunk) => chunk.type === "source-url");
    assertEquals(
      sources.map((chunk) => chunk.url),
      GROUNDING.groundingChunks.map(({ web }) => web.uri),
    );
  });
});
