import {
  runToolLoop,
  ToolRunnerStream,
  type RunnableTool,
  type ToolCallEvent,
  type ToolLoopEvent,
  type ToolRunnerEvent,
} from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { eventually, recordingSource } from "../support/sources.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE } from "../support/streams.ts";

const weather: RunnableTool = {
  description: "The weather in a city.",
  parameters: {
    type: "object",
    properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
    required: ["city", "unit"],
  },
  run: (args) => `18 degrees ${(args as { unit: string }).unit} in ${(args as { city: string }).city}`,
};
const clock: RunnableTool = { parameters: { type: "object", properties: {} }, run: () => "noon" };

/** Anthropic SSE events, one per chunk. */
function anthropicEvents(events: readonly Record<string, unknown>[]): Uint8Array[] {
  return events.map((event) => bytes(`event: ${String(event["type"])}\ndata: ${JSON.stringify(event)}\n\n`));
}

/** Text, a call to get_time that completes, then get_weather whose unit goes wrong, then much more. */
function badTurn(): Uint8Array[] {
  const block = (index: number, partial_json: string): Record<string, unknown> => ({
    type: "content_block_delta",
    index,
    delta: { type: "input_json_delta", partial_json },
  });
  return anthropicEvents([
    {
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        content: [],
        model: "claude",
        stop_reason: null,
        usage: { input_tokens: 9, output_tokens: 1 },
      },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Let me check." } },
    { type: "content_block_stop", index: 0 },
    {
      type: "content_block_start",
      index: 1,
      content_block: { type: "tool_use", id: "toolu_t", name: "get_time", input: {} },
    },
    block(1, "{}"),
    { type: "content_block_stop", index: 1 },
    {
      type: "content_block_start",
      index: 2,
      content_block: { type: "tool_use", id: "toolu_w", name: "get_weather", input: {} },
    },
    block(2, '{"city": "Oslo", '),
    block(2, '"unit": "kel'),
    ...Array.from({ length: 30 }, () => block(2, "vin")),
    { type: "content_block_stop", index: 2 },
    { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 40 } },
    { type: "message_stop" },
  ]);
}

/** A Chat Completions turn whose get_weather call has a unit no enum member begins with. */
const chatBadTurn = openAISSE([
  chatChunk({
    tool_calls: [
      { index: 0, id: "call_w", function: { name: "get_weather", arguments: '{"city": "Oslo", "unit": "kel' } },
    ],
  }),
  chatChunk({ tool_calls: [{ index: 0, function: { arguments: 'vin"}' } }] }),
  chatChunk({}, "tool_calls"),
]);

const goodTurn = anthropicEvents([
  {
    type: "message_start",
    message: {
      id: "msg_2",
      type: "message",
      role: "assistant",
      content: [],
      model: "claude",
      stop_reason: null,
      usage: { input_tokens: 9, output_tokens: 1 },
    },
  },
  {
    type: "content_block_start",
    index: 0,
    content_block: { type: "tool_use", id: "toolu_w2", name: "get_weather", input: {} },
  },
  {
    type: "content_block_delta",
    index: 0,
    delta: { type: "input_json_delta", partial_json: '{"city": "Oslo", "unit": "celsius"}' },
  },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } },
  { type: "message_stop" },
]);
const answerTurn = anthropicEvents([
  {
    type: "message_start",
    message: {
      id: "msg_3",
      type: "message",
      role: "assistant",
      content: [],
      model: "claude",
      stop_reason: null,
      usage: { input_tokens: 9, output_tokens: 1 },
    },
  },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "It is 18 degrees in Oslo." } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 9 } },
  { type: "message_stop" },
]);
const STOPPED = `The arguments stopped matching the tool's parameters at /unit while they streamed: Expected one of "celsius", "fahrenheit". The call was stopped and did not run. Send one JSON object with the required fields city, unit, matching the tool's parameters.`;

