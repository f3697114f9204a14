import {
  assistantMessage,
  BedrockDecoder,
  bedrockAssistantMessage,
  bedrockToolResultMessage,
  streamToolCalls,
  toolDefinitions,
  toolResultMessages,
  type ToolCallEvent,
} from "../../../src/index.ts";
import {
  concat,
  converse,
  encodeMessage,
  eventMessage,
  exceptionMessage,
  invokeChunks,
} from "../../support/event-stream.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { collect, fromChunks, splitAt } from "../../support/streams.ts";

const run = async (body: Uint8Array, cuts: number[] = []): Promise<ToolCallEvent[]> => {
  const events = await collect(streamToolCalls(fromChunks(splitAt(body, cuts)), { provider: "bedrock" }));
  assertEventInvariants(events);
  return events;
};
const last = (events: ToolCallEvent[]): ToolCallEvent => events.at(-1)!;
const toolStart = (
  index: number,
  toolUseId: string,
  name: string,
  type?: string,
): [string, Record<string, unknown>] => [
  "contentBlockStart",
  { contentBlockIndex: index, start: { toolUse: { toolUseId, name, ...(type ? { type } : {}) } } },
];
const input = (index: number, text: string): [string, Record<string, unknown>] => [
  "contentBlockDelta",
  { contentBlockIndex: index, delta: { toolUse: { input: text } } },
];
const stop = (index: number): [string, Record<string, unknown>] => ["contentBlockStop", { contentBlockIndex: index }];
const messageStop = (stopReason: string): [string, Record<string, unknown>] => ["messageStop", { stopReason }];
const metadata: [string, Record<string, unknown>] = [
  "metadata",
  { usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, metrics: { latencyMs: 300 } },
];

