// What waits in an encoder when a fault or a finish comes: content held behind a call a fault cut
// short is delivered (Messages, one block at a time), the cut call never stopped; an invalid call
// waits for what follows it, in Messages, AG-UI and Responses alike: content or a normal end
// releases it (ended as the model wrote it), a finish that cut it says so, a fault drops it.
import {
  AGUIEncoder,
  AnthropicMessagesEncoder,
  type EncodableEvent,
  type FinishEvent,
  type InvalidToolCallEvent,
  type ToolCallEvent,
  streamToolCalls,
} from "../../src/index.ts";
import { AGENT_OPTIONS, countingIds, ENCODERS, encodeAll } from "../support/encoders.ts";
import { allFixtures } from "../support/fixtures.ts";
import { collect, fromChunks } from "../support/streams.ts";
import { fallbackWhileOpen } from "../providers/anthropic/turn-blocks-recordings.ts";
import { namedFrames, readMessagesEvents, readResponsesEvents } from "../support/agent-protocol-readers.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { dataFrames, readAGUIEvents, readChatChunks } from "../support/protocol-readers.ts";

const finish = (reason: FinishEvent["reason"], rawReason: string): FinishEvent => ({
  type: "finish",
  reason,
  rawReason,
  toolCalls: [],
  invalidToolCalls: [],
  text: "",
  reasoning: "",
});
const started = (index: number, id: string, name: string, args: string): ToolCallEvent[] => [
  { type: "tool-call-start", index, id, name },
  { type: "tool-call-delta", index, id, argumentsDelta: args, closed: false },
];
const invalid = (index: number, id: string, name: string, rawArguments: string): InvalidToolCallEvent => ({
  type: "invalid-tool-call",
  index,
  id,
  name,
  rawArguments,
  error: { code: "invalid-json", message: "The tool arguments are not valid JSON.", position: rawArguments.length },
});
const whole = (index: number, id: string, name: string, args: string): ToolCallEvent[] => [
  ...started(index, id, name, args),
  { type: "tool-call", index, id, name, rawArguments: args, arguments: JSON.parse(args) },
];
const providerError: ToolCallEvent = {
  type: "error",
  error: { code: "provider-error", message: "The provider reported an error inside the stream." },
};

const messages = (events: readonly EncodableEvent[]) =>
  encodeAll(new AnthropicMessagesEncoder(AGENT_OPTIONS.anthropic()), events);
const agui = (events: readonly EncodableEvent[]) =>
  encodeAll(new AGUIEncoder({ threadId: "t", runId: "r", generateId: countingIds() }), events);
/** The calls AG-UI ended, by id. */
const aguiEnded = (text: string): string[] =>
  dataFrames(text).flatMap((frame) => {
    const event = JSON.parse(frame) as { type: string; toolCallId?: string };
    return event.type === "TOOL_CALL_END" ? [event.toolCallId!] : [];
  });
/** The indices of the Messages blocks stopped. */
const stopped = (text: string): number[] =>
  namedFrames(text).flatMap((frame) => (frame["type"] === "content_block_stop" ? [frame["index"] as number] : []));

