// A client search's `tool_search_output` as a Responses client may write it (openai 6's
// `ResponseToolSearchOutputItemParam`, whose `execution` is optional) through POST /v1/responses:
// without `execution`, an output whose `call_id` names the client search before it is that
// search's result, for every provider (it was taken for a server search's: left out for another
// provider, which then had a call without its result, and sent before its call to OpenAI). A server
// search's call and output go to OpenAI as sent and are left out together for the others; one
// OpenAI ran reaches the client as its call and output sealed in reasoning items (the call alone
// was left out, so its output went back alone and was dropped) and goes back to OpenAI whole.
import type { ResponseInputItem, Tool } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { responsesSse } from "../providers/openai-responses/built-in-calls-recordings.ts";
import { openAIClient } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const client = openAIClient;

const TOOLS: Tool[] = [
  { type: "tool_search", execution: "client", description: "Find tools.", parameters: { type: "object" } },
];
const FOUND_TOOLS: Tool[] = [{ type: "function", name: "price", parameters: { type: "object" }, strict: false }];
const SEARCH: ResponseInputItem = {
  type: "tool_search_call",
  id: "tsc_9",
  call_id: "call_ts",
  execution: "client",
  arguments: { goal: "prices" },
  status: "completed",
};
const FOUND: ResponseInputItem = { type: "tool_search_output", call_id: "call_ts", tools: FOUND_TOOLS };
const SERVER: ResponseInputItem[] = [
  { type: "tool_search_call", id: "tsc_1", call_id: null, execution: "server", arguments: { q: "stock" } },
  { type: "tool_search_output", id: "tso_1", call_id: null, execution: "server", tools: FOUND_TOOLS },
];
const INPUT: ResponseInputItem[] = [{ role: "user", content: "Prices?" }, ...SERVER, SEARCH, FOUND];

const answerOf = (id: string) =>
  responsesSse([
    { type: "response.created", response: { id, object: "response", status: "in_progress", output: [] } },
    { type: "response.completed", response: { id, object: "response", status: "completed", output: [] } },
  ]);

describe("POST /v1/responses with a client search's output without `execution`", () => {
  it("another provider gets the search's call answered by its tools, and nothing of the server search", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    await client(upstream)
      .responses.create({ model: "anthropic/claude-x", input: INPUT, tools: TOOLS })
      .catch(() => undefined);
    const body = upstream.requests[0]!.body as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Prices?" }] },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "call_ts", name: "tool_search", input: { goal: "prices" } }],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "call_ts", content: JSON.stringify(FOUND_TOOLS) }],
      },
    ]);
  });

  it("an OpenAI Responses upstream gets the search's output after its call, the server search as sent", async () => {
    const answer = responsesSse([
      { type: "response.created", response: { id: "r", object: "response", status: "in_progress", output: [] } },
      { type: "response.completed", response: { id: "r", object: "response", status: "completed", output: [] } },
    ]);
    const upstream = new FakeUpstream({ kind: "sse", chunks: [answer] });
    const stream = client(upstream).responses.stream({
      model: "openai-responses/gpt-5.6",
      input: INPUT,
      tools: TOOLS,
      store: false,
    });
    for await (const _event of stream);
    const input = (upstream.requests[0]!.body as { input: Record<string, unknown>[] }).input;
    expect(input.slice(0, 3)).toEqual([{ role: "user", content: "Prices?" }, ...SERVER]);
    expect(input.slice(3).map((item) => [item["type"], item["call_id"], item["execution"]])).toEqual([
      ["tool_search_call", "call_ts", "client"],
      ["tool_search_output", "call_ts", "client"],
    ]);
    expect(input[4]).toMatchObject({ tools: FOUND_TOOLS });
  });

  it("a server search OpenAI ran reaches the client and goes back to OpenAI whole, before the call it loaded", async () => {
    const [call, output] = SERVER as unknown as Record<string, unknown>[];
    const done = { ...call, status: "completed" };
    const fn = { type: "function_call", id: "fc_1", call_id: "call_p", name: "price", arguments: "{}" };
    const item = (i: number, value: Record<string, unknown>) => [
      { type: "response.output_item.added", output_index: i, item: { ...value, status: "in_progress" } },
      { type: "response.output_item.done", output_index: i, item: { ...value, status: "completed" } },
    ];
    const first = new FakeUpstream({
      kind: "sse",
      chunks: [
        responsesSse([
          { type: "response.created", response: { id: "r1", object: "response", status: "in_progress", output: [] } },
          ...item(0, done),
          ...item(1, { ...output, status: "completed" }),
          ...item(2, fn),
          { type: "response.completed", response: { id: "r1", object: "response", status: "completed", output: [] } },
        ]),
      ],
    });
    const tools: Tool[] = [{ type: "tool_search" }];
    const stream = client(first).responses.stream({
      model: "openai-responses/gpt-5.6",
      input: "Prices?",
      tools,
      store: false,
    });
    for await (const _event of stream);
    const out = (await stream.finalResponse()).output as ResponseInputItem[];
    expect(out.filter((i) => i.type === "function_call")).toHaveLength(1);
    const second = new FakeUpstream({ kind: "sse", chunks: [answerOf("r2")] });
    const next = client(second).responses.stream({
      model: "openai-responses/gpt-5.6",
      input: [
        { role: "user", content: "Prices?" },
        ...out,
        { type: "function_call_output", call_id: "call_p", output: "3" },
      ],
      tools,
      store: false,
    });
    for await (const _event of next);
    const input = (second.requests[0]!.body as { input: Record<string, unknown>[] }).input;
    expect(input.map((i) => i["type"] ?? i["role"])).toEqual([
      "user",
      "tool_search_call",
      "tool_search_output",
      "function_call",
      "function_call_output",
    ]);
    expect(input[1]).toMatchObject({ id: "tsc_1", execution: "server" });
    expect(input[2]).toMatchObject({ id: "tso_1", tools: FOUND_TOOLS });
  });
});
