// OpenAI's items that change a conversation's state where they stand, in a Responses client's input
// through POST /v1/responses, openai-node 7 as the client: a `compaction_trigger` (compacts the
// context; the last input item) and a `configuration_update` (a reasoning effort or text format
// from that item on), both of openai 7's `ResponseInputItem`. An OpenAI Responses upstream gets
// each as the client sent it, in its place (before: a 400 at its `type`); another provider has no
// such state and refuses them by path, rather than answering as if they had not been sent. The
// request's `context_management` (OpenAI compacts the context past a threshold by itself) reaches
// an OpenAI Responses upstream too (before: left out unseen); a malformed one is a 400 by path.
import OpenAI from "openai-v7";
import type { ResponseInputItem } from "openai-v7/resources/responses/responses";
import { describe, expect, it } from "vitest";
import answer from "../recordings/openai-responses/mcp-approval-approved.sse?raw";
import { openAI7Client } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const client = openAI7Client;
const update: ResponseInputItem = {
  type: "configuration_update",
  id: "cu_1",
  reasoning: { effort: "low" },
  text: { format: { type: "text" } },
};
const trigger: ResponseInputItem = { type: "compaction_trigger" };
const said: ResponseInputItem = {
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "Bolts are 3 cents.", annotations: [] }],
};
const INPUT: ResponseInputItem[] = [
  { role: "user", content: "Bolt prices?" },
  said,
  update,
  { role: "user", content: "And nuts?" },
  trigger,
];

describe("POST /v1/responses with compaction_trigger and configuration_update items", () => {
  it("an OpenAI Responses upstream gets each as the client sent it, in its place", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [answer] });
    const stream = client(upstream).responses.stream({ model: "openai-responses/gpt-5.6", input: INPUT, store: false });
    for await (const _event of stream);
    const input = (upstream.requests[0]!.body as { input: Record<string, unknown>[] }).input;
    expect(input.map((item) => item["type"] ?? item["role"])).toEqual([
      "user",
      "assistant",
      "configuration_update",
      "user",
      "compaction_trigger",
    ]);
    expect(input[2]).toEqual(update);
    expect(input[4]).toEqual(trigger);
  });

  it("another provider refuses each at its type, with OpenAI's 400", async () => {
    for (const [input, param] of [
      [INPUT.slice(0, 4), "input[2].type"],
      [[INPUT[0]!, trigger], "input[1].type"],
    ] as const) {
      const upstream = new FakeUpstream({ kind: "sse", chunks: [answer] });
      const error = await client(upstream)
        .responses.create({ model: "anthropic/claude-x", input: [...input] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe(param);
      expect((error as Error).message).toContain("only an `openai-responses/...` model");
      expect(upstream.requests).toHaveLength(0);
    }
  });
});

describe("POST /v1/responses with context_management", () => {
  const ask = (model: string, context_management: unknown, upstream: FakeUpstream) =>
    client(upstream).responses.create({
      model,
      input: "Bolt prices?",
      context_management: context_management as OpenAI.Responses.ResponseCreateParams.ContextManagement[],
    });

  it("an OpenAI Responses upstream gets it as the client sent it; another provider none", async () => {
    const compaction = [{ type: "compaction", compact_threshold: 200000 }];
    const openai = new FakeUpstream({ kind: "sse", chunks: [answer] });
    await ask("openai-responses/gpt-5.6", compaction, openai);
    expect(upstreamBody(openai)["context_management"]).toEqual(compaction);
    const anthropic = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    await ask("anthropic/claude-x", compaction, anthropic).catch(() => undefined);
    expect(upstreamBody(anthropic)).not.toHaveProperty("context_management");
  });

  it("a malformed one is a 400 naming the field", async () => {
    for (const [value, param] of [
      [{ type: "compaction" }, "context_management"],
      [[null], "context_management[0]"],
      [[{ compact_threshold: 1000 }], "context_management[0].type"],
      [[{ type: "compaction", compact_threshold: "many" }], "context_management[0].compact_threshold"],
    ] as const) {
      const upstream = new FakeUpstream({ kind: "sse", chunks: [answer] });
      const error = await ask("openai-responses/gpt-5.6", value, upstream).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe(param);
      expect(upstream.requests).toHaveLength(0);
    }
  });
});

const upstreamBody = (upstream: FakeUpstream) => upstream.requests[0]!.body as Record<string, unknown>;
