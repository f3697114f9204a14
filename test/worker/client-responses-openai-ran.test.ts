// The items of tools OpenAI ran (`web_search_call`, `code_interpreter_call`,
// `image_generation_call`, `file_search_call`, and a `compaction` item) in a Responses client's input through
// POST /v1/responses, openai-node as the client: an OpenAI Responses upstream gets each as the
// client sent it, in its place after the reasoning item before it (a reasoning model with
// `store: false` refuses a reasoning item without the item that followed it); another provider
// gets neither, and no 400. The items are built from openai 6's `ResponseInputItem` types.
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { responsesSse } from "../providers/openai-responses/built-in-calls-recordings.ts";
import { openAIClient } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const client = openAIClient;

const reasoning = (id: string): ResponseInputItem => ({
  type: "reasoning",
  id,
  summary: [],
  encrypted_content: `gAAAA-opaque-${id}`,
});
const RAN: ResponseInputItem[] = [
  { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "bolt prices" } },
  {
    type: "code_interpreter_call",
    id: "ci_1",
    code: "print(6 * 7)",
    container_id: "cntr_1",
    outputs: [{ type: "logs", logs: "42" }],
    status: "completed",
  },
  { type: "image_generation_call", id: "ig_1", result: "aGk=", status: "completed" },
  { type: "file_search_call", id: "fs_1", queries: ["bolts"], status: "completed", results: null },
  // The item of a response that compacted its context (ResponseCompactionItemParam), back to OpenAI in place too.
  { type: "compaction", id: "cmp_1", encrypted_content: "gAAAA-compacted" },
];
const said = (text: string): ResponseInputItem => ({
  type: "message",
  id: `msg_${text.length}`,
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, annotations: [] }],
});
// One turn per tool: reasoning, the tool's item, the answer; then the user's next question.
const INPUT: ResponseInputItem[] = [
  { role: "user", content: "Bolt prices?" },
  ...RAN.flatMap((item, i) => [
    reasoning(`rs_${i}`),
    item,
    said(`Answer ${i}.`),
    { role: "user" as const, content: `Next ${i}?` },
  ]),
];
const answer = responsesSse([
  { type: "response.created", response: { id: "resp_1", object: "response", status: "in_progress", output: [] } },
  {
    type: "response.completed",
    response: { id: "resp_1", object: "response", status: "completed", output: [], usage: null },
  },
]);

describe("POST /v1/responses with the items of tools OpenAI ran", () => {
  it("an OpenAI Responses upstream gets each as the client sent it, after the reasoning item before it", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [answer] });
    const stream = client(upstream).responses.stream({
      model: "openai-responses/gpt-5.6",
      input: INPUT,
      store: false,
      include: ["reasoning.encrypted_content"],
    });
    for await (const _event of stream);
    const input = (upstream.requests[0]!.body as { input: Record<string, unknown>[] }).input;
    const kinds = input.map((item) => item["type"] ?? item["role"]);
    expect(kinds).toEqual(["user", ...RAN.flatMap((item) => ["reasoning", item.type, "assistant", "user"])]);
    for (const item of RAN) expect(input).toContainEqual(item);
  });

  it("another provider gets none of them, and no 400", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    await client(upstream)
      .responses.create({ model: "anthropic/claude-x", input: INPUT })
      .catch(() => undefined);
    expect(upstream.requests).toHaveLength(1);
    const body = JSON.stringify(upstream.requests[0]!.body);
    for (const id of ["ws_1", "ci_1", "ig_1", "fs_1", "print(6", "cmp_1"]) expect(body).not.toContain(id);
    expect(body).toContain("Answer 3.");
  });
});
