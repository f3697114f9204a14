// Anthropic's refusal `stop_details` (@anthropic-ai/sdk 1.12.0's `RefusalStopDetails`, on
// `RawMessageDeltaEvent.Delta` and `Message`) through the Worker: a Messages client gets it as
// Anthropic sent it, streamed and not, as the real SDK reads it; a Chat Completions client gets its
// explanation as the message's `refusal`, a Responses client as a `refusal` content part. The
// upstream stream is built from the SDK's types, as
// test/providers/anthropic/anthropic-stop-details.cases.ts says.
import Anthropic from "@anthropic-ai/sdk";
import type { RefusalStopDetails } from "@anthropic-ai/sdk/resources/messages/messages";
import { describe, expect, it } from "vitest";
import { anthropicSse, EMPTY_TURN } from "./anthropic-blocks.ts";
import { OPENAI_ANTHROPIC_ENV, openAIClient, workerFetch } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const DETAILS: RefusalStopDetails = {
  type: "refusal",
  category: "cyber",
  explanation: "This request was declined because it could enable cyber harm.",
};

/** A turn Anthropic's classifiers stopped before any block, with `stop_details`. */
const refused = (stop_details: RefusalStopDetails | null): FakeUpstream =>
  new FakeUpstream({
    kind: "sse",
    chunks: anthropicSse(
      { type: "message_start", message: { id: "msg_r", content: [], usage: { input_tokens: 412, output_tokens: 1 } } },
      { type: "ping" },
      {
        type: "message_delta",
        delta: { stop_reason: "refusal", stop_sequence: null, stop_details },
        usage: { output_tokens: 5 },
      },
      { type: "message_stop" },
    ),
  });

/** A turn Anthropic's classifiers stopped after some text ("Sure, here"), the usual streaming refusal. */
const refusedAfterText = (): FakeUpstream =>
  new FakeUpstream({
    kind: "sse",
    chunks: anthropicSse(
      { type: "message_start", message: { id: "msg_t", content: [], usage: { input_tokens: 412, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Sure, here" } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "refusal", stop_details: DETAILS }, usage: { output_tokens: 5 } },
      { type: "message_stop" },
    ),
  });

/** The assistant turn Anthropic was sent, of the conversation `send` makes with the next turn's upstream. */
async function replayed(send: (upstream: FakeUpstream) => Promise<unknown>): Promise<unknown> {
  const next = new FakeUpstream({ kind: "sse", chunks: EMPTY_TURN });
  await send(next);
  const { messages } = next.requests[0]!.body as { messages: { role: string }[] };
  return messages.filter((message) => message.role === "assistant");
}

const sdk = (upstream: FakeUpstream): Anthropic =>
  new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env: OPENAI_ANTHROPIC_ENV, upstream }),
    maxRetries: 0,
  });
const REQUEST = {
  model: "anthropic/claude-x",
  max_tokens: 64,
  messages: [{ role: "user" as const, content: "Write the exploit." }],
};

describe("Anthropic's refusal stop_details through the Worker", () => {
  it("@anthropic-ai/sdk: the streamed message and the whole one have it as Anthropic sent it", async () => {
    const streamed = await sdk(refused(DETAILS)).messages.stream(REQUEST).finalMessage();
    expect([streamed.stop_reason, streamed.stop_details]).toEqual(["refusal", DETAILS]);
    const whole = await sdk(refused(DETAILS)).messages.create(REQUEST);
    expect([whole.stop_reason, whole.stop_details]).toEqual(["refusal", DETAILS]);
  });

  it("@anthropic-ai/sdk: a refusal with no category has each field null; one without details, null", async () => {
    const unnamed = { type: "refusal", category: null, explanation: null } as const;
    expect((await sdk(refused(unnamed)).messages.create(REQUEST)).stop_details).toEqual(unnamed);
    expect((await sdk(refused(null)).messages.stream(REQUEST).finalMessage()).stop_details).toBeNull();
  });

  it("openai-node: Chat Completions' message.refusal and a Responses refusal part are its explanation", async () => {
    const request = { model: "anthropic/claude-x", messages: [{ role: "user" as const, content: "Write it." }] };
    const chat = await openAIClient(refused(DETAILS)).chat.completions.stream(request).finalChatCompletion();
    expect([chat.choices[0]!.message.refusal, chat.choices[0]!.finish_reason]).toEqual([
      DETAILS.explanation,
      "content_filter",
    ]);
    const response = await openAIClient(refused(DETAILS))
      .responses.stream({ model: "anthropic/claude-x", input: "Write it.", store: false })
      .finalResponse();
    expect(response.status).toBe("incomplete");
    // openai-node's stream helper adds its `parsed` to each part: the part's own fields are Anthropic's explanation.
    expect(response.output.flatMap((item) => (item.type === "message" ? item.content : []))).toMatchObject([
      { type: "refusal", refusal: DETAILS.explanation },
    ]);
  });

  it("openai-node: the refused turn sent back to Claude keeps its text, not the classifier's explanation", async () => {
    const model = "anthropic/claude-x";
    const ask = { role: "user" as const, content: "Write it." };
    const then = { role: "user" as const, content: "Something else, then." };
    const chat = await openAIClient(refusedAfterText()).chat.completions.create({ model, messages: [ask] });
    const message = chat.choices[0]!.message;
    expect([message.content, message.refusal]).toEqual(["Sure, here", DETAILS.explanation]);
    const sentByChat = await replayed((next) =>
      openAIClient(next).chat.completions.create({ model, messages: [ask, message, then] }),
    );
    expect(sentByChat).toEqual([{ role: "assistant", content: [{ type: "text", text: "Sure, here" }] }]);
    const response = await openAIClient(refusedAfterText())
      .responses.stream({ model, input: [ask], store: false })
      .finalResponse();
    const messages = response.output.flatMap((item) => (item.type === "message" ? [item] : []));
    expect(messages).toHaveLength(1); // one message: its text and the refusal as its parts
    const sentByResponses = await replayed((next) =>
      openAIClient(next).responses.create({ model, input: [ask, ...messages, then], store: false }),
    );
    expect(sentByResponses).toEqual([{ role: "assistant", content: [{ type: "text", text: "Sure, here" }] }]);
  });
});
