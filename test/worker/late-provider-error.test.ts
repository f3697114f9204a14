// A provider's error that comes after its finish reason (an OpenAI-compatible server's `error`
// event after `finish_reason: "tool_calls"`, Anthropic's `error` event after `message_delta`'s
// `stop_reason: "tool_use"`) ends the response and the run on every endpoint, as one before it
// does: everything before it reaches the client (the text, the complete call, in run mode the
// tool's result), then the protocol's own error, and no tool step is started on the failed turn
// (one provider request). Before: /v1/run and /v1/ui's run mode went on asking the model (eight
// requests, to max_steps), and /v1/stream's finish said `tool-calls`. Nothing of the provider's
// message reaches a client.
import { describe, expect, it } from "vitest";
import { FakeUpstream, testEnv, worker } from "./support.ts";

const SECRET = "sk-live-SECRET0123";
const env = testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" });
const sse = (event: string | undefined, data: unknown) =>
  `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  sse(undefined, { id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
const CALL = { name: "calculate", arguments: '{"expression":"2+2"}' };
const OPENAI = [
  chunk({ role: "assistant", content: "Let me." }),
  chunk({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: CALL }] }),
  chunk({}, "tool_calls"),
  sse("error", { error: { message: `Overloaded ${SECRET}`, type: "server_error", code: "server_is_overloaded" } }),
];
const block = (index: number, content_block: unknown) =>
  sse("content_block_start", { type: "content_block_start", index, content_block });
const delta = (index: number, delta: unknown) =>
  sse("content_block_delta", { type: "content_block_delta", index, delta });
const ANTHROPIC = [
  sse("message_start", {
    type: "message_start",
    message: { id: "msg_1", type: "message", role: "assistant", model: "c", content: [], usage: { input_tokens: 3 } },
  }),
  block(0, { type: "text", text: "" }),
  delta(0, { type: "text_delta", text: "Let me." }),
  sse("content_block_stop", { type: "content_block_stop", index: 0 }),
  block(1, { type: "tool_use", id: "call_1", name: "calculate", input: {} }),
  delta(1, { type: "input_json_delta", partial_json: CALL.arguments }),
  sse("content_block_stop", { type: "content_block_stop", index: 1 }),
  sse("message_delta", { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } }),
  sse("error", { type: "error", error: { type: "overloaded_error", message: `Overloaded ${SECRET}` } }),
];

const tools = [{ name: "calculate", parameters: { type: "object", properties: { expression: { type: "string" } } } }];
const user = [{ role: "user", content: "2+2?" }];
const uiUser = [{ id: "u", role: "user", parts: [{ type: "text", text: "2+2?" }] }];
const agui = (forwardedProps: Record<string, unknown>, offered: unknown[]) => ({
  threadId: "t",
  runId: "r",
  messages: [{ id: "u", role: "user", content: "2+2?" }],
  tools: offered,
  context: [],
  state: {},
  forwardedProps,
});

/** Each endpoint's request, and what its answer must hold: in this order, and last. */
const CASES: {
  label: string;
  path: string;
  body: (provider: string) => unknown;
  status?: (provider: string) => number;
  expect: (text: string) => void;
}[] = [
  {
    label: "/v1/stream: the error, then a finish of reason error",
    path: "/v1/stream",
    body: (provider) => ({ provider, model: "m", messages: user, tools }),
    expect: (text) =>
      expect(text).toMatch(/event: tool-call\n[\s\S]*event: error\n[\s\S]*"type":"finish","reason":"error"[^\n]*\n\n$/),
  },
  {
    label: "/v1/run: the tool's result, the error, then loop-finish aborted",
    path: "/v1/run",
    body: (provider) => ({ provider, model: "m", messages: user, tools: ["calculate"] }),
    expect: (text) =>
      expect(text).toMatch(
        /event: tool-result\n[\s\S]*event: error\n[\s\S]*"type":"loop-finish","steps":1,"reason":"aborted"}\n\n$/,
      ),
  },
  {
    label: "/v1/ui run mode: the tool's output, the error part, no second step",
    path: "/v1/ui",
    body: (provider) => ({ model: `${provider}/m`, run: true, messages: uiUser, tools: ["calculate"] }),
    expect: (text) => {
      expect(text).toMatch(
        /"tool-output-available"[\s\S]*"type":"error"[\s\S]*"finish-step"[\s\S]*"type":"finish"[\s\S]*\[DONE\]\n\n$/,
      );
      expect(text.match(/"start-step"/g)).toHaveLength(1);
    },
  },
  {
    label: "/v1/ui: the error part",
    path: "/v1/ui",
    body: (provider) => ({ model: `${provider}/m`, messages: uiUser, tools }),
    expect: (text) => expect(text).toMatch(/"tool-input-available"[\s\S]*"type":"error"[\s\S]*\[DONE\]\n\n$/),
  },
  {
    label: "/v1/ag-ui run mode: the tool's result, then RUN_ERROR",
    path: "/v1/ag-ui",
    body: (provider) => agui({ model: `${provider}/m`, run: true, tools: ["calculate"] }, []),
    expect: (text) => expect(text).toMatch(/"TOOL_CALL_RESULT"[\s\S]*"RUN_ERROR"[^\n]*\n\n$/),
  },
  {
    label: "/v1/chat/completions: the call, then OpenAI's error chunk",
    path: "/v1/chat/completions",
    body: (provider) => ({
      model: `${provider}/m`,
      stream: true,
      messages: user,
      tools: tools.map((f) => ({ type: "function", function: f })),
    }),
    expect: (text) =>
      expect(text).toMatch(/"tool_calls"[\s\S]*data: {"error":{[^\n]*"code":"server_is_overloaded"}}\n\n$/),
  },
  {
    label: "/v1/chat/completions, not streamed: OpenAI's 503",
    path: "/v1/chat/completions",
    body: (provider) => ({
      model: `${provider}/m`,
      messages: user,
      tools: tools.map((f) => ({ type: "function", function: f })),
    }),
    status: () => 503,
    expect: (text) => expect(JSON.parse(text)).toMatchObject({ error: { code: "server_is_overloaded" } }),
  },
  {
    label: "/v1/messages: the tool_use block, then Anthropic's error event",
    path: "/v1/messages",
    body: (provider) => ({
      model: `${provider}/m`,
      stream: true,
      max_tokens: 9,
      messages: user,
      tools: [{ name: "calculate", input_schema: tools[0]!.parameters }],
    }),
    expect: (text) => expect(text).toMatch(/"tool_use"[\s\S]*event: error\ndata: [^\n]*"overloaded_error"[^\n]*\n\n$/),
  },
  {
    label: "/v1/messages, not streamed: Anthropic's 529 overloaded_error",
    path: "/v1/messages",
    body: (provider) => ({
      model: `${provider}/m`,
      max_tokens: 9,
      messages: user,
      tools: [{ name: "calculate", input_schema: tools[0]!.parameters }],
    }),
    status: () => 529,
    expect: (text) => expect(JSON.parse(text)).toMatchObject({ type: "error", error: { type: "overloaded_error" } }),
  },
  {
    label: "/v1/responses: the function_call item, then error and response.failed",
    path: "/v1/responses",
    body: (provider) => ({
      model: `${provider}/m`,
      stream: true,
      input: "2+2?",
      tools: [{ type: "function", ...tools[0] }],
    }),
    expect: (text) =>
      expect(text).toMatch(
        /"function_call"[\s\S]*event: error\n[\s\S]*event: response.failed\n[^\n]*\n\ndata: \[DONE\]\n\n$/,
      ),
  },
  {
    label: "/v1/responses, not streamed: a failed response with a 503",
    path: "/v1/responses",
    body: (provider) => ({ model: `${provider}/m`, input: "2+2?", tools: [{ type: "function", ...tools[0] }] }),
    status: () => 503,
    expect: (text) => expect(JSON.parse(text)).toMatchObject({ status: "failed", error: { code: "server_error" } }),
  },
];

describe.each([
  ["openai", OPENAI],
  ["anthropic", ANTHROPIC],
] as const)("%s: a provider error after the finish reason", (provider, chunks) => {
  it.each(CASES)("$label", async ({ path, body, status, expect: check }) => {
    const upstream = new FakeUpstream({ kind: "sse", chunks });
    const response = await worker(upstream).call(
      new Request(`http://localhost:8787${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t", "x-api-key": "t" },
        body: JSON.stringify(body(provider)),
      }),
      env,
    );
    const text = await response.text();
    expect(response.status).toBe(status?.(provider) ?? 200);
    check(text);
    expect(upstream.requests).toHaveLength(1);
    expect(text).not.toContain("SECRET");
  });
});