group("Messages encoder: what waited behind a call a fault cut short", (test) => {
  test("the text and the complete call held behind it go out before the error; the cut call is never stopped", () => {
    const events: EncodableEvent[] = [
      { type: "text-delta", text: "Looking." },
      ...started(0, "call_1", "shell", '{"cmd":'),
      { type: "text-delta", text: " The disk is full." },
      ...whole(1, "call_2", "get_weather", '{"city":"Paris"}'),
      { type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta: '"ls', closed: false },
      providerError,
      {
        type: "abort",
        reason: "provider-error",
        discarded: [{ index: 0, id: "call_1", name: "shell", rawArguments: '{"cmd":"ls' }],
      },
    ];
    const text = messages(events);
    const reading = readMessagesEvents(text);
    assert(reading.error !== undefined, "the stream ends with the error event");
    assertEquals(
      reading.content.map((block) =>
        block.type === "tool_use" ? [block.name, block.input] : [block.type, "text" in block ? block.text : ""],
      ),
      [
        ["text", "Looking."],
        ["shell", undefined],
        ["text", " The disk is full."],
        ["get_weather", { city: "Paris" }],
      ],
    );
    assertEquals(stopped(text), [0, 2, 3], "every block stopped but the cut call (index 1)");
  });

  test("a call an error finish cut (Gemini's MALFORMED_FUNCTION_CALL) is never stopped: its invalid-tool-call waits, and the error drops it", () => {
    const events: EncodableEvent[] = [
      ...whole(0, "call_1", "lookup", '{"query":"tides"}'),
      ...started(1, "call_2", "get_weather", '{"city":"Par'),
      invalid(1, "call_2", "get_weather", '{"city":"Par'),
      finish("error", "MALFORMED_FUNCTION_CALL"),
    ];
    const text = messages(events);
    const reading = readMessagesEvents(text);
    assert(reading.error !== undefined, "the stream ends with the error event");
    assertEquals(stopped(text), [0], "the whole call is stopped, the cut one never");
  });

  test("an invalid call the model wrote goes out as it came once content follows it, and the stop says tool_use", () => {
    const events: EncodableEvent[] = [
      ...started(0, "call_1", "shell", '{"cmd":ls}'),
      invalid(0, "call_1", "shell", '{"cmd":ls}'),
      { type: "text-delta", text: "Done." },
      finish("tool-calls", "tool_calls"),
    ];
    const reading = readMessagesEvents(messages(events));
    assertEquals([reading.content.map((block) => block.type), reading.stopReason], [["tool_use", "text"], "tool_use"]);
  });

  test("a length stop that cut only the text after a call the model ended says tool_use, for a valid call and an invalid one alike", () => {
    // The call is no cut one (its text ended it): the model's bad JSON goes back to it as a tool error,
    // as a valid call's result does; `max_tokens` would end an SDK tool runner with the call unanswered.
    const stop = (call: ToolCallEvent[]) =>
      readMessagesEvents(messages([...call, { type: "text-delta", text: "And then" }, finish("length", "length")]))
        .stopReason;
    assertEquals(
      [
        stop(whole(0, "call_1", "shell", '{"cmd":"ls"}')),
        stop([...started(0, "call_1", "shell", '{"cmd":ls}'), invalid(0, "call_1", "shell", '{"cmd":ls}')]),
      ],
      ["tool_use", "tool_use"],
    );
  });
});

group("AGUIEncoder: an invalid call waits for what follows it", (test) => {
  const shell = [...started(0, "call_1", "shell", '{"cmd":ls}'), invalid(0, "call_1", "shell", '{"cmd":ls}')];

  test("a call a length stop cut is never ended, though a complete call follows it: RUN_ERROR length", () => {
    const events: EncodableEvent[] = [
      ...started(0, "call_1", "shell", '{"cmd":"l'),
      ...started(1, "call_2", "get_weather", '{"city":"Paris"}'),
      invalid(0, "call_1", "shell", '{"cmd":"l'),
      {
        type: "tool-call",
        index: 1,
        id: "call_2",
        name: "get_weather",
        rawArguments: '{"city":"Paris"}',
        arguments: { city: "Paris" },
      },
      finish("length", "length"),
    ];
    const text = agui(events);
    assertEquals([readAGUIEvents(text).error?.["code"], aguiEnded(text)], ["length", ["call_2"]]);
  });

  test("the input ends right after an invalid call: ended as content after it would end it, and RUN_FINISHED", () => {
    const mid = agui([...shell, { type: "text-delta", text: "Done." }]);
    assertEquals([aguiEnded(mid), readAGUIEvents(mid).finished !== undefined], [["call_1"], true]);
    const last = agui(shell);
    assertEquals([aguiEnded(last), readAGUIEvents(last).finished !== undefined], [["call_1"], true]);
    // One that came whole is shown and ended too, not lost.
    const alone = readAGUIEvents(agui([invalid(0, "call_1", "shell", '{"cmd":ls}')]));
    assertEquals(
      alone.messages.flatMap((m) => m.toolCalls ?? []),
      [{ id: "call_1", name: "shell", arguments: '{"cmd":ls}' }],
    );
    assert(alone.finished !== undefined, "RUN_FINISHED");
  });

  test("a fault after an invalid call (an error, an abort, the input ending with a call open) leaves it open: RUN_ERROR", () => {
    const open = started(1, "call_2", "get_weather", '{"city":');
    for (const after of [
      [providerError, { type: "abort", reason: "provider-error", discarded: [] }],
      [{ type: "abort", reason: "input-ended", discarded: [] }],
      [finish("error", "MALFORMED_FUNCTION_CALL")],
      [],
    ] as EncodableEvent[][]) {
      const text = agui([...open, ...shell, ...after]);
      const reading = readAGUIEvents(text);
      assertEquals([aguiEnded(text), reading.finished], [[], undefined], JSON.stringify(after));
      assert(reading.error !== undefined, "RUN_ERROR");
    }
  });
});

