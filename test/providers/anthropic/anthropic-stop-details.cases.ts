// Anthropic's `stop_details` (the SDK's `RefusalStopDetails`, @anthropic-ai/sdk 1.12.0: on
// `RawMessageDeltaEvent.Delta` and on a whole `Message`, `null` "when the stop_reason has no
// additional detail"): why the classifiers declined a request, `{ type: "refusal", category,
// explanation }`, each `null` when the refusal maps to no named category; the streaming-refusals
// guide has it arrive on the `message_delta` with the `stop_reason`. It reaches the finish as
// `refusal`, and each client protocol that has a place for a refusal: Messages as `stop_details`
// (`null` on any other stop, as Anthropic sends it), Chat Completions as the `refusal`, Responses
// as a `refusal` content part. Every stream is read by the protocol's strict reader.
//
// Provenance: built by hand from the guide's refusal response (`"category": "cyber"`, its
// explanation) in the shape of the streams Anthropic sends (`message_start` with empty content and
// `stop_details: null`, a `ping`, the `message_delta` with `stop_details`, `message_stop`, as
// vercel/ai's recorded anthropic-refusal stream has them); the ids are made up.
import type { BetaRefusalStopDetails } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import type { RefusalStopDetails } from "@anthropic-ai/sdk/resources/messages/messages";
import fc from "fast-check";
import {
  OpenAIResponsesEncoderStream,
  readAnthropicMessage,
  readOpenAIChatCompletion,
  readOpenAIResponse,
  streamToolCalls,
} from "../../../src/index.ts";
import type { EncodableEvent, FinishEvent, RefusalDetails } from "../../../src/index.ts";
import { readMessagesEvents, readResponsesEvents } from "../../support/agent-protocol-readers.ts";
import { AGENT_OPTIONS, ENCODERS, encodeAll } from "../../support/encoders.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { readConformingStream } from "../../support/open-responses.ts";
import { readChatChunks } from "../../support/protocol-readers.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { anthropicSse } from "./turn-blocks-recordings.ts";

const EXPLANATION = "This request was declined because it could enable cyber harm.";
const USAGE = { input_tokens: 412, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 };

const start = {
  type: "message_start",
  message: {
    id: "msg_01RefusedStream",
    type: "message",
    role: "assistant",
    model: "claude-fable-5",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    stop_details: null,
    usage: { ...USAGE, output_tokens: 1 },
  },
};
const refusalDelta = (stop_details: unknown): Record<string, unknown> => ({
  type: "message_delta",
  delta: { stop_reason: "refusal", stop_sequence: null, stop_details },
  usage: { output_tokens: 5 },
});
const refused = (stop_details: unknown): string =>
  anthropicSse(start, { type: "ping" }, refusalDelta(stop_details), { type: "message_stop" });

const DETAILS = { type: "refusal", category: "cyber", explanation: EXPLANATION } satisfies RefusalStopDetails;
/** The guide's whole (non-streaming) refusal. */
const wholeRefusal = {
  id: "msg_01XFUDYJgAACzvnptvVoYEL",
  type: "message",
  role: "assistant",
  model: "claude-fable-5",
  content: [],
  stop_reason: "refusal",
  stop_details: DETAILS,
  stop_sequence: null,
  usage: { input_tokens: 412, output_tokens: 0 },
};

/** A refusal after some text: the streaming case, the classifier stopping the turn mid-answer. */
const refusedAfterText = anthropicSse(
  start,
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Sure, here" } },
  { type: "content_block_stop", index: 0 },
  refusalDelta(DETAILS),
  { type: "message_stop" },
);

const finishOf = async (chunks: Uint8Array[]): Promise<FinishEvent> =>
  assertFinished(await collect(streamToolCalls(fromChunks(chunks), { provider: "anthropic" })));
const eventsOf = (body: string): Promise<EncodableEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(body)]), { provider: "anthropic" }));

