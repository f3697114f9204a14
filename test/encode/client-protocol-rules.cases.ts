// The rules of each client protocol that the recordings do not all exercise: choices, ids,
// provider-executed calls, arguments completed after streaming, usage, versions of the AI SDK,
// cancellation, reasoning, and the steps of a tool loop.
import {
  AGUIEncoder,
  OpenAIChatEncoder,
  readOpenAIChatCompletion,
  UIMessageEncoder,
  type EncodableEvent,
  type FinishEvent,
  type ToolCallEvent,
} from "../../src/index.ts";
import { fromChunks } from "../support/streams.ts";
import { countingIds, encodeAll } from "../support/encoders.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { dataFrames, readAGUIEvents, readChatChunks, readUIChunks } from "../support/protocol-readers.ts";

const finish = (extra: Partial<FinishEvent> = {}): FinishEvent => ({
  type: "finish",
  reason: "tool-calls",
  rawReason: "tool_calls",
  toolCalls: [],
  invalidToolCalls: [],
  text: "",
  reasoning: "",
  ...extra,
});
const call = (index: number, id: string | null, name: string, args: string, extra: object = {}): ToolCallEvent[] => [
  { type: "tool-call-start", index, id, name, ...extra },
  { type: "tool-call-delta", index, id, argumentsDelta: args, closed: true },
  { type: "tool-call", index, id, name, rawArguments: args, arguments: JSON.parse(args), ...extra },
];
const openai = (events: readonly EncodableEvent[], options: { includeUsage?: boolean } = {}) =>
  encodeAll(new OpenAIChatEncoder({ model: "m", created: 1, generateId: countingIds(), ...options }), events);
const ui = (events: readonly EncodableEvent[], options: { minVersion?: 5 | 6 } = {}) =>
  encodeAll(new UIMessageEncoder({ generateId: countingIds(), ...options }), events);
const agui = (events: readonly EncodableEvent[], reasoning = true) =>
  encodeAll(new AGUIEncoder({ threadId: "t", runId: "r", generateId: countingIds(), reasoning }), events);
/** The strict reader threw: what it reads breaks a rule of the protocol. */
const strictFailure = (read: () => unknown): boolean => {
  try {
    read();
    return false;
  } catch (error) {
    return error instanceof Error;
  }
};
const types = (text: string): string[] =>
  dataFrames(text).map((frame) => (frame === "[DONE]" ? frame : (JSON.parse(frame) as { type: string }).type));

