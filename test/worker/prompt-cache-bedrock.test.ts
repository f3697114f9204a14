// Prompt caching on Bedrock: Converse caches a prompt up to a `cachePoint` block, and Claude Code's
// marks (or an OpenAI client's `prompt_cache_key`) reached Claude on Bedrock as nothing, so every
// turn was read whole. Now the two points the Anthropic kit marks (after the system prompt, after
// the last message's last block) go to the models Bedrock's user guide lists (Claude 3.5 Haiku,
// 3.7 Sonnet, Claude 4; Amazon Nova); any other model refuses a point with a 400, so it is sent none.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { live } from "./open-responses-support.ts";
import { FakeUpstream } from "./support.ts";

const env = live("bedrock");
const POINT = { cachePoint: { type: "default" } };

/** The Converse body the Worker sends for a Messages request to `model` with `extra` (Bedrock answers 500: only the request matters). */
async function converseBody(model: string, extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  const fake = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const sdk = new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env, upstream: fake }),
    maxRetries: 0,
  });
  await sdk.messages.create({ model, max_tokens: 256, messages: [], ...extra } as never).catch(() => undefined);
  return fake.requests[0]!.body;
}

/** Claude Code's turn: its system prompt and last block marked (`ttl` on both when given). */
function markedTurn(ttl?: "1h") {
  const mark = { type: "ephemeral", ...(ttl && { ttl }) };
  return {
    system: [{ type: "text", text: "You are Claude Code.", cache_control: mark }],
    tools: [{ name: "Bash", description: "Run", input_schema: { type: "object" } }],
    messages: [
      { role: "user", content: "List the files." },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "a.ts", cache_control: mark }],
      },
    ],
  };
}

/** The cache points of a Converse body: in `system`, in each message, in the tools. */
function points(body: Record<string, unknown>) {
  const system = (body["system"] as Record<string, unknown>[]).filter((block) => "cachePoint" in block);
  const messages = body["messages"] as { content: Record<string, unknown>[] }[];
  return {
    system,
    last: messages.at(-1)!.content.at(-1),
    count: JSON.stringify(body).split('"cachePoint"').length - 1,
  };
}

describe("prompt caching on Bedrock: a client's marks as Converse's cache points", () => {
  it("Claude on Bedrock gets one after the system prompt and one after the last block", async () => {
    const body = await converseBody("bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0", markedTurn());
    expect(body["system"]).toEqual([{ text: "You are Claude Code." }, POINT]);
    const last = (body["messages"] as { content: Record<string, unknown>[] }[]).at(-1)!.content;
    expect(last.at(-2)).toMatchObject({ toolResult: { toolUseId: "toolu_1" } });
    expect(last.at(-1)).toEqual(POINT);
    expect(points(body).count).toBe(2); // Bedrock takes 4 at most
  });

  it("a 1h mark is Bedrock's 1h ttl on the models that take it, the default elsewhere", async () => {
    const hour = await converseBody("bedrock/global.anthropic.claude-opus-4-5-20251101-v1:0", markedTurn("1h"));
    expect(points(hour).system).toEqual([{ cachePoint: { type: "default", ttl: "1h" } }]);
    expect(points(hour).last).toEqual({ cachePoint: { type: "default", ttl: "1h" } });
    const older = await converseBody("bedrock/anthropic.claude-3-7-sonnet-20250219-v1:0", markedTurn("1h"));
    expect(points(older).system).toEqual([POINT]);
  });

  it("Amazon Nova too; a model Bedrock does not cache for, and a request without a mark, get none", async () => {
    const nova = await converseBody("bedrock/us.amazon.nova-pro-v1:0", markedTurn());
    expect([points(nova).system, points(nova).last]).toEqual([[POINT], POINT]);
    // The Claude models after 4.6, and GovCloud's prefix (review 76: they were sent none).
    for (const model of ["global.anthropic.claude-opus-5", "us-gov.anthropic.claude-sonnet-4-5-20250929-v1:0"]) {
      const later = await converseBody(`bedrock/${model}`, markedTurn());
      expect([points(later).system, points(later).last], model).toEqual([[POINT], POINT]);
    }
    for (const model of [
      "bedrock/anthropic.claude-3-haiku-20240307-v1:0",
      "bedrock/anthropic.claude-3-5-sonnet-20241022-v2:0",
      "bedrock/meta.llama3-3-70b-instruct-v1:0",
      "bedrock/arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123",
    ])
      expect(JSON.stringify(await converseBody(model, markedTurn())), model).not.toContain("cachePoint");
    const { system: _, ...unmarked } = markedTurn();
    const plain = await converseBody("bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0", {
      ...unmarked,
      system: "You are Claude Code.",
      messages: [{ role: "user", content: "Hi." }],
    });
    expect(JSON.stringify(plain)).not.toContain("cachePoint");
  });

  it("an OpenAI client's prompt_cache_key asks for them too", async () => {
    const fake = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const sdk = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      fetch: workerFetch({ env, upstream: fake }),
      maxRetries: 0,
    });
    await sdk.chat.completions
      .create({
        model: "bedrock/us.anthropic.claude-haiku-4-5-20251001-v1:0",
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Hi." },
        ],
        prompt_cache_key: "conversation-1",
      })
      .catch(() => undefined);
    const body = fake.requests[0]!.body;
    expect(body["system"]).toEqual([{ text: "Be brief." }, POINT]);
    expect(body["messages"]).toEqual([{ role: "user", content: [{ text: "Hi." }, POINT] }]);
  });
});