group("Anthropic stop_details: a refusal's category and explanation", (test) => {
  test("a streamed refusal's stop_details is the finish's refusal, at any split", async () => {
    const data = bytes(refused(DETAILS));
    const expected: RefusalDetails = { category: "cyber", explanation: EXPLANATION };
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 6 }), async (cuts) => {
        const finish = await finishOf(splitAt(data, cuts));
        assertEquals([finish.reason, finish.rawReason, finish.refusal], ["content-filter", "refusal", expected]);
      }),
      { numRuns: 25 },
    );
  });

  test("a whole Message's stop_details is the finish's refusal too", async () => {
    const finish = await finishOf([bytes(JSON.stringify(wholeRefusal))]);
    assertEquals(finish.refusal, { category: "cyber", explanation: EXPLANATION });
  });

  test("null fields stay undefined; a null stop_details, or one of another type, gives no refusal", async () => {
    const unnamed = await finishOf([bytes(refused({ type: "refusal", category: null, explanation: null }))]);
    assertEquals(unnamed.refusal, { category: undefined, explanation: undefined });
    for (const details of [null, { type: "later_kind", category: "cyber" }, "refusal"]) {
      const finish = await finishOf([bytes(refused(details))]);
      assertEquals([finish.reason, "refusal" in finish], ["content-filter", false]);
    }
  });

  test("a stop other than a refusal carries none; Messages writes its stop_details null", async () => {
    const delta = { stop_reason: "end_turn", stop_sequence: null, stop_details: null };
    const body = anthropicSse(
      start,
      { type: "message_delta", delta, usage: { output_tokens: 2 } },
      { type: "message_stop" },
    );
    assertEquals("refusal" in (await finishOf([bytes(body)])), false);
    const reading = readMessagesEvents(encodeAll(ENCODERS.anthropic(), await eventsOf(body)));
    assertEquals([reading.stopReason, reading.stopDetails], ["end_turn", null]);
    const result = await readAnthropicMessage(fromChunks(await eventsOf(body)), AGENT_OPTIONS.anthropic());
    assert(result.type === "message", "a message");
    assertEquals(result.message.stop_details, null);
  });

  test("a continuation's message_start that carried the refusal stop gives its stop_details", async () => {
    const message = { ...start.message, stop_reason: "refusal", stop_details: DETAILS };
    const finish = await finishOf([bytes(anthropicSse({ type: "message_start", message }, { type: "message_stop" }))]);
    assertEquals([finish.reason, finish.refusal], ["content-filter", { category: "cyber", explanation: EXPLANATION }]);
  });

  test("Messages: the message_delta's stop_details, and the non-streaming message's, as Anthropic sent them", async () => {
    const all = await eventsOf(refused(DETAILS));
    const reading = readMessagesEvents(encodeAll(ENCODERS.anthropic(), all));
    assertEquals([reading.stopReason, reading.stopDetails], ["refusal", DETAILS]);
    const result = await readAnthropicMessage(fromChunks(all), AGENT_OPTIONS.anthropic());
    assert(result.type === "message", "a message");
    assertEquals([result.message.stop_reason, result.message.stop_details], ["refusal", DETAILS]);
    // A refusal that names no category: each field null, as Anthropic sends it.
    const unnamed = readMessagesEvents(
      encodeAll(ENCODERS.anthropic(), await eventsOf(refused({ ...DETAILS, category: null, explanation: null }))),
    );
    assertEquals(unnamed.stopDetails, { type: "refusal", category: null, explanation: null });
  });

  test("the beta's fallback fields reach the finish, and Messages writes them back, streamed and whole", async () => {
    const beta = {
      ...DETAILS,
      fallback_credit_token: "fct_01Opaque",
      fallback_has_prefill_claim: false,
      recommended_model: "claude-opus-5-5",
    } satisfies BetaRefusalStopDetails;
    const all = await eventsOf(refused(beta));
    assertEquals((await finishOf([bytes(refused(beta))])).refusal, {
      category: "cyber",
      explanation: EXPLANATION,
      fallbackCreditToken: "fct_01Opaque",
      fallbackHasPrefillClaim: false,
      recommendedModel: "claude-opus-5-5",
    });
    assertEquals(readMessagesEvents(encodeAll(ENCODERS.anthropic(), all)).stopDetails, beta);
    const result = await readAnthropicMessage(fromChunks(all), AGENT_OPTIONS.anthropic());
    assert(result.type === "message", "a message");
    assertEquals(result.message.stop_details, beta);
    // A token alone: the other two written null, as the beta type has each.
    const tokenOnly = {
      ...DETAILS,
      fallback_credit_token: "fct_02",
      fallback_has_prefill_claim: null,
      recommended_model: null,
    };
    const reading = readMessagesEvents(encodeAll(ENCODERS.anthropic(), await eventsOf(refused(tokenOnly))));
    assertEquals(reading.stopDetails, tokenOnly satisfies BetaRefusalStopDetails);
  });

  test("Chat Completions: the explanation as the refusal, streamed and in the completion", async () => {
    const all = await eventsOf(refused(DETAILS));
    const choice = readChatChunks(encodeAll(ENCODERS.openai(), all)).choices.get(0)!;
    assertEquals([choice.refusal, choice.finishReason], [EXPLANATION, "content_filter"]);
    const result = await readOpenAIChatCompletion(fromChunks(all), { model: "m", created: 1 });
    assert(result.type === "completion", "a completion");
    assertEquals(result.completion.choices[0]?.message.refusal, EXPLANATION);
  });

  test("Responses: the explanation as a refusal content part, in an incomplete response", async () => {
    const all = await eventsOf(refused(DETAILS));
    const reading = readResponsesEvents(encodeAll(ENCODERS.responses(), all));
    assertEquals([reading.refusal, reading.terminal], [EXPLANATION, "response.incomplete"]);
    const result = await readOpenAIResponse(fromChunks(all), AGENT_OPTIONS.responses());
    assertEquals(
      result.response.output.map((item) => item.type === "message" && item.content),
      [[{ type: "refusal", refusal: EXPLANATION }]],
    );
  });

  test("Responses: a refusal after text is a refusal part of the open message, its one incomplete item", async () => {
    const all = await eventsOf(refusedAfterText);
    const sse = fromChunks(all).pipeThrough(new OpenAIResponsesEncoderStream(AGENT_OPTIONS.responses()));
    const reading = await readConformingStream(new Response(sse, { headers: { "content-type": "text/event-stream" } }));
    assertEquals(reading.issues, []);
    const message = {
      type: "message",
      status: "incomplete",
      content: [
        { type: "output_text", text: "Sure, here" },
        { type: "refusal", refusal: EXPLANATION },
      ],
    };
    const shape = (output: unknown) =>
      (output as Record<string, unknown>[]).map((item) => ({
        type: item["type"],
        status: item["status"],
        content: (item["content"] as Record<string, unknown>[]).map(({ type, text, refusal }) =>
          type === "refusal" ? { type, refusal } : { type, text },
        ),
      }));
    assertEquals([reading.response?.["status"], shape(reading.response?.["output"])], ["incomplete", [message]]);
    // The whole (non-streamed) response has the same one item.
    const result = await readOpenAIResponse(fromChunks(all), AGENT_OPTIONS.responses());
    assertEquals([result.response.status, shape(result.response.output)], ["incomplete", [message]]);
  });
});