group("OpenAIChatEncoder rules", (test) => {
  test("calls get dense indexes from 0 in start order, whatever the provider's indexes; ids missing or repeated are generated", () => {
    const events = [
      ...call(3, null, "a", "{}"),
      ...call(1, "toolu_1", "b", '{"x":1}'),
      ...call(7, "toolu_1", "c", "[]"),
      finish(),
    ];
    const reading = readChatChunks(openai(events));
    assertEquals(reading.choices.get(0)!.calls, [
      { id: "call_id2", name: "a", arguments: "{}" },
      { id: "toolu_1", name: "b", arguments: '{"x":1}' },
      { id: "call_id3", name: "c", arguments: "[]" },
    ]);
    assertEquals(reading.choices.get(0)!.finishReason, "tool_calls");
  });

  test("each choice has its role, its own call indexes and its finish_reason; a choice without calls stops", () => {
    const events: EncodableEvent[] = [
      { type: "text-delta", text: "A" },
      { type: "text-delta", text: "B", choice: 1 },
      ...call(0, "c1", "f", "{}").map((e) => ({ ...e, choice: 1 })),
      finish({ reason: "stop", rawReason: "stop" }),
    ];
    const reading = readChatChunks(openai(events));
    assertEquals([reading.choices.get(0)!.content, reading.choices.get(0)!.finishReason], ["A", "stop"]);
    assertEquals(
      [reading.choices.get(1)!.content, reading.choices.get(1)!.calls.length, reading.choices.get(1)!.finishReason],
      ["B", 1, "tool_calls"],
    );
  });

  test("calls the provider ran itself are not sent; reasoning is reasoning_content; length and content_filter map back", () => {
    const events = [
      { type: "reasoning-delta", text: "hm" } as const,
      ...call(0, "srv", "web_search", "{}", { providerExecuted: true }),
      { type: "text-delta", text: "Cut" } as const,
    ];
    const length = readChatChunks(
      openai([...events, finish({ reason: "length", rawReason: "max_tokens" })]),
    ).choices.get(0)!;
    assertEquals([length.reasoning, length.calls, length.content, length.finishReason], ["hm", [], "Cut", "length"]);
    assertEquals(
      readChatChunks(openai([finish({ reason: "content-filter", rawReason: "SAFETY" })])).choices.get(0)!.finishReason,
      "content_filter",
    );
  });

  test("readOpenAIChatCompletion holds at most maxTextLength of text: past it, a text-too-large error, and the endless input is cancelled", async () => {
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<EncodableEvent>({
      // "Endless" for the reader: it closes only after 10,000 events, so that a reader without the bound fails rather than hangs.
      pull: (controller) =>
        ++pulled > 10_000
          ? controller.close()
          : controller.enqueue(
              pulled % 2 ? { type: "text-delta", text: "0123456789" } : { type: "reasoning-delta", text: "abcde" },
            ),
      cancel: () => void (cancelled = true),
    });
    const result = await readOpenAIChatCompletion(endless, { model: "m", created: 1, maxTextLength: 100 });
    assert(result.type === "error", "an error");
    assertEquals(
      [result.error.code, result.error.message],
      ["text-too-large", "The response's text exceeded the limit of 100 characters."],
    );
    assert(cancelled && pulled < 20, `the input was cancelled (pulled ${pulled})`);
    const fits = await readOpenAIChatCompletion(
      fromChunks<EncodableEvent>([
        { type: "text-delta", text: "x".repeat(100) },
        finish({ reason: "stop", rawReason: "stop" }),
      ]),
      { model: "m", created: 1, maxTextLength: 100 },
    );
    assert(
      fits.type === "completion" && fits.completion.choices[0]!.message.content === "x".repeat(100),
      "text up to the limit is whole",
    );
  });

  test("a response with nothing still gives the role first; usage only with includeUsage and only when known", () => {
    const usage = { inputTokens: 5, outputTokens: 2, raw: {} };
    const silent = readChatChunks(openai([finish({ reason: "stop", rawReason: "stop", usage })]));
    assertEquals([silent.choices.get(0)!.content, silent.usage], ["", undefined]);
    assertEquals(readChatChunks(openai([finish({ usage })], { includeUsage: true })).usage, {
      prompt_tokens: 5,
      completion_tokens: 2,
      total_tokens: 7,
    });
    assertEquals(readChatChunks(openai([finish()], { includeUsage: true })).usage, undefined);
  });

  test("final arguments that extend what streamed are sent as one more fragment (a .done value after no deltas)", () => {
    const events: EncodableEvent[] = [
      { type: "tool-call-start", index: 0, id: "c", name: "f" },
      { type: "tool-call", index: 0, id: "c", name: "f", rawArguments: '{"a":1}', arguments: { a: 1 } },
      finish(),
    ];
    assertEquals(readChatChunks(openai(events)).choices.get(0)!.calls[0]!.arguments, '{"a":1}');
  });

  test("a finish of reason error, and events after [DONE], as the protocol has them: an error chunk; nothing", () => {
    assertEquals(
      readChatChunks(openai([finish({ reason: "error", rawReason: "failed" })])).error?.["code"],
      "provider-error",
    );
    const done = openai([
      finish(),
      { type: "tool-result", index: 0, id: "c", name: "f", result: 1 },
      { type: "text-delta", text: "late" },
    ]);
    assertEquals(types(done).at(-1), "[DONE]");
    assertEquals(readChatChunks(openai([])).error?.["code"], "input-ended");
  });
});