group("Bedrock ConverseStream rules", (test) => {
  test("interleaved calls are told apart by contentBlockIndex; text starts with a delta and no start; p padding is ignored", async () => {
    const body = converse([
      ["messageStart", { role: "assistant" }],
      ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Checking." } }],
      stop(0),
      toolStart(1, "tooluse_a", "get_weather"),
      toolStart(2, "tooluse_b", "get_time"),
      input(2, '{"zone":'),
      input(1, '{"city":'),
      input(1, '"Paris"}'),
      input(2, '"UTC"}'),
      stop(2),
      stop(1),
      messageStop("tool_use"),
      metadata,
    ]);
    const events = await run(body, [5, 100, 400]);
    const calls = events.flatMap((e) => (e.type === "tool-call" ? [[e.index, e.id, e.name, e.arguments]] : []));
    assertEquals(calls, [
      [2, "tooluse_b", "get_time", { zone: "UTC" }],
      [1, "tooluse_a", "get_weather", { city: "Paris" }],
    ]);
    const finish = last(events);
    assert(finish.type === "finish", "finish");
    assertEquals(
      [finish.reason, finish.rawReason, finish.text, finish.usage?.totalTokens],
      ["tool-calls", "tool_use", "Checking.", 15],
    );
  });

  test("a contentBlockIndex that is not a non-negative safe integer is a malformed-payload error for that message; the stream goes on, and the call open then is invalid (the message may have been its fragment)", async () => {
    const bad: unknown[] = [-1, 1.5, "1", 2 ** 53, null, { n: 1 }, undefined];
    for (const index of bad) {
      const at = index === undefined ? {} : { contentBlockIndex: index };
      const body = converse([
        toolStart(0, "t0", "get_weather"),
        ["contentBlockStart", { ...at, start: { toolUse: { toolUseId: "t_bad", name: "bad" } } }],
        input(0, '{"city":'),
        ["contentBlockDelta", { ...at, delta: { toolUse: { input: '{"x":1}' } } }],
        ["contentBlockDelta", { ...at, delta: { text: "lost" } }],
        input(0, '"Paris"}'),
        ["contentBlockStop", at],
        stop(0),
        messageStop("tool_use"),
        metadata,
      ]);
      const events = await run(body, [7, 150]);
      const errors = events.flatMap((e) => (e.type === "error" ? [e.error.code] : []));
      assertEquals(
        errors,
        ["malformed-payload", "malformed-payload", "malformed-payload", "malformed-payload"],
        `index ${JSON.stringify(index)}`,
      );
      const finish = last(events);
      assert(finish.type === "finish", `finish (index ${JSON.stringify(index)})`);
      assertEquals(
        [
          finish.toolCalls.map((c) => [c.index, c.id, c.arguments]),
          finish.invalidToolCalls.map((c) => [c.index, c.id, c.rawArguments, c.error.code]),
          finish.text,
        ],
        [[], [[0, "t0", '{"city":"Paris"}', "malformed-payload"]], ""],
        `index ${JSON.stringify(index)}`,
      );
    }
  });

  test("a call with no arguments, with no delta or only an empty input, is {}", async () => {
    const body = converse([
      toolStart(0, "t0", "now"),
      stop(0),
      toolStart(1, "t1", "list"),
      input(1, ""),
      stop(1),
      messageStop("tool_use"),
      metadata,
    ]);
    const finish = last(await run(body));
    assert(finish.type === "finish", "finish");
    assertEquals(
      finish.toolCalls.map((c) => [c.name, c.arguments]),
      [
        ["now", {}],
        ["list", {}],
      ],
    );
  });

  test("a toolUse of type server_tool_use ran on the provider: providerExecuted, left out of the next turn", async () => {
    const body = converse([
      toolStart(0, "srv_1", "web_search", "server_tool_use"),
      input(0, '{"q":"x"}'),
      stop(0),
      messageStop("end_turn"),
      metadata,
    ]);
    const events = await run(body);
    const call = events.find((e) => e.type === "tool-call");
    assert(call?.type === "tool-call" && call.providerExecuted === true, "marked providerExecuted");
    const finish = last(events);
    assert(finish.type === "finish", "finish");
    assertEquals(bedrockAssistantMessage(finish), { role: "assistant", content: [] });
  });

  test("deltas that arrive after their block stopped are ignored", async () => {
    const body = converse([
      toolStart(0, "t0", "f"),
      input(0, '{"a":1}'),
      stop(0),
      input(0, '{"a":2}'),
      ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "late" } }],
      stop(0),
      messageStop("tool_use"),
      metadata,
    ]);
    const events = await run(body);
    assertEquals(events.filter((e) => e.type === "tool-call").length, 1);
    const finish = last(events);
    assert(finish.type === "finish", "finish");
    assertEquals([finish.toolCalls[0]!.arguments, finish.text], [{ a: 1 }, ""]);
  });

  test("reasoning with its signature and redacted reasoning are kept for the next turn, as Anthropic thinking", async () => {
    const reason = (delta: Record<string, unknown>): [string, Record<string, unknown>] => [
      "contentBlockDelta",
      { contentBlockIndex: 0, delta: { reasoningContent: delta } },
    ];
    const body = converse([
      reason({ text: "Let me " }),
      reason({ text: "think." }),
      reason({ signature: "sig-1" }),
      stop(0),
      ["contentBlockDelta", { contentBlockIndex: 1, delta: { reasoningContent: { redactedContent: "b64data" } } }],
      ["contentBlockStop", { contentBlockIndex: 1 }],
      toolStart(2, "t2", "f"),
      input(2, "{}"),
      stop(2),
      messageStop("tool_use"),
      metadata,
    ]);
    const finish = last(await run(body));
    assert(finish.type === "finish", "finish");
    assertEquals(
      [finish.reasoning, finish.reasoningParts],
      [
        "Let me think.",
        [
          { type: "signed", text: "Let me think.", signature: "sig-1" },
          { type: "redacted", data: "b64data" },
        ],
      ],
    );
    assertEquals((assistantMessage("bedrock", finish) as { content: unknown[] }).content, [
      { reasoningContent: { reasoningText: { text: "Let me think.", signature: "sig-1" } } },
      { reasoningContent: { redactedContent: "b64data" } },
      { toolUse: { toolUseId: "t2", name: "f", input: {} } },
    ]);
  });

  test("stop reasons are normalized with the raw value kept; max_tokens leaves an open call invalid, never {}", async () => {
    for (const [raw, reason] of [
      ["end_turn", "stop"],
      ["stop_sequence", "stop"],
      ["guardrail_intervened", "content-filter"],
      ["content_filtered", "content-filter"],
      ["model_context_window_exceeded", "length"],
      // The AWS SDK's StopReason (client-bedrock-runtime 3.1164): output or a call's input not well formed.
      ["malformed_model_output", "error"],
      ["malformed_tool_use", "error"],
      ["something_new", "other"],
    ]) {
      const finish = last(
        await run(
          converse([
            ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "x" } }],
            messageStop(raw!),
            metadata,
          ]),
        ),
      );
      assert(finish.type === "finish", "finish");
      assertEquals([finish.reason, finish.rawReason], [reason, raw]);
    }
    const cut = last(
      await run(converse([toolStart(0, "t0", "f"), input(0, '{"a":'), messageStop("max_tokens"), metadata])),
    );
    assert(
      cut.type === "finish" && cut.invalidToolCalls.length === 1 && cut.toolCalls.length === 0,
      "the cut call is invalid",
    );
  });

  test("an exception mid-call is a provider error with the exception's data; the open call is discarded, earlier calls kept", async () => {
    for (const type of [
      "throttlingException",
      "modelStreamErrorException",
      "validationException",
      "internalServerException",
      "serviceUnavailableException",
      "modelTimeoutException",
    ]) {
      const body = concat([
        converse([
          toolStart(0, "t0", "done_call"),
          input(0, "{}"),
          stop(0),
          toolStart(1, "t1", "open_call"),
          input(1, '{"a":'),
        ]),
        exceptionMessage(type, { message: "Something failed." }),
      ]);
      const events = await run(body, [30]);
      const error = events.find((e) => e.type === "error");
      assert(error?.type === "error" && error.error.code === "provider-error", `${type}: a provider error`);
      assertEquals(error.error.data, { [type]: { message: "Something failed." } });
      const end = last(events);
      assert(end.type === "abort" && end.reason === "provider-error", `${type}: abort provider-error`);
      assertEquals(
        [end.discarded.map((c) => c.name), events.filter((e) => e.type === "tool-call").length],
        [["open_call"], 1],
      );
    }
  });

  test("an error message (:message-type error) carries its code and message headers into the error's data", async () => {
    const error = encodeMessage(
      { ":message-type": "error", ":error-code": "InternalFailure", ":error-message": "An internal error occurred." },
      "",
    );
    const events = await run(
      concat([converse([["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hi" } }]]), error]),
    );
    const reported = events.find((e) => e.type === "error");
    assert(reported?.type === "error", "an error event");
    assertEquals(reported.error.data, { InternalFailure: { message: "An internal error occurred." } });
    assertEquals(last(events).type, "abort");
  });

  test("an exception written as a one-key JSON object is the provider error its exception message is, and the end", () => {
    const deltas: unknown[] = [];
    const decoder = new BedrockDecoder((delta) => deltas.push(delta));
    decoder.decode({ data: '{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"Hi"}}}' });
    decoder.decode({ data: '{"throttlingException":{"message":"Too many requests"}}' });
    assertEquals(deltas.at(-1), { type: "done" });
    assertEquals(deltas.at(-2), {
      type: "error",
      error: {
        code: "provider-error",
        message: "The provider reported throttlingException inside the stream.",
        data: { throttlingException: { message: "Too many requests" } },
      },
    });
  });

  test("events written as one-key JSON objects (as SDKs and gateways print them) read the same", () => {
    const ndjson = [
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "t0", name: "f" } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"a":1}' } } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: { stopReason: "tool_use" } },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n");
    const deltas: unknown[] = [];
    const decoder = new BedrockDecoder((delta) => deltas.push(delta));
    for (const line of ndjson.split("\n")) decoder.decode({ data: line });
    assertEquals(deltas, [
      { type: "tool-call-chunk", index: 0, id: "t0", name: "f" },
      { type: "tool-call-chunk", index: 0, argumentsDelta: '{"a":1}' },
      { type: "tool-call-end", index: 0 },
      { type: "finish", rawReason: "tool_use", reason: "tool-calls" },
    ]);
  });
});

