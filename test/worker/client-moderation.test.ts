// OpenAI's moderated completions (`moderation: {model, policy: {input, output: {mode}}}`, openai-node
// 7's `ChatCompletionCreateParams.Moderation` and `ResponseCreateParams.Moderation`) through
// POST /v1/chat/completions and POST /v1/responses, openai-node 7 as the client: an OpenAI upstream
// (Chat or Responses) gets it as the client sent it, and blocks what it flags; before, Chat refused
// the field as unknown and Responses left it out unseen (no moderation ran). No other provider
// moderates: a 400 naming the field, and so is a `score` mode, whose scores no answer passes back.
import OpenAI from "openai-v7";
import { describe, expect, it } from "vitest";
import { chatCited } from "../providers/openai-chat/citations-recordings.ts";
import answer from "../recordings/openai-responses/mcp-approval-approved.sse?raw";
import { openAI7Client } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const client = openAI7Client;
const MODERATION = { model: "omni-moderation-latest", policy: { input: { mode: "block" }, output: { mode: "block" } } };
type Moderation = OpenAI.Responses.ResponseCreateParams.Moderation;

const chat = (upstream: FakeUpstream, model: string, moderation: unknown) =>
  client(upstream).chat.completions.create({
    model,
    messages: [{ role: "user", content: "Bolt prices?" }],
    moderation: moderation as Moderation,
  });
const responses = (upstream: FakeUpstream, model: string, moderation: unknown) =>
  client(upstream).responses.create({ model, input: "Bolt prices?", moderation: moderation as Moderation });
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

  it("another provider, a score mode or a malformed one is a 400 naming the field", async () => {
    const cases: [string, unknown, string][] = [
      ["anthropic/claude-x", MODERATION, "moderation"],
      ["openai/gpt-5.6", { ...MODERATION, policy: { output: { mode: "score" } } }, "moderation.policy.output.mode"],
      ["openai/gpt-5.6", { policy: {} }, "moderation.model"],
      ["openai/gpt-5.6", "omni-moderation-latest", "moderation"],
    ];
    for (const [model, moderation, param] of cases)
      for (const ask of [chat, responses]) {
        const upstream = new FakeUpstream({ kind: "sse", chunks: [answer] });
        const error = await ask(
          upstream,
          model.replace("openai/", ask === chat ? "openai/" : "openai-responses/"),
          moderation,
        ).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(OpenAI.BadRequestError);
        expect([ask.name, (error as InstanceType<typeof OpenAI.BadRequestError>).param]).toEqual([ask.name, param]);
        expect(upstream.requests).toHaveLength(0);
      }
  });
});