group("UIMessageEncoder rules", (test) => {
  test("text, reasoning and text again are three parts in order, each closed before the next begins", () => {
    const text = ui([
      { type: "text-delta", text: "a" },
      { type: "reasoning-delta", text: "r" },
      { type: "text-delta", text: "b" },
      finish({ reason: "stop" }),
    ]);
    assertEquals(types(text), [
      "start",
      "start-step",
      "text-start",
      "text-delta",
      "text-end",
      "reasoning-start",
      "reasoning-delta",
      "reasoning-end",
      "text-start",
      "text-delta",
      "text-end",
      "finish-step",
      "finish",
      "[DONE]",
    ]);
    assertEquals(readUIChunks(text).finishReason, "stop");
  });

  test("minVersion 5 leaves out what ai 5 does not know: finishReason, inputEncoding, approvals; a denial is an output error", () => {
    const events: EncodableEvent[] = [
      ...call(0, "c", "f", '"free text"', { inputFormat: "text" }),
      { type: "tool-approval-request", index: 0, id: "c", name: "f", arguments: "free text" },
      {
        type: "tool-error",
        index: 0,
        id: "c",
        name: "f",
        error: { code: "denied", message: "The call was denied.", retryable: false },
      },
      finish(),
    ];
    const v6 = ui(events);
    assert(v6.includes('"inputEncoding":"text"') && v6.includes('"finishReason":"tool-calls"'), "ai 6 gets both");
    assertEquals(
      readUIChunks(v6).tools.map((p) => p.state),
      ["output-denied"],
    );
    const v5 = ui(events, { minVersion: 5 });
    const reading = readUIChunks(v5, true);
    assertEquals(
      reading.tools.map((p) => [p.state, p.errorText]),
      [["output-error", "The call was denied."]],
    );
    assertEquals(reading.finishReason, undefined);
  });

  test("provider-executed calls are shown as such; a cancelled response ends with abort, not finish", () => {
    const events: EncodableEvent[] = [
      ...call(0, "srv", "web_search", "{}", { providerExecuted: true }),
      { type: "abort", reason: "cancelled", discarded: [] },
    ];
    const text = ui(events);
    assertEquals(readUIChunks(text).tools[0]!.providerExecuted, true);
    assertEquals(types(text).slice(-3), ["tool-input-available", "abort", "[DONE]"]);
    assertEquals(readUIChunks(text).aborted, true);
  });

  test("a provider-executed call's result (the kept block naming it: Anthropic's by tool_use_id, OpenAI's item by id) is its output, once", () => {
    const hits = { type: "web_search_tool_result", tool_use_id: "srv", content: [] };
    const item = { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search" } };
    const events: EncodableEvent[] = [
      ...call(0, "srv", "web_search", "{}", { providerExecuted: true }),
      { type: "reasoning-part", part: { type: "block", block: hits } },
      { type: "reasoning-part", part: { type: "block", block: hits } },
      ...call(1, "ws_1", "web_search", "{}", { providerExecuted: true }),
      { type: "reasoning-part", part: { type: "block", block: item } },
      { type: "reasoning-part", part: { type: "block", block: { type: "compaction", content: "x" } } },
      finish({ reason: "stop", rawReason: "completed" }),
    ];
    for (const v5 of [false, true]) {
      const text = ui(events, v5 ? { minVersion: 5 } : {});
      assertEquals(
        readUIChunks(text, v5).tools.map((p) => [p.state, p.providerExecuted, p.output]),
        [
          ["output-available", true, hits],
          ["output-available", true, item],
        ],
      );
      assertEquals(types(text).filter((type) => type === "tool-output-available").length, 2);
    }
  });

  test("a finish of reason error (Gemini's MALFORMED_FUNCTION_CALL, vLLM's abort) is an error chunk, as the other protocols end it", () => {
    for (const minVersion of [5, 6] as const) {
      const text = ui(
        [{ type: "text-delta", text: "Let me check." }, finish({ reason: "error", rawReason: "abort" })],
        {
          minVersion,
        },
      );
      assertEquals(readUIChunks(text).errors, ["The provider ended the response with an error."], `ai ${minVersion}`);
    }
  });

  test("a provider error is one error chunk with the library's message, never the provider's payload", () => {
    const text = ui([
      {
        type: "error",
        error: {
          code: "provider-error",
          message: "The provider reported an error inside the stream.",
          data: { secret: "org-123" },
        },
      },
      { type: "abort", reason: "provider-error", discarded: [] },
    ]);
    assertEquals(readUIChunks(text).errors, ["The provider reported an error inside the stream."]);
    assert(!text.includes("org-123"), "the provider's payload stays out");
  });

  test("each step of a tool loop is a step of the message; results attach to their calls; ids stay unique across steps", () => {
    const step = (n: number, events: EncodableEvent[]) => events.map((e) => ({ ...e, step: n }) as EncodableEvent);
    const events: EncodableEvent[] = [
      ...step(1, [
        ...call(0, null, "f", "{}"),
        finish(),
        { type: "tool-result", index: 0, id: null, name: "f", result: { ok: true } },
      ]),
      { type: "step-finish", step: 1, messages: [] },
      ...step(2, [
        ...call(0, null, "f", "{}"),
        finish(),
        { type: "tool-result", index: 0, id: null, name: "f", result: 2 },
      ]),
      { type: "step-finish", step: 2, messages: [] },
      ...step(3, [{ type: "text-delta", text: "done" }, finish({ reason: "stop" })]),
      { type: "step-finish", step: 3, messages: [] },
      { type: "loop-finish", steps: 3, reason: "no-tool-calls", messages: [] },
    ];
    const reading = readUIChunks(ui(events));
    assertEquals([reading.steps, reading.text, reading.finishReason], [3, "done", "stop"]);
    assertEquals(
      reading.tools.map((p) => [p.toolCallId, p.state, p.output]),
      [
        ["call_id1", "output-available", { ok: true }],
        ["call_id2", "output-available", 2],
      ],
    );
  });

  test("a streaming tool's results so far are tool-output-available with preliminary: true; only the final one has none", () => {
    const events: EncodableEvent[] = [
      ...call(0, "c", "f", "{}"),
      finish(),
      { type: "tool-result", index: 0, id: "c", name: "f", result: { rows: 1 }, preliminary: true },
      { type: "tool-result", index: 0, id: "c", name: "f", result: { rows: 2 }, preliminary: true },
      { type: "tool-result", index: 0, id: "c", name: "f", result: { rows: 3 } },
    ];
    const text = ui(events);
    const outputs = dataFrames(text)
      .flatMap((frame) => (frame === "[DONE]" ? [] : [JSON.parse(frame) as Record<string, unknown>]))
      .filter((c) => c["type"] === "tool-output-available");
    assertEquals(
      outputs.map((c) => [c["output"], c["preliminary"]]),
      [
        [{ rows: 1 }, true],
        [{ rows: 2 }, true],
        [{ rows: 3 }, undefined],
      ],
    );
    assertEquals(
      readUIChunks(text).tools.map((p) => [p.state, p.output, p.preliminary]),
      [["output-available", { rows: 3 }, undefined]],
    );
    // The strict reader refuses a second final outcome, and a preliminary output never followed by one.
    assertEquals(
      strictFailure(() =>
        readUIChunks(ui([...events, { type: "tool-result", index: 0, id: "c", name: "f", result: 4 }])),
      ),
      true,
    );
    assertEquals(
      strictFailure(() => readUIChunks(ui(events.slice(0, -1)))),
      true,
    );
  });
});

group("AGUIEncoder rules", (test) => {
  test("a streaming tool gives one TOOL_CALL_RESULT, the final one; its results so far are CUSTOM tool-result-preliminary events", () => {
    const events: EncodableEvent[] = [
      ...call(0, "c", "f", "{}"),
      finish(),
      { type: "tool-result", index: 0, id: "c", name: "f", result: { rows: 1 }, preliminary: true },
      { type: "tool-result", index: 0, id: "c", name: "f", result: "two", preliminary: true },
      { type: "tool-result", index: 0, id: "c", name: "f", result: { rows: 3 } },
    ];
    const text = agui(events);
    const reading = readAGUIEvents(text);
    assertEquals(
      reading.messages.filter((m) => m.role === "tool").map((m) => [m.toolCallId, m.content]),
      [["c", '{"rows":3}']],
    );
    const custom = dataFrames(text)
      .map((frame) => JSON.parse(frame) as Record<string, unknown>)
      .filter((e) => e["type"] === "CUSTOM");
    assertEquals(
      custom.map((e) => [e["name"], e["value"]]),
      [
        ["tool-result-preliminary", { toolCallId: "c", content: '{"rows":1}' }],
        ["tool-result-preliminary", { toolCallId: "c", content: "two" }],
      ],
    );
    assertEquals(
      strictFailure(() =>
        readAGUIEvents(agui([...events, { type: "tool-result", index: 0, id: "c", name: "f", result: 4 }])),
      ),
      true,
    );
  });

  test("text stays one assistant message across the calls it makes; reasoning is a span and message of its own", () => {
    const events: EncodableEvent[] = [
      { type: "reasoning-delta", text: "think" },
      { type: "text-delta", text: "a" },
      ...call(0, "c", "f", "{}"),
      { type: "text-delta", text: "b" },
      finish(),
    ];
    const reading = readAGUIEvents(agui(events));
    assertEquals(
      reading.messages.map((m) => [m.role, m.content, m.toolCalls?.length ?? 0]),
      [
        ["reasoning", "think", 0],
        ["assistant", "ab", 1],
      ],
    );
    assert(!agui(events, false).includes("REASONING"), "reasoning: false sends none");
  });

  test("calls the provider ran itself are left out; results and tool errors are tool messages after the call ends", () => {
    const events: EncodableEvent[] = [
      ...call(0, "srv", "web_search", "{}", { providerExecuted: true }),
      ...call(1, "c", "f", "{}"),
      ...call(2, "d", "f", "{}"),
      finish(),
      { type: "tool-result", index: 1, id: "c", name: "f", result: { t: 1 } },
      {
        type: "tool-error",
        index: 2,
        id: "d",
        name: "f",
        error: { code: "timeout", message: "The tool timed out.", retryable: true },
      },
    ];
    const reading = readAGUIEvents(agui(events));
    assertEquals(
      reading.messages.map((m) => [m.role, m.toolCalls?.map((c) => c.name) ?? m.content]),
      [
        ["assistant", ["f", "f"]],
        ["tool", '{"t":1}'],
        ["tool", "The tool timed out."],
      ],
    );
  });

  test("usage goes on RUN_FINISHED; each step of a loop is a new assistant message", () => {
    const events: EncodableEvent[] = [
      ...[
        { type: "text-delta", text: "one" } as const,
        finish({ usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4, raw: {} } }),
      ].map((e) => ({ ...e, step: 1 })),
      { type: "step-finish", step: 1, messages: [] },
      ...[{ type: "text-delta", text: "two" } as const, finish({ reason: "stop" })].map((e) => ({ ...e, step: 2 })),
      { type: "loop-finish", steps: 2, reason: "no-tool-calls", messages: [] },
    ];
    const reading = readAGUIEvents(agui(events));
    assertEquals(
      reading.messages.map((m) => m.content),
      ["one", "two"],
    );
    assertEquals(reading.finished?.["usage"], [{ inputTokens: 3, outputTokens: 1, totalTokens: 4 }]);
  });

  test("a finish of reason error (Gemini's MALFORMED_FUNCTION_CALL, vLLM's abort) is a RUN_ERROR, never a RUN_FINISHED", () => {
    const reading = readAGUIEvents(
      agui([{ type: "text-delta", text: "Let me check." }, finish({ reason: "error", rawReason: "abort" })]),
    );
    assertEquals([reading.error?.["code"], reading.finished], ["provider-error", undefined]);
  });

  test("an input that ends with a call still open is a RUN_ERROR, never a RUN_FINISHED with the call ended", () => {
    const reading = readAGUIEvents(agui([{ type: "tool-call-start", index: 0, id: "c", name: "f" }]));
    assertEquals([reading.error?.["code"], reading.finished], ["input-ended", undefined]);
  });
});
