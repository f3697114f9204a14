// OpenAI's moderated completions (`moderation: {model, policy: {input, output: {mode}}}`, openai-node
// 7's `ChatCompletionCreateParams.Moderation` and `ResponseCreateParams.Moderation`) through
// POST /v1/chat/completions and POST /v1/responses, openai-node 7 as the client: an OpenAI upstream
// (Chat or Responses) gets it as the client sent it, and its results come back in the client's
// protocol (a Chat chunk's or completion's `moderation`, a response's, stored with it), a blocked
// answer as the protocol's content-filter stop with them; before, Chat refused the field as unknown
// and Responses left it out unseen (no moderation ran), then the results were dropped. No other
// provider moderates: a 400 naming the field, and so is a `score` mode whose scores may not fit.
import OpenAI from "openai-v7";
import { describe, expect, it } from "vitest";
import { chatCited } from "../providers/openai-chat/citations-recordings.ts";
import {
  chatModerated,
  chatModeration,
  responsesModerated,
  responsesModeration,
} from "../providers/openai-chat/moderation-recordings.ts";
import answer from "../recordings/openai-responses/mcp-approval-approved.sse?raw";
import { OPENAI_ANTHROPIC_ENV, openAI7Client } from "./client-support.ts";
import { FakeUpstream, responses as responsesBinding } from "./support.ts";

const client = openAI7Client;
const MODERATION = { model: "omni-moderation-latest", policy: { input: { mode: "block" }, output: { mode: "block" } } };
const SCORE = { model: "omni-moderation-latest", policy: { input: { mode: "score" }, output: { mode: "score" } } };
type Moderation = OpenAI.Responses.ResponseCreateParams.Moderation;

const chat = (upstream: FakeUpstream, model: string, moderation: unknown) =>
  client(upstream).chat.completions.create({
    model,
    messages: [{ role: "user", content: "Bolt prices?" }],
    moderation: moderation as Moderation,
  });
const responses = (upstream: FakeUpstream, model: string, moderation: unknown) =>
  client(upstream).responses.create({ model, input: "Bolt prices?", moderation: moderation as Moderation });
type Ask = (upstream: FakeUpstream, model: string, moderation: unknown) => Promise<unknown>;
const sent = (upstream: FakeUpstream) => upstream.requests[0]!.body as Record<string, unknown>;

