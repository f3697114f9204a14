// OpenAI's parallel wrapper through the Worker (issue 34): a model that calls the undeclared
// `parallel` (Responses, gpt-5 and codex models) or `multi_tool_use.parallel` (Chat Completions)
// instead of making parallel calls reaches a Codex-style client as the calls it wraps, which the
// client declared and runs; before, the Worker answered one call of an undeclared tool. The
// upstream streams are built by hand (this project's tools and values) from the shape vercel/ai
// recorded from gpt-5.4 (issue-19067-parallel-tool-call-wrapper.chunks.txt, commit 9cc5e90d).
import { describe, expect, it } from "vitest";
import { responsesSse } from "../providers/openai-responses/built-in-calls-recordings.ts";
import { chatChunk, openAISSE } from "../support/streams.ts";
import { FakeUpstream, testEnv, worker } from "./support.ts";

const TOOLS = [
  { type: "function", name: "tide_table", parameters: { type: "object", properties: { harbour: { type: "string" } } } },
  { type: "function", name: "ferry_times", parameters: { type: "object", properties: { route: { type: "string" } } } },
];
const ARGS = JSON.stringify({
  tool_uses: [
    { recipient_name: "functions.tide_table", parameters: { harbour: "Brest" } },
    { recipient_name: "functions.ferry_times", parameters: { route: "Brest-Ouessant" } },
  ],
});

const responsesUpstream = responsesSse([
  { type: "response.created", response: { id: "resp_w", object: "response", status: "in_progress", output: [] } },
  {
    type: "response.output_item.added",
    output_index: 0,
    item: {
      type: "function_call",
      id: "fc_w",
      call_id: "call_w",
      name: "parallel",
      arguments: "",
      status: "in_progress",
    },
  },
  { type: "response.function_call_arguments.delta", item_id: "fc_w", output_index: 0, delta: ARGS.slice(0, 40) },
  { type: "response.function_call_arguments.delta", item_id: "fc_w", output_index: 0, delta: ARGS.slice(40) },
  { type: "response.function_call_arguments.done", item_id: "fc_w", output_index: 0, arguments: ARGS },
  { type: "response.completed", response: { id: "resp_w", object: "response", status: "completed", output: [] } },
]);

const chatUpstream = openAISSE([
  chatChunk({
    role: "assistant",
    tool_calls: [
      { index: 0, id: "call_w", type: "function", function: { name: "multi_tool_use.parallel", arguments: "" } },
    ],
  }),
  chatChunk({ tool_calls: [{ index: 0, function: { arguments: ARGS } }] }),
  chatChunk({}, "tool_calls"),
]);

async function responsesOutput(model: string, upstreamBody: string) {
  const upstream = new FakeUpstream({ kind: "sse", chunks: [upstreamBody] });
  const env = testEnv({ OPENAI_API_KEY: "sk-test-0123456789abcdef", CLIENT_TOKEN: "t" });
  const response = await worker(upstream).call(
    new Request("http://localhost:8787/v1/responses", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({ model, input: "Tides and ferries for Brest?", tools: TOOLS }),
    }),
    env,
  );
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    output: { type: string; call_id?: string; name?: string; arguments?: string }[];
  };
  return body.output
    .filter((item) => item.type === "function_call")
    .map((item) => [item.call_id, item.name, item.arguments]);
}

describe("the parallel wrapper through POST /v1/responses", () => {
  for (const [upstream, model, body] of [
    ["OpenAI Responses (`parallel`)", "openai-responses/gpt-5.4", responsesUpstream],
    ["OpenAI Chat (`multi_tool_use.parallel`)", "openai/gpt-4o", chatUpstream],
  ] as const)
    it(`${upstream}: the client gets the declared calls the wrapper names, never the wrapper`, async () => {
      expect(await responsesOutput(model, body)).toEqual([
        ["call_w_0", "tide_table", '{"harbour":"Brest"}'],
        ["call_w_1", "ferry_times", '{"route":"Brest-Ouessant"}'],
      ]);
    });
});