group("Encoders: a call its schema refused that came with no arguments text", (test) => {
  // Anthropic's tool_use of no input (the recorded tool-use-no-args: `input: {}`, then one
  // `input_json_delta` of ""), of a tool whose schema requires a field: the chain reads it as {} and
  // refuses it (schema-mismatch). Released by the normal finish, it goes to the client as the model
  // wrote it, {}, for the client's own check to answer; "" is no JSON (openai-node, Codex: EOF).
  const refused: InvalidToolCallEvent = {
    type: "invalid-tool-call",
    index: 1,
    id: "toolu_1",
    name: "updateIssueList",
    rawArguments: "",
    error: { code: "schema-mismatch", message: "The tool arguments do not match the schema of updateIssueList." },
  };
  const events: EncodableEvent[] = [
    ...started(1, "toolu_1", "updateIssueList", ""),
    refused,
    finish("tool-calls", "tool_use"),
  ];

  test("Chat, Responses and AG-UI clients get {}", () => {
    const chat = readChatChunks(encodeAll(ENCODERS.openai(), events)).choices.get(0)?.calls ?? [];
    const responses = readResponsesEvents(encodeAll(ENCODERS.responses(), events)).calls;
    const agUI = readAGUIEvents(encodeAll(ENCODERS["ag-ui"](), events)).messages.flatMap((m) => m.toolCalls ?? []);
    assertEquals(
      [chat, responses, agUI].map((calls) => calls.map((call) => call.arguments)),
      [["{}"], ["{}"], ["{}"]],
    );
  });

  test("a free-text call (a custom tool's) refused with no input keeps its empty text", () => {
    const start: ToolCallEvent = {
      type: "tool-call-start",
      index: 1,
      id: "toolu_1",
      name: "apply_patch",
      inputFormat: "text",
    };
    const text = encodeAll(ENCODERS.responses(), [
      start,
      { ...refused, inputFormat: "text" },
      finish("tool-calls", ""),
    ]);
    assertEquals(
      readResponsesEvents(text).calls.map((call) => [call.custom, call.arguments]),
      [[true, ""]],
    );
  });

  test("one a stop cut short before any text stays as it came", () => {
    const cut: InvalidToolCallEvent = { ...refused, error: { code: "truncated-input", message: "cut" } };
    const text = encodeAll(ENCODERS.openai(), [
      ...started(1, "toolu_1", "updateIssueList", ""),
      cut,
      finish("length", "max_tokens"),
    ]);
    assertEquals(
      readChatChunks(text)
        .choices.get(0)
        ?.calls.map((call) => call.arguments),
      [""],
    );
  });

  test("one max_tokens cut before any text (the recorded stop, its call's text taken out) is no {} call to Chat or Responses", async () => {
    // The accumulator does not read a cut "" as {}: the call is invalid-json. Given {}, a Chat client
    // would run a call the model never wrote; Responses' delta, .done and item would say it whole.
    const recorded = allFixtures.find(
      (f) => f.provider === "anthropic" && f.name === "max-tokens-incomplete-tool-json",
    )!;
    const body = recorded.text.replace(/\n\nevent: content_block_delta\ndata: \{[^\n]*"partial_json":"[^"][^\n]*/g, "");
    const events = await collect(
      streamToolCalls(fromChunks([new TextEncoder().encode(body)]), { provider: "anthropic" }),
    );
    const chat = readChatChunks(encodeAll(ENCODERS.openai(), events)).choices.get(0)?.calls ?? [];
    const responses = encodeAll(ENCODERS.responses(), events);
    assertEquals([chat.map((call) => call.arguments), responses.includes('"{}"')], [[""], false]);
  }).needs("recordings");

  test("one the provider withdrew before any text (a fallback right after its start) is no {} call to Chat or AG-UI", async () => {
    // AG-UI ends a withdrawn call at once: with {} its frontend tool would run a call the model never wrote.
    const body = fallbackWhileOpen.replace('"partial_json":"{\\"target\\": "', '"partial_json":""');
    assert(body !== fallbackWhileOpen, "the call's text is taken out");
    const events = await collect(
      streamToolCalls(fromChunks([new TextEncoder().encode(body)]), { provider: "anthropic" }),
    );
    const chat = readChatChunks(encodeAll(ENCODERS.openai(), events)).choices.get(0)?.calls ?? [];
    const agUI = encodeAll(ENCODERS["ag-ui"](), events);
    assertEquals([chat.map((call) => call.arguments), agUI.includes('"delta":"{}"')], [[""], false]);
  });
});