describe("moderation through /v1/chat/completions and /v1/responses", () => {
  it("an OpenAI Chat or Responses upstream gets it as the client sent it", async () => {
    const openai = new FakeUpstream({ kind: "sse", chunks: [chatCited(true)] });
    await chat(openai, "openai/gpt-5.6", MODERATION);
    expect(sent(openai)["moderation"]).toEqual(MODERATION);
    const openaiResponses = new FakeUpstream({ kind: "sse", chunks: [answer] });
    await responses(openaiResponses, "openai-responses/gpt-5.6", MODERATION);
    expect(sent(openaiResponses)["moderation"]).toEqual(MODERATION);
  });

  it("another provider, a score mode whose scores may not fit, or a malformed one is a 400 naming the field", async () => {
    const cases: [Ask, string, unknown, string][] = [
      ...[chat, responses].flatMap((ask): [Ask, string, unknown, string][] => [
        [ask, "anthropic/claude-x", MODERATION, "moderation"],
        [
          ask,
          "openai/gpt-5.6",
          { ...MODERATION, policy: { output: { mode: "scores" } } },
          "moderation.policy.output.mode",
        ],
        [ask, "openai/gpt-5.6", { policy: {} }, "moderation.model"],
        [ask, "openai/gpt-5.6", "omni-moderation-latest", "moderation"],
      ]),
      // A Chat upstream's side may hold several results, and a response has room for one.
      [responses, "openai/gpt-5.6", SCORE, "moderation.policy.input.mode"],
    ];
    for (const [ask, model, moderation, param] of cases) {
      const upstream = new FakeUpstream({ kind: "sse", chunks: [answer] });
      const error = await ask(upstream, model, moderation).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect([ask.name, model, (error as InstanceType<typeof OpenAI.BadRequestError>).param]).toEqual([
        ask.name,
        model,
        param,
      ]);
      expect(upstream.requests).toHaveLength(0);
    }
  });

  it("a Chat client of an OpenAI Chat model gets the results as OpenAI sent them, streamed and whole", async () => {
    const whole = await chat(new FakeUpstream({ kind: "sse", chunks: [chatModerated()] }), "openai/gpt-5.6", SCORE);
    expect([whole.choices[0]?.message.content, whole.moderation]).toEqual(["Bolts are 12 cents.", chatModeration()]);
    const upstream = new FakeUpstream({ kind: "sse", chunks: [chatModerated()] });
    const stream = await client(upstream).chat.completions.create({
      model: "openai/gpt-5.6",
      messages: [{ role: "user", content: "Bolt prices?" }],
      moderation: SCORE as Moderation,
      stream: true,
    });
    const moderated = [];
    for await (const chunk of stream) if (chunk.moderation) moderated.push(chunk);
    expect(moderated.map(({ choices, moderation }) => ({ choices, moderation }))).toEqual([
      { choices: [], moderation: chatModeration() },
    ]);
    expect(sent(upstream)["moderation"]).toEqual(SCORE);
  });

  it("a Responses client of an OpenAI Responses model gets them on the response, streamed, whole and stored", async () => {
    const env = { ...OPENAI_ANTHROPIC_ENV, RESPONSES: responsesBinding };
    const upstream = () => new FakeUpstream({ kind: "sse", chunks: [responsesModerated()] });
    const whole = await client(upstream(), env).responses.create({
      model: "openai-responses/gpt-5.6",
      input: "Bolt prices?",
      moderation: SCORE as Moderation,
    });
    expect([whole.status, whole.output_text, whole.moderation]).toEqual([
      "completed",
      "Bolts are ",
      responsesModeration(),
    ]);
    const stored = await client(upstream(), env).responses.retrieve(whole.id);
    expect(stored.moderation).toEqual(responsesModeration());
    const stream = await client(upstream(), env).responses.create({
      model: "openai-responses/gpt-5.6",
      input: "Bolt prices?",
      moderation: SCORE as Moderation,
      stream: true,
    });
    const ends = [];
    for await (const event of stream) if (event.type === "response.completed") ends.push(event.response.moderation);
    expect(ends).toEqual([responsesModeration()]);
  });

  it("a blocked answer is the protocol's content-filter stop, with the flagged results", async () => {
    const chatBlocked = await chat(
      new FakeUpstream({ kind: "sse", chunks: [chatModerated(true)] }),
      "openai/gpt-5.6",
      MODERATION,
    );
    expect([chatBlocked.choices[0]?.finish_reason, chatBlocked.moderation]).toEqual([
      "content_filter",
      chatModeration(true),
    ]);
    const blocked = await responses(
      new FakeUpstream({ kind: "sse", chunks: [responsesModerated(true)] }),
      "openai-responses/gpt-5.6",
      MODERATION,
    );
    expect([blocked.status, blocked.incomplete_details, blocked.moderation]).toEqual([
      "incomplete",
      { reason: "content_filter" },
      responsesModeration(true),
    ]);
  });

  it("across the two protocols, the results come back where their shapes map", async () => {
    // A Chat client of an OpenAI Responses model: each side's one result is that of its `moderation_results`.
    const onResponses = new FakeUpstream({ kind: "sse", chunks: [responsesModerated()] });
    expect((await chat(onResponses, "openai-responses/gpt-5.6", SCORE)).moderation).toEqual(chatModeration());
    // A Responses client of an OpenAI Chat model (block mode): a side of one result is that result.
    const onChat = new FakeUpstream({ kind: "sse", chunks: [chatModerated()] });
    expect((await responses(onChat, "openai/gpt-5.6", MODERATION)).moderation).toEqual(responsesModeration());
  });
});
