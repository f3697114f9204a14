// A Responses client's programmatic tool calling and tool search items through POST /v1/responses
// (issue 34), openai-node as the client: `program`, a `function_call`'s `caller`, `program_output`,
// and `tool_search_call` / `tool_search_output` (server and client) reach an OpenAI Responses
// upstream as the client sent them, with the `tool_search` and `programmatic_tool_calling` tools;
// another provider gets the calls and the client search's result, and nothing OpenAI ran; the
// caller an OpenAI call came with reaches the client on its `function_call`. The items are built
// from openai 6's `ResponseInputItem` types (the Worker's fakes stand for the providers).
import OpenAI from "openai";
import type { ResponseInputItem, Tool } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { responsesSse } from "../providers/openai-responses/built-in-calls-recordings.ts";
import { anthropicSse } from "./anthropic-blocks.ts";
import { OPENAI_ANTHROPIC_ENV, openAIClient } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

/** A server tool search and programmatic tool calling run on OpenAI's side: listed (OPENAI_SERVER_TOOLS; unset: never). */
const ENV = { ...OPENAI_ANTHROPIC_ENV, OPENAI_SERVER_TOOLS: "tool_search,programmatic_tool_calling" };
const client = (upstream: FakeUpstream) => openAIClient(upstream, ENV);

const PROGRAM: ResponseInputItem = {
  type: "program",
  id: "pg_71",
  call_id: "call_prog",
  code: 'const a = await tools.stock({ item: "bolt" });\ntext(a);\n',
  fingerprint: "fp-opaque-2",
};
const CALLER = { type: "program" as const, caller_id: "call_prog" };
const STOCK_CALL: ResponseInputItem = {
  type: "function_call",
  call_id: "call_a",
  name: "stock",
  arguments: '{"item":"bolt"}',
  caller: CALLER,
};
const STOCK_OUTPUT: ResponseInputItem = {
  type: "function_call_output",
  call_id: "call_a",
  output: "12",
  caller: CALLER,
};
const PROGRAM_OUTPUT: ResponseInputItem = {
  type: "program_output",
  id: "cmo_74",
  call_id: "call_prog",
  result: "12",
  status: "completed",
};
const SERVER_SEARCH: ResponseInputItem = {
  type: "tool_search_call",
  id: "tsc_1",
  call_id: null,
  execution: "server",
  arguments: { query: "stock" },
  status: "completed",
};
const SERVER_FOUND: ResponseInputItem = {
  type: "tool_search_output",
  id: "tso_1",
  call_id: null,
  execution: "server",
  status: "completed",
  tools: [{ type: "function", name: "stock", parameters: { type: "object" }, strict: false }],
};
const CLIENT_SEARCH: ResponseInputItem = {
  type: "tool_search_call",
  call_id: "call_ts",
  execution: "client",
  arguments: { goal: "prices" },
  status: "completed",
};
const CLIENT_FOUND: ResponseInputItem = {
  type: "tool_search_output",
  call_id: "call_ts",
  execution: "client",
  tools: [{ type: "function", name: "price", parameters: { type: "object" }, strict: false }],
};
const INPUT: ResponseInputItem[] = [
  { role: "user", content: "Stock of bolts, and their price?" },
  SERVER_SEARCH,
  SERVER_FOUND,
  PROGRAM,
  STOCK_CALL,
  STOCK_OUTPUT,
  PROGRAM_OUTPUT,
  CLIENT_SEARCH,
  CLIENT_FOUND,
];
const TOOLS: Tool[] = [
  { type: "function", name: "stock", parameters: { type: "object" }, strict: false },
  { type: "tool_search", execution: "client", description: "Find tools.", parameters: { type: "object" } },
  { type: "programmatic_tool_calling" },
];
const answer = (id: string, first: Record<string, unknown>[] = []) =>
  responsesSse([
    { type: "response.created", response: { id, object: "response", status: "in_progress", output: [] } },
    ...first,
    { type: "response.completed", response: { id, object: "response", status: "completed", output: [], usage: null } },
  ]);