group("Bedrock InvokeModelWithResponseStream (Claude)", (test) => {
  test("chunk payloads are base64 Anthropic events, told apart by the first frame; a call completes at its block stop", async () => {
    const body = invokeChunks([
      { type: "message_start", message: { usage: { input_tokens: 9, output_tokens: 1 } } },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "toolu_1", name: "weather", input: {} },
      },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"city":"杭' } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '州"}' } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 12 } },
      { type: "message_stop", "amazon-bedrock-invocationMetrics": { inputTokenCount: 9, outputTokenCount: 12 } },
    ]);
    const events = await run(body, [3, 77, 200]);
    const finish = last(events);
    assert(finish.type === "finish", "finish");
    assertEquals(
      [finish.reason, finish.toolCalls.map((c) => [c.id, c.arguments]), finish.usage?.outputTokens],
      ["tool-calls", [["toolu_1", { city: "杭州" }]], 12],
    );
  });

  test("Claude's stop at a stop sequence names it, as on Anthropic's own stream", async () => {
    const body = invokeChunks([
      { type: "message_start", message: { usage: { input_tokens: 9, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "one two " } },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "stop_sequence", stop_sequence: "three" },
        usage: { output_tokens: 3 },
      },
      { type: "message_stop" },
    ]);
    const finish = last(await run(body));
    assert(finish.type === "finish", "finish");
    assertEquals([finish.reason, finish.rawReason, finish.stopSequence], ["stop", "stop_sequence", "three"]);
  });

  test("an event type added later, between chunks, is ignored; the chunks after it are still read", async () => {
    const text = (value: string) => ({
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: value },
    });
    const body = concat([
      invokeChunks([
        { type: "message_start", message: { usage: { input_tokens: 3, output_tokens: 1 } } },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        text("Hi"),
      ]),
      eventMessage("newEvent", { detail: 1 }),
      invokeChunks([
        text(" there"),
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
        { type: "message_stop" },
      ]),
    ]);
    const events = await run(body);
    assertEquals(
      events.map((e) => (e.type === "text-delta" ? e.text : e.type)),
      ["usage", "Hi", " there", "finish"],
    );
  });

  test("a chunk whose bytes are not base64 is a malformed payload; an exception ends the stream", async () => {
    const bad = encodeMessage({ ":event-type": "chunk", ":message-type": "event" }, '{"bytes":"%%%"}');
    const body = concat([
      invokeChunks([{ type: "message_start", message: {} }]),
      bad,
      exceptionMessage("modelStreamErrorException", { message: "Model stream error", originalStatusCode: 500 }),
    ]);
    const events = await run(body);
    assertEquals(
      events.filter((e) => e.type === "error").map((e) => (e.type === "error" ? e.error.code : "")),
      ["malformed-payload", "provider-error"],
    );
    assertEquals(last(events).type, "abort");
  });
});

group("Bedrock next turn", (test) => {
  test("tool results are toolResult blocks (json for objects, text otherwise, status error); tools are toolSpec entries", () => {
    const call = { id: "t1", name: "weather" };
    assertEquals(
      toolResultMessages("bedrock", [
        { call, output: { temp: 21 } },
        { call: { id: "t2", name: "x" }, output: "boom", isError: true },
      ]),
      [
        {
          role: "user",
          content: [
            { toolResult: { toolUseId: "t1", content: [{ json: { temp: 21 } }] } },
            { toolResult: { toolUseId: "t2", content: [{ text: "boom" }], status: "error" } },
          ],
        },
      ],
    );
    assertEquals(bedrockToolResultMessage([{ call, output: [1, 2] }]), {
      role: "user",
      content: [{ toolResult: { toolUseId: "t1", content: [{ text: "[1,2]" }] } }],
    });
    assertEquals(
      toolDefinitions("bedrock", {
        weather: { description: "Weather.", parameters: { type: "object" }, run: () => "" },
      }),
      [{ toolSpec: { name: "weather", description: "Weather.", inputSchema: { json: { type: "object" } } } }],
    );
  });
});
