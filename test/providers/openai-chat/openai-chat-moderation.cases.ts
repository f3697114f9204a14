import fc from "fast-check";
import { streamToolCalls as chatSubpath } from "../../../src/openai.ts";
import { streamToolCalls as responsesSubpath } from "../../../src/openai-responses.ts";
import {
  type FinishEvent,
  OpenAIChatEncoderStream,
  readOpenAIChatCompletion,
  readOpenAIResponse,
  streamToolCalls,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt, textOf } from "../../support/streams.ts";
import { chatModerated, chatModeration, responsesModerated, responsesModeration } from "./moderation-recordings.ts";

// OpenAI's moderated completions: the results OpenAI sends back (Chat's moderation chunk, a
// response's `moderation`) reach the finish's `moderation` as sent, and the Chat and Responses
// encoders write them in their protocol's shape. The streams and their sources: moderation-recordings.ts.
const read = async (body: string, provider: "openai" | "openai-responses", cuts: number[] = []) => {
  const events = await collect(streamToolCalls(fromChunks(splitAt(bytes(body), cuts)), { provider }));
  assertEventInvariants(events, true);
  return events;
};
const finishOf = (events: ToolCallEvent[]): FinishEvent => assertFinished(events);
const pick = ({ reason, text, moderation }: FinishEvent) => ({ reason, text, moderation });
const eventsOf = (events: ToolCallEvent[]) => fromChunks(events);

group("OpenAI moderated completions (moderation results)", (test) => {
  test("a Chat stream's moderation chunk is the finish's moderation, as sent, at any split", async () => {
    const body = chatModerated();
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes(body).length - 1 }), { maxLength: 4 }),
        async (cuts) => {
          const finish = finishOf(await read(body, "openai", cuts));
          assertEquals(pick(finish), { reason: "stop", text: "Bolts are 12 cents.", moderation: chatModeration() });
        },
      ),
      { numRuns: 15 },
    );
  });

  test("a blocked answer: a content-filter finish with the flagged results (Chat and Responses)", async () => {
    assertEquals(pick(finishOf(await read(chatModerated(true), "openai"))), {
      reason: "content-filter",
      text: "Bolts are ",
      moderation: chatModeration(true),
    });
    assertEquals(pick(finishOf(await read(responsesModerated(true), "openai-responses"))), {
      reason: "content-filter",
      text: "Bolts are ",
      moderation: responsesModeration(true),
    });
  });

  test("a response's moderation is the finish's; the provider subpaths read it too", async () => {
    assertEquals(finishOf(await read(responsesModerated(), "openai-responses")).moderation, responsesModeration());
    const chat = await collect(chatSubpath(fromChunks([bytes(chatModerated())])));
    const responses = await collect(responsesSubpath(fromChunks([bytes(responsesModerated())])));
    assertEquals(
      [finishOf(chat).moderation, finishOf(responses).moderation],
      [chatModeration(), responsesModeration()],
    );
  });

  test("results nested deeper than maxDepth are left out with a too-deep error, the stream going on", async () => {
    const body = bytes(chatModerated());
    const events = await collect(streamToolCalls(fromChunks([body]), { provider: "openai", maxDepth: 3 }));
    const errors = events.flatMap((event) => (event.type === "error" ? [event.error.code] : []));
    assertEquals(
      [errors, finishOf(events).moderation, finishOf(events).text],
      [["too-deep"], undefined, "Bolts are 12 cents."],
    );
  });

  test("the Chat encoders write the moderation chunk and field; a Responses side maps onto Chat's", async () => {
    for (const [body, provider] of [
      [chatModerated(), "openai"],
      [responsesModerated(), "openai-responses"],
    ] as const) {
      const events = await read(body, provider);
      const sse = textOf(await collect(eventsOf(events).pipeThrough(new OpenAIChatEncoderStream({ model: "m" }))));
      const chunks = sse
        .split("\n\n")
        .filter((frame) => frame.startsWith("data: {"))
        .map((frame) => JSON.parse(frame.slice(6)) as Record<string, unknown>);
      const moderated = chunks.filter((chunk) => chunk["moderation"] !== undefined);
      assertEquals([provider, moderated.length, moderated[0]?.["choices"]], [provider, 1, []]);
      assertEquals(moderated[0]?.["moderation"], chatModeration());
      const result = await readOpenAIChatCompletion(eventsOf(events), { model: "m" });
      assertEquals(result.type === "completion" && result.completion.moderation, chatModeration());
    }
  });

  test("the Responses encoder puts it on the response; Chat's maps when each side holds one result", async () => {
    for (const [body, provider] of [
      [responsesModerated(), "openai-responses"],
      [chatModerated(), "openai"],
    ] as const) {
      const { response } = await readOpenAIResponse(eventsOf(await read(body, provider)), { model: "m" });
      assertEquals([provider, response.moderation], [provider, responsesModeration()]);
    }
    // Two results on a side: a response has no place for them, so it has no moderation.
    const { input, output } = chatModeration();
    const results = "results" in input ? [...input.results, ...input.results] : [];
    const several = { input: { ...input, results }, output };
    const events = [{ ...finishOf(await read(chatModerated(), "openai")), moderation: several }];
    const { response } = await readOpenAIResponse(eventsOf(events), { model: "m" });
    assertEquals([response.status, response.moderation], ["completed", undefined]);
  });
});
