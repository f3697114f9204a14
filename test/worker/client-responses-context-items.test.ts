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
import { OPENAI_ANTHROPIC_ENV, openAI7Client } from "./client-support.ts";
import { scripted } from "./open-responses-support.ts";
import { FakeUpstream, responses, streamRequest, worker } from "./support.ts";

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

// Stored (the RESPONSES binding), the items come back on the next turn by `previous_response_id`.
// Before: each input item stored with a `status` and, without an id, an `item_...` one, sent back
// so to OpenAI (which refuses `status` on both, and checks an id's prefix by type), the trigger
// again (it compacts once); to another provider a 400 at `previous_response_id.type`.
describe("compaction_trigger and configuration_update stored, then previous_response_id", () => {
  const compaction = { type: "compaction", encrypted_content: "gAAAA-compacted" } as const;
  const unnamed = { type: "configuration_update", reasoning: { effort: "high" } } as const;
  const first = [compaction, ...INPUT.slice(0, 2), unnamed, ...INPUT.slice(2)] as ResponseInputItem[];
  const CONTEXT = /^(compaction(_trigger)?|configuration_update)$/;

  async function twoTurns(next: "openai-responses" | "anthropic") {
    const upstream = scripted("openai-responses", { text: "Nuts are 2 cents." });
    const openai = client(upstream, { ...OPENAI_ANTHROPIC_ENV, RESPONSES: responses });
    const stored = await openai.responses.create({ model: "openai-responses/gpt-5.6", input: first });
    upstream.answer = scripted(next, { text: "Washers are 1 cent." }).answer;
    const model = next === "anthropic" ? "anthropic/claude-x" : "openai-responses/gpt-5.6";
    const answer = await openai.responses.create({ model, previous_response_id: stored.id, input: "Washers?" });
    return { openai, stored, answer, body: upstream.requests[1]!.body as Record<string, unknown> };
  }

  it("OpenAI gets the update (and compaction item) back without status or the Worker's id, no trigger", async () => {
    const { body, answer } = await twoTurns("openai-responses");
    expect(answer.status).toBe("completed");
    const input = body["input"] as Record<string, unknown>[];
    expect(input.filter((item) => CONTEXT.test(String(item["type"])))).toEqual([compaction, unnamed, update]);
  });

  it("input_items lists them as openai 7's ResponseItem: an id, no status, no trigger", async () => {
    const { openai, stored } = await twoTurns("openai-responses");
    const items = (await openai.responses.inputItems.list(stored.id, { order: "asc" })).data;
    expect(items.map((item) => item.type)).toEqual([
      "compaction",
      "message",
      "message",
      "configuration_update",
      "configuration_update",
      "message",
    ]);
    for (const item of items.filter((one) => CONTEXT.test(one.type))) {
      expect(typeof item.id).toBe("string");
      expect(item).not.toHaveProperty("status");
    }
    expect(items[4]).toEqual(update);
  });

  it("another provider goes on without them: the client sent none in this request", async () => {
    const { body, answer } = await twoTurns("anthropic");
    expect([answer.status, answer.output_text]).toEqual(["completed", "Washers are 1 cent."]);
    expect(JSON.stringify(body)).not.toMatch(/configuration_update|compaction_trigger|gAAAA/);
    expect(JSON.stringify(body)).toContain("Bolts are 3 cents.");
  });
});

// Before: a `/v1/stream` block part of either type was dropped for every provider but OpenAI Responses.
describe("POST /v1/stream: a block part of OpenAI's state", () => {
  const env = OPENAI_ANTHROPIC_ENV;
  const stream = (provider: string, messages: unknown[]) =>
    streamRequest({ provider, model: "x", messages }, { headers: { authorization: "Bearer t" } });
  for (const block of [update, trigger]) {
    const messages = [
      { role: "user", content: "Bolt prices?" },
      { role: "assistant", content: "3 cents.", reasoning_parts: [{ type: "block", block }] },
      { role: "user", content: "Nuts?" },
    ];
    it(`${block.type}: a 400 naming it for another provider; OpenAI Responses gets it in its place`, async () => {
      const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
      const refused = await worker(upstream).call(stream("anthropic", messages), env);
      expect(refused.status).toBe(400);
      const { error } = (await refused.json()) as { error: { field: string; message: string } };
      expect(error.field).toBe("messages[1].reasoning_parts[0].block.type");
      expect(error.message).toContain("only an `openai-responses/...` model");
      expect(upstream.requests).toHaveLength(0);
      const openai = scripted("openai-responses", { text: "2 cents." });
      const taken = await worker(openai).call(stream("openai-responses", messages), env);
      expect(taken.status).toBe(200);
      await taken.text();
      expect((openai.requests[0]!.body as { input: unknown[] }).input).toContainEqual(block);
    });
  }
  it("the 400 of a block of no kept type lists them", async () => {
    const messages = [{ role: "assistant", content: "", reasoning_parts: [{ type: "block", block: { type: "x" } }] }];
    const refused = await worker().call(stream("openai-responses", messages), env);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      "a compaction_trigger or configuration_update item",
    );
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