group("Early validation in the tool runner and the loop", (test) => {
  test("the runner answers the call an abort stopped at its violation, and runs nothing of it", async () => {
    const error = {
      code: "schema-mismatch" as const,
      message: 'Expected one of "celsius", "fahrenheit".',
      path: "/unit",
    };
    const input: ToolCallEvent[] = [
      { type: "tool-call-start", index: 0, id: "c1", name: "get_weather" },
      { type: "tool-call-delta", index: 0, id: "c1", argumentsDelta: '{"unit": "k', closed: false },
      { type: "tool-call-violation", index: 0, id: "c1", name: "get_weather", error },
      {
        type: "abort",
        reason: "schema-violation",
        discarded: [{ index: 0, id: "c1", name: "get_weather", rawArguments: '{"unit": "k' }],
        error,
      },
    ];
    const events = await collect(
      fromChunks(input).pipeThrough(new ToolRunnerStream({ tools: { get_weather: weather } })),
    );
    const outcome = events.at(-1) as ToolRunnerEvent;
    assert(outcome.type === "tool-error", `a tool-error last: ${JSON.stringify(events.map((e) => e.type))}`);
    assertEquals([outcome.id, outcome.error.code, outcome.error.retryable], ["c1", "invalid-arguments", true]);
    assertEquals(outcome.error.message, STOPPED);
  });

  test("runToolLoop with abortOnViolation cancels the bad step, sends what was wrong and calls the model again at once", async () => {
    const first = recordingSource(badTurn());
    const requests: unknown[][] = [];
    const responses: BodyInit[] = [first.stream, fromChunks(goodTurn), fromChunks(answerTurn)];
    const events: ToolLoopEvent[] = await collect(
      runToolLoop({
        provider: "anthropic",
        messages: [{ role: "user", content: "Time, and weather in Oslo?" }],
        tools: { get_weather: weather, get_time: clock },
        earlyValidation: true,
        abortOnViolation: true,
        call: ({ messages }) => {
          requests.push([...messages]);
          return Promise.resolve(
            new Response(responses[requests.length - 1]!, { headers: { "content-type": "text/event-stream" } }),
          );
        },
      }),
    );
    await eventually(() => first.cancelled !== undefined, "the bad step's response was cancelled");
    assert(first.pulled < badTurn().length, `the bad step was not read to its end (${first.pulled})`);
    const step1 = events.filter((event) => "step" in event && event.step === 1).map((event) => event.type);
    // get_time ran the moment its block closed; its result comes whenever it settles.
    assertEquals(
      step1.filter((type) => type !== "tool-result"),
      [
        "usage",
        "text-delta",
        "tool-call-start",
        "tool-call-delta",
        "tool-call",
        "tool-call-start",
        "tool-call-delta",
        "tool-call-delta",
        "tool-call-violation",
        "abort",
        "tool-error",
        "step-finish",
      ],
    );
    assertEquals(step1.filter((type) => type === "tool-result").length, 1);
    const final = events.at(-1);
    assert(final?.type === "loop-finish", "ends with loop-finish");
    assertEquals([final.reason, final.steps, requests.length], ["no-tool-calls", 3, 3]);
    // Step 2 is asked with the turn as far as it went: its text, the call that completed and its
    // result, the stopped call (with {}) and what was wrong with it.
    assertEquals(requests[1]!.slice(1), [
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "toolu_t", name: "get_time", input: {} },
          { type: "tool_use", id: "toolu_w", name: "get_weather", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_t", content: "noon" },
          { type: "tool_result", tool_use_id: "toolu_w", content: STOPPED, is_error: true },
        ],
      },
    ]);
    const result = events.find((event) => event.type === "tool-result" && event.step === 2);
    assertEquals(result?.type === "tool-result" ? result.result : undefined, "18 degrees celsius in Oslo");
  });

  test("without abortOnViolation the step runs to its end and the call is answered as invalid", async () => {
    const responses = [chatBadTurn, openAISSE([chatChunk({ content: "Sorry." }), chatChunk({}, "stop")])];
    let step = 0;
    const events = await collect(
      runToolLoop({
        provider: "openai",
        messages: [],
        tools: { get_weather: weather },
        earlyValidation: true,
        call: () => Promise.resolve(new Response(responses[step++]!)),
      }),
    );
    const types = events.filter((event) => "step" in event && event.step === 1).map((event) => event.type);
    assert(
      types.includes("tool-call-violation") && types.includes("finish") && !types.includes("abort"),
      `the step finished: ${types}`,
    );
    const error = events.find((event) => event.type === "tool-error");
    assert(
      error?.type === "tool-error" && error.error.code === "invalid-arguments" && !error.error.retryable,
      "answered as invalid arguments",
    );
  });
});
