import fc from "fast-check";
import type { ChatCompletionAssistantMessageParam } from "openai/resources/chat/completions/completions";
import { assistantMessage, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import {
  ChatCitations,
  OpenAIChatDeltaStream,
  SSEDecoderStream,
  streamToolCalls as chatStreamToolCalls,
  ToolCallAccumulatorStream,
} from "../../../src/openai.ts";
import { ProviderDecoderStream } from "../../../src/core.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { CHAT_ANNOTATION, CHAT_ANNOTATION_FLAT, CHAT_CITED_TEXT, chatCited } from "./citations-recordings.ts";

// OpenAI Chat Completions url_citation annotations kept on the turn's text (the stream and its
// provenance: citations-recordings.ts).
const run = async (sse: string, cuts: number[] = [], maxToolCalls?: number): Promise<ToolCallEvent[]> => {
  const events = await collect(
    streamToolCalls(fromChunks(splitAt(bytes(sse), cuts)), { provider: "openai", maxToolCalls }),
  );
  assertEventInvariants(events, true);
  return events;
};
const PART = { type: "block", block: { type: "text", text: CHAT_CITED_TEXT, annotations: [CHAT_ANNOTATION_FLAT] } };
const cited = (finish: Extract<ToolCallEvent, { type: "finish" }>) =>
  (finish.reasoningParts ?? []).filter((part) => part.type === "block" && part.block["type"] === "text");
const cuts = (sse: string) => fc.uniqueArray(fc.integer({ min: 1, max: bytes(sse).length - 1 }), { maxLength: 6 });

group("OpenAI Chat annotations (delta.annotations url_citation)", (test) => {
  test("the annotated text is kept as a text block part with OpenAI Responses' flat url_citation, once, at any split", async () => {
    for (const repeat of [false, true]) {
      const sse = chatCited(repeat);
      await fc.assert(
        fc.asyncProperty(cuts(sse), async (at) => {
          const events = await run(sse, at);
          const finish = assertFinished(events);
          assertEquals([finish.text, finish.reason], [CHAT_CITED_TEXT, "stop"]);
          assertEquals(cited(finish), [PART], repeat ? "an annotation sent again is kept once" : "one annotation");
          // The part comes after the text it cites (the encoders place it at the text's end).
          const part = events.findIndex((event) => event.type === "reasoning-part");
          const lastText = events.map((event) => event.type).lastIndexOf("text-delta");
          assert(part > lastText, "after the text");
        }),
        { numRuns: 15 },
      );
    }
  });

  test("a stream cut after its finish, before [DONE], keeps them; a chunk of another choice does not count, one whose index is no number does", async () => {
    const cut = chatCited().replace("data: [DONE]\n\n", "");
    assertEquals(cited(assertFinished(await run(cut))), [PART], "at the input's end");
    const other = chatCited().replace(
      '"choices":[{"index":0,"delta":{"content":"([ruby',
      '"choices":[{"index":1,"delta":{"content":"([ruby',
    );
    assert(other !== chatCited(), "the link chunk moved to choice 1");
    assertEquals(cited(assertFinished(await run(other))), [], "choice 1's annotations are not the turn's");
    // An index that is no number is the first choice's, as the decoder reads its text.
    const odd = chatCited().replace(
      '"choices":[{"index":0,"delta":{"content":"([ruby',
      '"choices":[{"index":"0","delta":{"content":"([ruby',
    );
    assert(odd !== chatCited(), "the link chunk's index is a string");
    assertEquals(cited(assertFinished(await run(odd))), [PART], "its annotations are the turn's");
  });

  test("the annotations count against maxToolCalls: past it the stream ends too-many-tool-calls", async () => {
    const second = {
      type: "url_citation",
      url_citation: { ...CHAT_ANNOTATION.url_citation, url: "https://ruby.dev/" },
    };
    const sse = chatCited(false, [CHAT_ANNOTATION, second]);
    const events = await collect(streamToolCalls(fromChunks([bytes(sse)]), { provider: "openai", maxToolCalls: 1 }));
    // The annotations are past the limit (the turn keeps one reasoning part), then the stream ends.
    const errors = events.flatMap((event) => (event.type === "error" ? [event.error] : []));
    assertEquals(
      errors.map(({ code, message }) => `${code}: ${/annotations/.test(message)}`),
      ["too-many-tool-calls: true"],
    );
    assertEquals(events.at(-1), { type: "abort", reason: "limit-exceeded", discarded: [], error: errors[0] });
    // The same two sent again fit a limit of 2 (kept once, counted once).
    const fits = assertFinished(await run(chatCited(true, [CHAT_ANNOTATION, second]), [], 2));
    assertEquals((cited(fits)[0] as unknown as { block: { annotations: unknown[] } }).block.annotations.length, 2);
  });

  test("the next turn: Chat sends the text alone; Responses sends it as a plain message (no message id to annotate)", async () => {
    const finish = assertFinished(await run(chatCited()));
    const chat: ChatCompletionAssistantMessageParam = { role: "assistant", content: CHAT_CITED_TEXT };
    assertEquals(assistantMessage("openai", finish), chat);
    const items = assistantMessage("openai-responses", finish) as Record<string, unknown>[];
    assertEquals(items, [{ type: "message", role: "assistant", content: CHAT_CITED_TEXT }]);
  });

  test("the stage keeps them with ChatCitations as its decoder, and not without it; tool-call-stream/openai keeps none", async () => {
    const stage = async (decoder: TransformStream<never, never> | OpenAIChatDeltaStream) =>
      assertFinished(
        await collect(
          fromChunks([bytes(chatCited())])
            .pipeThrough(new SSEDecoderStream())
            .pipeThrough(decoder as OpenAIChatDeltaStream)
            .pipeThrough(new ToolCallAccumulatorStream()),
        ),
      );
    assertEquals(cited(await stage(new ProviderDecoderStream((emit) => new ChatCitations(emit)))), [PART]);
    assertEquals(cited(await stage(new OpenAIChatDeltaStream())), []);
    const lean = assertFinished(await collect(chatStreamToolCalls(fromChunks([bytes(chatCited())]))));
    assertEquals([lean.text, cited(lean)], [CHAT_CITED_TEXT, []]);
  });

  test("an SDK's parsed chunks (openai-node's stream) keep them too", async () => {
    const chunks = chatCited(true)
      .split("\n\n")
      .filter((frame) => frame.startsWith("data: {"))
      .map((frame) => JSON.parse(frame.slice(6)) as object);
    const finish = assertFinished(await collect(streamToolCalls(fromChunks(chunks), { provider: "openai" })));
    assertEquals(cited(finish), [PART]);
  });
});