/** openai-node's stream of a request with TOOLS and `store: false`, read to its end: its response. */
const respond = async (
  upstream: FakeUpstream,
  input: string | ResponseInputItem[],
  model = "openai-responses/gpt-5.6",
): Promise<OpenAI.Responses.Response> => {
  const stream = client(upstream).responses.stream({ model, input, tools: TOOLS, store: false });
  for await (const _event of stream);
  return stream.finalResponse();
};

describe("POST /v1/responses with programmatic tool calling and tool search items", () => {
  it("an OpenAI Responses upstream gets each item as the client sent it, in order, and the tools as given", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [answer("resp_1")] });
    await respond(upstream, INPUT);
    const body = upstream.requests[0]!.body as { input: Record<string, unknown>[]; tools: Record<string, unknown>[] };
    const { id: _search, ...clientSearch } = { id: undefined, ...CLIENT_SEARCH };
    expect(body.input).toEqual([
      { role: "user", content: "Stock of bolts, and their price?" },
      SERVER_SEARCH,
      SERVER_FOUND,
      PROGRAM,
      STOCK_CALL,
      STOCK_OUTPUT,
      PROGRAM_OUTPUT,
      clientSearch,
      CLIENT_FOUND,
    ]);
    expect(body.tools).toEqual([
      { type: "function", name: "stock", parameters: { type: "object" }, strict: false },
      TOOLS[1],
      TOOLS[2],
    ]);
  });

  it("a program that called none of the client's tools reaches an OpenAI upstream in its place, with its output", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [answer("resp_solo")] });
    const solo: ResponseInputItem = {
      ...PROGRAM,
      call_id: "call_solo",
      code: "text(String(6 * 7));\n",
    } as ResponseInputItem;
    const done: ResponseInputItem = { ...PROGRAM_OUTPUT, call_id: "call_solo", result: "42" } as ResponseInputItem;
    const input: ResponseInputItem[] = [
      { role: "user", content: "Six times seven?" },
      solo,
      done,
      { role: "assistant", content: "42." },
      { role: "user", content: "And times two?" },
    ];
    const stream = client(upstream).responses.stream({ model: "openai-responses/gpt-5.6", input, tools: TOOLS });
    for await (const _event of stream);
    const body = upstream.requests[0]!.body as { input: Record<string, unknown>[] };
    expect(body.input).toEqual([input[0], solo, done, input[3], input[4]]);
  });

  it("another provider gets the calls and the client search's result, and nothing OpenAI ran", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    await client(upstream)
      .responses.create({ model: "anthropic/claude-x", input: INPUT, tools: TOOLS })
      .catch(() => undefined);
    const body = upstream.requests[0]!.body as { messages: unknown[]; tools: { name: string }[] };
    expect(body.tools.map((tool) => tool.name)).toEqual(["stock", "tool_search"]);
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Stock of bolts, and their price?" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "call_a", name: "stock", input: { item: "bolt" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_a", content: "12" }] },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "call_ts", name: "tool_search", input: { goal: "prices" } }],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "call_ts", content: JSON.stringify(CLIENT_FOUND.tools) }],
      },
    ]);
    expect(JSON.stringify(body)).not.toContain("fp-opaque");
  });

  it("the caller an OpenAI call came with reaches the client on its function_call", async () => {
    const call = (args: string, status: string) => ({ ...STOCK_CALL, id: "fc_1", status, arguments: args });
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: [
        answer("resp_2", [
          { type: "response.output_item.added", output_index: 0, item: call("", "in_progress") },
          {
            type: "response.function_call_arguments.done",
            item_id: "fc_1",
            output_index: 0,
            arguments: '{"item":"bolt"}',
          },
          { type: "response.output_item.done", output_index: 0, item: call('{"item":"bolt"}', "completed") },
        ]),
      ],
    });
    const response = await respond(upstream, "Stock of bolts?");
    const out = response.output.find((item) => item.type === "function_call");
    expect(out).toMatchObject({ call_id: "call_a", name: "stock", caller: CALLER });
  });

  it("a program OpenAI ran reaches the client sealed before its call, and OpenAI gets it back before the call", async () => {
    const call = (args: string, status: string) => ({ ...STOCK_CALL, id: "fc_1", status, arguments: args });
    const first = new FakeUpstream({
      kind: "sse",
      chunks: [
        answer("resp_3", [
          { type: "response.output_item.added", output_index: 0, item: { ...PROGRAM, code: "" } },
          { type: "response.output_item.done", output_index: 0, item: PROGRAM },
          { type: "response.output_item.added", output_index: 1, item: call("", "in_progress") },
          { type: "response.output_item.done", output_index: 1, item: call('{"item":"bolt"}', "completed") },
        ]),
      ],
    });
    const { output } = await respond(first, "Stock of bolts?");
    expect(output.map((item) => item.type)).toEqual(["reasoning", "function_call"]);
    expect(JSON.stringify(output)).not.toContain("fp-opaque"); // sealed, not shown
    const second = new FakeUpstream({ kind: "sse", chunks: [answer("resp_4")] });
    await respond(second, [
      { role: "user", content: "Stock of bolts?" },
      ...(output as ResponseInputItem[]),
      { type: "function_call_output", call_id: "call_a", output: "12" },
    ]);
    const body = second.requests[0]!.body as { input: Record<string, unknown>[] };
    expect(body.input).toEqual([
      { role: "user", content: "Stock of bolts?" },
      PROGRAM,
      { type: "function_call", call_id: "call_a", name: "stock", arguments: '{"item":"bolt"}', caller: CALLER },
      { type: "function_call_output", call_id: "call_a", output: "12", caller: CALLER },
    ]);
  });

  it("a client search's call reaches the client as a tool_search_call item, from OpenAI and from another provider", async () => {
    const searched = (item: Record<string, unknown>) => item.type === "tool_search_call";
    const openAI = new FakeUpstream({
      kind: "sse",
      chunks: [
        answer("resp_5", [
          {
            type: "response.output_item.added",
            output_index: 0,
            item: { ...CLIENT_SEARCH, id: "tsc_9", arguments: {} },
          },
          { type: "response.output_item.done", output_index: 0, item: { ...CLIENT_SEARCH, id: "tsc_9" } },
        ]),
      ],
    });
    const anthropic = new FakeUpstream({
      kind: "sse",
      chunks: anthropicSse(
        { type: "message_start", message: { id: "m", content: [], usage: { input_tokens: 3 } } },
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "toolu_ts", name: "tool_search", input: {} },
        },
        {
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: '{"goal":"prices"}' },
        },
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 5 } },
        { type: "message_stop" },
      ),
    });
    for (const [model, upstream, callId] of [
      ["openai-responses/gpt-5.6", openAI, "call_ts"],
      ["anthropic/claude-x", anthropic, "toolu_ts"],
    ] as const) {
      const item = (await respond(upstream, "Find price tools.", model)).output.find((one) =>
        searched(one as unknown as Record<string, unknown>),
      );
      // openai 6's ResponseToolSearchCall, as the client runs it and answers it with tool_search_output.
      expect(item).toMatchObject({ call_id: callId, execution: "client", arguments: { goal: "prices" } });
    }
  });

  it("an item missing what OpenAI requires is a 400 naming its field", async () => {
    const upstream = new FakeUpstream({ kind: "hang" });
    for (const [item, param] of [
      [{ ...PROGRAM, fingerprint: undefined }, "input[1].fingerprint"],
      [{ ...STOCK_CALL, caller: { type: "robot" } }, "input[1].caller.type"],
      [{ ...CLIENT_FOUND, call_id: "call_unknown" }, "input[1].call_id"],
    ] as const) {
      const error = await client(upstream)
        .responses.create({
          model: "openai-responses/gpt-5.6",
          input: [{ role: "user", content: "Hi" }, item as ResponseInputItem],
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe(param);
    }
    expect(upstream.requests).toHaveLength(0);
  });
});
