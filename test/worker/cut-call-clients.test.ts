// A call that an abnormal finish cuts (Gemini's SAFETY, RECITATION or MALFORMED_FUNCTION_CALL
// while a Vertex call streams, OpenAI Responses' `response.incomplete` inside a call, the end of a
// body with no finish, `[DONE]` or Anthropic's `message_stop`, inside a call's arguments) is no call
// to run, in every client protocol, read by the real clients: Messages never says `tool_use`
// (@anthropic-ai/sdk's stop_reason; a finish with no stop_reason of its own, `other`, fails it, and
// a Chat Completions answer the same: openai-node's finish_reason, or its APIError), Responses never says `completed` of it (after a failure it is
// never done; after a length or filter stop it is done `incomplete`, as Open Responses ends every
// item of an incomplete response), AG-UI never ends it with TOOL_CALL_END (@ag-ui/client's
// HttpAgent) and the run fails. The text and the call completed before it are delivered. What is no
// content between the cut calls and the finish (a usage report, Gemini's grounding) changes nothing.
import { HttpAgent } from "@ag-ui/client";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { textBlock, toolUseBlock } from "./anthropic-blocks.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "k", GEMINI_API_KEY: "k", ANTHROPIC_API_KEY: "k" });
const base = "http://localhost:8787";
const sse = (event: string | undefined, data: unknown) =>
  `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
const TOOLS = [
  { name: "lookup", parameters: { type: "object", properties: { query: { type: "string" } } } },
  { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
];

/** Gemini (Vertex, `streamFunctionCallArguments`): text, a whole call, a call still streaming, then `finish`. */
const gemini = (finish: Record<string, unknown>): string[] =>
  [
    [{ text: "Checking " }],
    [{ functionCall: { name: "lookup", args: { query: "tides" } } }],
    [{ functionCall: { name: "get_weather", willContinue: true } }],
    [
      {
        functionCall: {
          partialArgs: [{ jsonPath: "$.city", stringValue: "Par", willContinue: true }],
          willContinue: true,
        },
      },
    ],
  ]
    .map((parts) => ({ candidates: [{ content: { role: "model", parts }, index: 0 }] }))
    .concat([{ candidates: [{ content: { role: "model", parts: [] }, index: 0, ...finish }] }])
    .map((chunk) => sse(undefined, chunk));

/** OpenAI Responses: text, a whole call, a call cut by the output budget (`response.incomplete`). */
function responsesIncomplete(): string[] {
  let sequence_number = 0;
  const event = (type: string, fields: Record<string, unknown>) =>
    sse(type, { type, sequence_number: sequence_number++, ...fields });
  const call = (id: string, name: string) => ({
    id: `fc_${id}`,
    type: "function_call",
    call_id: id,
    name,
  });
  return [
    event("response.created", { response: { id: "resp_1", object: "response", status: "in_progress", output: [] } }),
    event("response.output_text.delta", { output_index: 0, item_id: "msg_1", content_index: 0, delta: "Checking " }),
    event("response.output_item.added", { output_index: 1, item: { ...call("call_a", "lookup"), arguments: "" } }),
    event("response.function_call_arguments.delta", {
      output_index: 1,
      item_id: "fc_call_a",
      delta: '{"query":"tides"}',
    }),
    event("response.output_item.done", {
      output_index: 1,
      item: { ...call("call_a", "lookup"), status: "completed", arguments: '{"query":"tides"}' },
    }),
    event("response.output_item.added", {
      output_index: 2,
      item: { ...call("call_b", "get_weather"), arguments: "" },
    }),
    event("response.function_call_arguments.delta", { output_index: 2, item_id: "fc_call_b", delta: '{"city":"Par' }),
    event("response.incomplete", {
      response: {
        id: "resp_1",
        object: "response",
        status: "incomplete",
        output: [],
        incomplete_details: { reason: "max_output_tokens" },
      },
    }),
  ];
}

/**
 * OpenAI Chat: text, a whole call, a call cut by `length`, then the usage chunk that
 * `stream_options.include_usage` (which the Worker sends) puts after the finish: no content, so
 * it says nothing of the cut call, which the accumulator completes (invalid) before it.
 */
const chatLength = (): string[] => {
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
    sse(undefined, {
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, finish_reason }],
    });
  const call = (index: number, args: string, id: string, name: string) =>
    chunk({ tool_calls: [{ index, id, type: "function", function: { name, arguments: args } }] });
  return [
    chunk({ role: "assistant", content: "Checking " }),
    call(0, '{"query":"tides"}', "call_a", "lookup"),
    call(1, '{"city":"Par', "call_b", "get_weather"),
    chunk({}, "length"),
    sse(undefined, {
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      choices: [],
      usage: { prompt_tokens: 20, completion_tokens: 64, total_tokens: 84 },
    }),
    "data: [DONE]\n\n",
  ];
};

/** Anthropic: text, a whole tool_use, one cut inside its input, then `message_stop` with no stop_reason before it. */
const anthropicStopOnly = (): string[] =>
  [
    { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [] } },
    ...textBlock(0, "Checking "),
    ...toolUseBlock(1, "toolu_a", "lookup", '{"query":"tides"}'),
    ...toolUseBlock(2, "toolu_b", "get_weather", '{"city":"Par').slice(0, 2),
    { type: "message_stop" },
  ].map((payload) => sse(payload.type, payload));

interface Case {
  label: string;
  model: string;
  chunks: string[];
  /** Messages' stop_reason: what the finish was, never `tool_use`. */
  stop: string;
  /** How the Responses stream ends. */
  terminal: "response.incomplete" | "response.failed";
}
const cases: Case[] = [
  {
    label: "Gemini SAFETY",
    model: "gemini/gemini-x",
    chunks: gemini({ finishReason: "SAFETY" }),
    stop: "refusal",
    terminal: "response.incomplete",
  },
  {
    label: "Gemini RECITATION",
    model: "gemini/gemini-x",
    chunks: gemini({ finishReason: "RECITATION" }),
    stop: "refusal",
    terminal: "response.incomplete",
  },
  {
    label: "Gemini MALFORMED_FUNCTION_CALL",
    model: "gemini/gemini-x",
    chunks: gemini({ finishReason: "MALFORMED_FUNCTION_CALL", finishMessage: "Malformed function call: get_weather(" }),
    stop: "error",
    terminal: "response.failed",
  },
  {
    // "Unknown reason" (FinishReason.OTHER): the call is cut as much as by any other stop.
    label: "Gemini OTHER",
    model: "gemini/gemini-x",
    chunks: gemini({ finishReason: "OTHER" }),
    stop: "error",
    terminal: "response.failed",
  },
  {
    label: "OpenAI Responses response.incomplete (max_output_tokens)",
    model: "openai-responses/gpt-x",
    chunks: responsesIncomplete(),
    stop: "max_tokens",
    terminal: "response.incomplete",
  },
  {
    // The grounding of the text (Google Search) goes out at the input's end, after the calls the stop cut.
    label: "Gemini MAX_TOKENS, its grounding after",
    model: "gemini/gemini-x",
    chunks: gemini({
      finishReason: "MAX_TOKENS",
      groundingMetadata: {
        groundingChunks: [{ web: { uri: "https://tides.example", title: "Tides" } }],
        groundingSupports: [{ segment: { startIndex: 0, endIndex: 8, text: "Checking" }, groundingChunkIndices: [0] }],
      },
    }),
    stop: "max_tokens",
    terminal: "response.incomplete",
  },
  {
    label: "OpenAI Chat length, its usage chunk after the finish",
    model: "openai/gpt-x",
    chunks: chatLength(),
    stop: "max_tokens",
    terminal: "response.incomplete",
  },
  {
    // A gateway that lost the model mid-call and closed the body with `[DONE]`, no finish_reason:
    // the servers that never send one still finish, but a value cut short says this end is none.
    label: "OpenAI Chat [DONE] with no finish_reason inside a call",
    model: "openai/gpt-x",
    chunks: [...chatLength().slice(0, 3), "data: [DONE]\n\n"],
    stop: "error",
    terminal: "response.failed",
  },
  {
    label: "Anthropic message_stop with no stop_reason inside a tool_use",
    model: "anthropic/claude-x",
    chunks: anthropicStopOnly(),
    stop: "error",
    terminal: "response.failed",
  },
];
const fetchOf = (c: Case) => workerFetch({ env, upstream: new FakeUpstream({ kind: "sse", chunks: c.chunks }) });
const user = [{ role: "user" as const, content: "Tides, and the weather in Paris?" }];

describe.each(cases)("a call cut by $label", (c) => {
  it("/v1/messages (@anthropic-ai/sdk): the finish's own stop_reason, never tool_use", async () => {
    const anthropic = new Anthropic({ baseURL: base, apiKey: "t", fetch: fetchOf(c), maxRetries: 0 });
    const stream = anthropic.messages.stream({
      model: c.model,
      max_tokens: 64,
      messages: user,
      tools: TOOLS.map((tool) => ({ name: tool.name, input_schema: tool.parameters as never })),
    });
    const blocks: string[] = [];
    stream.on("contentBlock", (block) => void (block.type === "tool_use" && blocks.push(block.name)));
    const outcome = await stream.finalMessage().then(
      (message) => message.stop_reason as string,
      (error: unknown) => (error instanceof Anthropic.APIError ? "error" : String(error)),
    );
    expect(outcome).toBe(c.stop);
    // A failure never stops the cut call (a stopped tool_use reads as complete): the whole call only.
    if (c.stop === "error") expect(blocks).toEqual(["lookup"]);
  });

  it("/v1/chat/completions (openai-node): the finish's own finish_reason, or an error where none says the call was cut", async () => {
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch: fetchOf(c), maxRetries: 0 });
    const tools = TOOLS.map((tool) => ({ type: "function" as const, function: tool }));
    const expected = { max_tokens: "length", refusal: "content_filter", error: "error" }[c.stop as string];
    for (const stream of [true, false]) {
      const outcome = await (async () => {
        if (!stream) {
          const completion = await client.chat.completions.create({ model: c.model, messages: user, tools });
          return completion.choices[0]?.finish_reason as string;
        }
        let reason: string | undefined;
        const chunks = await client.chat.completions.create({ model: c.model, messages: user, tools, stream: true });
        for await (const chunk of chunks) reason = chunk.choices[0]?.finish_reason ?? reason;
        return reason;
      })().catch((error: unknown) => (error instanceof OpenAI.APIError ? "error" : String(error)));
      expect([stream, outcome]).toEqual([stream, expected]);
    }
  });

  it("/v1/responses (openai-node): the whole call completed, the cut call never", async () => {
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch: fetchOf(c), maxRetries: 0 });
    const seen: { type: string; item?: { type: string; name?: string; status?: string } }[] = [];
    let terminal: { type: string; response: OpenAI.Responses.Response } | undefined;
    await (async () => {
      const stream = await client.responses.create({
        model: c.model,
        input: "Tides, and the weather in Paris?",
        stream: true,
        tools: TOOLS.map((tool) => ({ type: "function" as const, strict: false, ...tool })),
      });
      for await (const event of stream) {
        seen.push(event as never);
        if (event.type === "response.incomplete" || event.type === "response.failed") terminal = event;
      }
    })().catch((error: unknown) => {
      // openai-node raises the `error` event that precedes response.failed.
      if (!(error instanceof OpenAI.APIError)) throw error;
    });
    const done = seen.flatMap((e) =>
      e.type === "response.output_item.done" && e.item?.type === "function_call" ? [[e.item.name, e.item.status]] : [],
    );
    // A failure leaves the cut call open; a length or filter stop ends it `incomplete` (Open Responses), never `completed`.
    const cut = c.terminal === "response.incomplete" ? [["get_weather", "incomplete"]] : [];
    expect(done).toEqual([["lookup", "completed"], ...cut]);
    if (c.terminal === "response.incomplete") {
      expect(terminal?.type).toBe(c.terminal);
      const calls = terminal!.response.output.flatMap((item) =>
        item.type === "function_call" ? [[item.name, item.status]] : [],
      );
      expect(calls).toEqual([["lookup", "completed"], ...cut]);
    }
  });

  it("/v1/ag-ui (@ag-ui/client's HttpAgent): TOOL_CALL_END for the whole call only", async () => {
    const agent = new HttpAgent({
      url: `${base}/v1/ag-ui`,
      threadId: "t1",
      headers: { authorization: "Bearer t" },
      fetch: fetchOf(c),
    });
    agent.addMessage({ id: "m1", role: "user", content: "Tides, and the weather in Paris?" });
    const names = new Map<string, string>();
    const ended: string[] = [];
    const errors: string[] = [];
    await agent.runAgent(
      {
        runId: "r1",
        tools: TOOLS.map((tool) => ({ ...tool, description: tool.name })),
        forwardedProps: { model: c.model },
      },
      {
        onToolCallStartEvent: ({ event }) => void names.set(event.toolCallId, event.toolCallName),
        onToolCallEndEvent: ({ event }) => void ended.push(names.get(event.toolCallId) ?? "?"),
        onRunErrorEvent: ({ event }) => void errors.push(String(event.code)),
      },
    );
    expect(ended).toEqual(["lookup"]);
    // A run whose call was cut is no success: RUN_ERROR, never RUN_FINISHED with the call unfinished.
    expect(errors).toHaveLength(1);
    const text = agent.messages.flatMap((m) =>
      m.role === "assistant" && typeof m.content === "string" ? [m.content] : [],
    );
    expect(text.join("")).toBe("Checking ");
  });
});
