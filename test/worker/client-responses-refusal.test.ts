// A Responses client's refusal (an assistant `message` item's `refusal` content part, openai 6's
// `ResponseOutputRefusal`) through POST /v1/responses, openai-node as the client: it reaches an
// upstream that takes a refusal back as one (an OpenAI Responses `refusal` part, OpenAI Chat's
// `refusal`), without the item's id (the Worker's, not the upstream's), and as text where the
// upstream has none (a Chat-compatible server, Anthropic). The fakes stand for the providers.
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { responsesSse } from "../providers/openai-responses/built-in-calls-recordings.ts";
import { chatChunk, openAISSE } from "../support/streams.ts";
import { EMPTY_TURN } from "./anthropic-blocks.ts";
import { openAIClient } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const REFUSAL = "I'm sorry, I can't help with that.";
/** The refused turn as the Worker gave it to its client, which sends it back. */
const inputOf = (
  content: Extract<ResponseInputItem, { type: "message"; id: string }>["content"],
): ResponseInputItem[] => [
  { role: "user", content: "Do the forbidden thing." },
  { type: "message", id: "msg_worker_1", role: "assistant", status: "completed", content },
  { role: "user", content: "Something else, then." },
];
const INPUT = inputOf([{ type: "refusal", refusal: REFUSAL }]);

const ANSWERS: Record<string, readonly string[]> = {
  "openai-responses": [
    responsesSse([
      { type: "response.created", response: { id: "r1", object: "response", status: "in_progress", output: [] } },
      { type: "response.completed", response: { id: "r1", object: "response", status: "completed", output: [] } },
    ]),
  ],
  openai: [openAISSE([chatChunk({ role: "assistant", content: "OK." }), chatChunk({}, "stop")])],
  anthropic: EMPTY_TURN,
};

/** What the upstream of `model` (behind `baseUrl`) got as the conversation's assistant turn. */
async function sentTurn(model: string, baseUrl = "https://api.openai.com/v1", input = INPUT): Promise<unknown> {
  const provider = model.slice(0, model.indexOf("/"));
  const upstream = new FakeUpstream({ kind: "sse", chunks: ANSWERS[provider]! });
  const env = testEnv({
    OPENAI_API_KEY: "k",
    OPENAI_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: "a",
    ANTHROPIC_BASE_URL: "https://anthropic.test/v1",
    CLIENT_TOKEN: "t",
  });
  const stream = openAIClient(upstream, env).responses.stream({ model, input, store: false });
  for await (const _event of stream);
  const body = upstream.requests[0]!.body as { input?: unknown[]; messages?: unknown[] };
  return (body.input ?? body.messages)![1];
}

/** What Anthropic and a Chat-compatible server, which have no refusal, got as the turn's text. */
async function expectTextWithoutRefusal(input: ResponseInputItem[], text: string): Promise<void> {
  expect(await sentTurn("anthropic/claude-sonnet-4-5", undefined, input)).toEqual({
    role: "assistant",
    content: [{ type: "text", text }],
  });
  expect(await sentTurn("openai/llama-3.3-70b", "https://api.groq.com/openai/v1", input)).toEqual({
    role: "assistant",
    content: text,
  });
}

describe("POST /v1/responses with a refusal in an assistant message", () => {
  it("reaches an OpenAI Responses upstream as a refusal part, without the Worker's item id", async () => {
    expect(await sentTurn("openai-responses/gpt-5.6")).toEqual({
      type: "message",
      role: "assistant",
      content: [{ type: "refusal", refusal: REFUSAL }],
    });
  });

  it("reaches OpenAI's Chat Completions as the message's refusal, and a compatible server as its text", async () => {
    expect(await sentTurn("openai/gpt-4o")).toEqual({ role: "assistant", content: null, refusal: REFUSAL });
    expect(await sentTurn("openai/llama-3.3-70b", "https://api.groq.com/openai/v1")).toEqual({
      role: "assistant",
      content: REFUSAL,
    });
  });

  it("is left out for Anthropic, which has no refusal block: never sent as the model's words", async () => {
    // A turn of the refusal alone: no assistant turn (the next user turn is messages[1]).
    expect(await sentTurn("anthropic/claude-sonnet-4-5")).toBeUndefined();
  });

  it("goes to a compatible server as text after the message's text, a blank line between; Anthropic gets the text alone", async () => {
    const text = "Here is what I can say.";
    const input = inputOf([
      { type: "output_text", text, annotations: [] },
      { type: "refusal", refusal: REFUSAL },
    ]);
    const anthropic = await sentTurn("anthropic/claude-sonnet-4-5", undefined, input);
    expect(anthropic).toEqual({ role: "assistant", content: [{ type: "text", text }] });
    const compatible = await sentTurn("openai/llama-3.3-70b", "https://api.groq.com/openai/v1", input);
    expect(compatible).toEqual({ role: "assistant", content: `${text}\n\n${REFUSAL}` });
  });

  it("the text of an assistant's message items in a row is a paragraph each, not glued", async () => {
    const item = (id: string, text: string): ResponseInputItem => ({
      type: "message",
      id,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text, annotations: [] }],
    });
    const input: ResponseInputItem[] = [
      { role: "user", content: "Check it." },
      item("msg_1", "I'll check."),
      item("msg_2", "Done."),
      { role: "user", content: "Thanks." },
    ];
    const text = "I'll check.\n\nDone.";
    expect(await sentTurn("anthropic/claude-sonnet-4-5", undefined, input)).toEqual({
      role: "assistant",
      content: [{ type: "text", text }],
    });
  });

  it("leaves an empty refusal out, with no blank line, at every upstream that has none (one rule)", async () => {
    const text = "Here is what I can say.";
    const input = inputOf([
      { type: "output_text", text, annotations: [] },
      { type: "refusal", refusal: "" },
    ]);
    await expectTextWithoutRefusal(input, text);
  });
});
