// Nothing the model produced before a fault is lost, read by the real clients: text and a call
// that came while an earlier call still streamed wait behind it (Messages shows one block at a
// time), and when a failure (an error line or event, a cut connection) cuts that call short,
// @anthropic-ai/sdk's stream helper still gets every text delta and every complete tool_use, the
// half call never as a runnable tool_use (no `contentBlock` for it), then the error (an error
// finish: test/worker/cut-call-clients.test.ts). In AG-UI an invalid call waits for what follows
// it: the call a length stop cut is never ended (TOOL_CALL_END) even when a complete call follows
// it, and the run fails.
import { HttpAgent } from "@ag-ui/client";
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { AGUIEncoder, encodeEvents, type ToolCallEvent } from "../../src/index.ts";
import { chatChunk, openAISSE } from "../support/streams.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "k", GEMINI_API_KEY: "k" });
const base = "http://localhost:8787";
const TOOLS = [
  { name: "shell", parameters: { type: "object", properties: { cmd: { type: "string" } } } },
  { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
  { name: "lookup", parameters: { type: "object", properties: { query: { type: "string" } } } },
];
const user = [{ role: "user" as const, content: "List the files, and the weather in Paris?" }];

const call = (index: number, args: string, id?: string, name?: string) =>
  chatChunk({
    tool_calls: [{ index, ...(id && { id, type: "function" }), function: { ...(name && { name }), arguments: args } }],
  });
/** OpenAI Chat: text, then `shell`'s fragments interleaved with text and a whole second call; no finish. */
const interleaved = openAISSE(
  [
    chatChunk({ content: "Checking. " }),
    call(0, '{"cmd":', "call_1", "shell"),
    chatChunk({ content: "The disk " }),
    call(1, '{"city":"Paris"}', "call_2", "get_weather"),
    chatChunk({ content: "is full." }),
    call(0, '"ls'),
  ],
  false,
);

/** OpenAI Chat: text, a whole call, then a second call cut in its arguments; no finish. */
const sequential = openAISSE(
  [
    chatChunk({ content: "Checking. " }),
    call(0, '{"city":"Paris"}', "call_1", "get_weather"),
    call(1, '{"cmd":', "call_2", "shell"),
  ],
  false,
);

let sequence = 0;
const responsesEvent = (type: string, fields: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`;
const item = (id: string, name: string, fields: Record<string, unknown>) => ({
  id: `fc_${id}`,
  type: "function_call",
  call_id: id,
  name,
  ...fields,
});
/** OpenAI Responses: `shell` streams, `get_weather` is added and done meanwhile, then text, then `event: error`. */
const responsesInterleaved = [
  responsesEvent("response.created", { response: { id: "resp_1", object: "response", status: "in_progress" } }),
  responsesEvent("response.output_item.added", { output_index: 0, item: item("call_a", "shell", { arguments: "" }) }),
  responsesEvent("response.function_call_arguments.delta", {
    output_index: 0,
    item_id: "fc_call_a",
    delta: '{"cmd":"l',
  }),
  responsesEvent("response.output_item.added", {
    output_index: 1,
    item: item("call_b", "get_weather", { arguments: "" }),
  }),
  responsesEvent("response.function_call_arguments.delta", {
    output_index: 1,
    item_id: "fc_call_b",
    delta: '{"city":"Paris"}',
  }),
  responsesEvent("response.output_item.done", {
    output_index: 1,
    item: item("call_b", "get_weather", { status: "completed", arguments: '{"city":"Paris"}' }),
  }),
  responsesEvent("response.output_text.delta", {
    output_index: 2,
    item_id: "msg_1",
    content_index: 0,
    delta: "The disk is full.",
  }),
  responsesEvent("error", { code: "server_error", message: "The server had an error.", param: null }),
];

interface FaultCase {
  label: string;
  model: string;
  chunks: string[];
  text: string;
  /** The complete calls, as the SDK's `contentBlock` gives them. */
  calls: [string, unknown][];
}
const faults: FaultCase[] = [
  {
    label: "OpenAI Chat: an error line while the first call streams",
    model: "openai/gpt-x",
    chunks: [interleaved, `data: ${JSON.stringify({ error: { message: "boom", type: "server_error" } })}\n\n`],
    text: "Checking. The disk is full.",
    // Index 0 came back after index 1 (interleaved): a later index proves nothing, neither call is complete.
    calls: [],
  },
  {
    label: "OpenAI Chat: the connection cut while the second call streams, the first sent whole before it",
    model: "openai/gpt-x",
    chunks: [sequential],
    text: "Checking. ",
    // Chat sends calls one index after another: index 1 began, so call 0 was whole.
    calls: [["get_weather", { city: "Paris" }]],
  },
  {
    label: "OpenAI Chat: the connection cut while the first call streams",
    model: "openai/gpt-x",
    chunks: [interleaved],
    text: "Checking. The disk is full.",
    calls: [],
  },
  {
    label: "OpenAI Responses: an error event while the first call streams",
    model: "openai-responses/gpt-x",
    chunks: responsesInterleaved,
    text: "The disk is full.",
    calls: [["get_weather", { city: "Paris" }]],
  },
];

describe.each(faults)("/v1/messages (@anthropic-ai/sdk's stream helper), $label", (c) => {
  it("every text delta and complete tool_use before the fault, never the half call, then the error", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: c.chunks });
    const anthropic = new Anthropic({
      baseURL: base,
      apiKey: "t",
      fetch: workerFetch({ env, upstream }),
      maxRetries: 0,
    });
    const stream = anthropic.messages.stream({
      model: c.model,
      max_tokens: 64,
      messages: user,
      tools: TOOLS.map((tool) => ({ name: tool.name, input_schema: tool.parameters as never })),
    });
    const texts: string[] = [];
    const calls: [string, unknown][] = [];
    stream.on("text", (delta) => void texts.push(delta));
    stream.on("contentBlock", (block) => {
      if (block.type === "tool_use") calls.push([block.name, block.input]);
    });
    const outcome = await stream.finalMessage().then(
      (message) => String(message.stop_reason),
      (error: unknown) => (error instanceof Anthropic.APIError ? "error" : String(error)),
    );
    expect({ text: texts.join(""), calls, outcome }).toEqual({ text: c.text, calls: c.calls, outcome: "error" });
  });
});

/** Reads an AG-UI answer with @ag-ui/client's HttpAgent: the calls ended, the run's errors, the assistant's text. */
async function readAGUI(fetch: typeof globalThis.fetch, model = "openai/gpt-x") {
  const agent = new HttpAgent({
    url: `${base}/v1/ag-ui`,
    threadId: "t1",
    headers: { authorization: "Bearer t" },
    fetch,
  });
  agent.addMessage({ id: "m1", role: "user", content: user[0]!.content });
  const names = new Map<string, string>();
  const ended: string[] = [];
  const errors: string[] = [];
  let finished = false;
  await agent.runAgent(
    { runId: "r1", tools: TOOLS.map((tool) => ({ ...tool, description: tool.name })), forwardedProps: { model } },
    {
      onToolCallStartEvent: ({ event }) => void names.set(event.toolCallId, event.toolCallName),
      onToolCallEndEvent: ({ event }) => void ended.push(names.get(event.toolCallId) ?? "?"),
      onRunErrorEvent: ({ event }) => void errors.push(String(event.code)),
      onRunFinishedEvent: () => void (finished = true),
    },
  );
  const calls = agent.messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []));
  return { ended, errors, finished, calls: calls.map((c) => [c.function.name, c.function.arguments]) };
}

describe("/v1/ag-ui (@ag-ui/client's HttpAgent): an invalid call waits for what follows it", () => {
  it("a call a length stop cut is never ended, though a complete call follows it: RUN_ERROR length", async () => {
    // The accumulator completes the cut call (invalid) and then the whole one (valid), right before the finish.
    const chunks = [
      openAISSE([
        call(0, '{"cmd":"l', "call_1", "shell"),
        call(1, '{"city":"Paris"}', "call_2", "get_weather"),
        chatChunk({}, "length"),
      ]),
    ];
    const read = await readAGUI(workerFetch({ env, upstream: new FakeUpstream({ kind: "sse", chunks }) }));
    expect(read).toMatchObject({ ended: ["get_weather"], errors: ["length"], finished: false });
  });

  // The encoder fed directly: a run whose events end with an invalid call (no finish after it).
  const agUI = (events: ToolCallEvent[]): typeof fetch =>
    (async () =>
      new Response(encodeEvents(new AGUIEncoder({ threadId: "t1", runId: "r1" }), events, true), {
        headers: { "content-type": "text/event-stream" },
      })) as typeof fetch;
  const invalid: ToolCallEvent = {
    type: "invalid-tool-call",
    index: 0,
    id: "call_1",
    name: "shell",
    rawArguments: '{"cmd":ls}',
    error: { code: "invalid-json", message: "The tool arguments are not valid JSON (at offset 7).", position: 7 },
  };
  const streamed: ToolCallEvent[] = [
    { type: "tool-call-start", index: 0, id: "call_1", name: "shell" },
    { type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta: '{"cmd":ls}', closed: false },
  ];

  it("the input ends after an invalid call: it is ended, as content after it would end it, and the run finishes", async () => {
    const mid = await readAGUI(agUI([...streamed, invalid, { type: "text-delta", text: "Done." }]));
    expect(mid).toMatchObject({ ended: ["shell"], errors: [], finished: true });
    expect(await readAGUI(agUI([...streamed, invalid]))).toEqual(mid);
    // A call that came whole too: shown and ended, not lost.
    expect(await readAGUI(agUI([invalid]))).toEqual(mid);
  });

  it("the input ends while another call is open: a fault, so the invalid call is not ended, as at an abort", async () => {
    const other: ToolCallEvent[] = [
      { type: "tool-call-start", index: 1, id: "call_2", name: "get_weather" },
      { type: "tool-call-delta", index: 1, id: "call_2", argumentsDelta: '{"city":', closed: false },
    ];
    const aborted = await readAGUI(
      agUI([...streamed, ...other, invalid, { type: "abort", reason: "input-ended", discarded: [] }]),
    );
    expect(aborted).toMatchObject({ ended: [], errors: ["input-ended"], finished: false });
    expect(await readAGUI(agUI([...streamed, ...other, invalid]))).toEqual(aborted);
  });
});
