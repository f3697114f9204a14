// Strict readers of the three client protocols the encoders write, runtime-neutral: each parses
// the bytes as its protocol documents them, fails on anything the protocol or its reference
// client rejects (an unknown or undocumented field, a delta before its start, an index that is not
// dense, something left open at the end), and returns what a client would have built.
import { createParser } from "eventsource-parser";
import type { CompletedToolCallEvent, EncodableEvent, InvalidToolCallEvent, JsonValue } from "../../src/index.ts";
import { assert, assertEquals } from "./harness.ts";

/** The `data:` payloads of an SSE body; fails on a named event or an id (none of the three protocols sends them). */
export function dataFrames(text: string): string[] {
  const frames: string[] = [];
  const parser = createParser({
    onEvent(message) {
      assert(message.event === undefined && message.id === undefined, "only data: fields");
      frames.push(message.data);
    },
  });
  parser.feed(text);
  parser.reset({ consume: true });
  return frames;
}

function keysWithin(
  value: Record<string, unknown>,
  required: readonly string[],
  optional: readonly string[],
  what: string,
): void {
  for (const key of required) assert(key in value, `${what} lacks ${key}: ${JSON.stringify(value)}`);
  for (const key of Object.keys(value))
    assert(required.includes(key) || optional.includes(key), `${what} has an undocumented field ${key}`);
}

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions chunks.

/** One choice as a Chat Completions client assembles it. */
export interface ChatChoice {
  content: string;
  reasoning: string;
  /** Each call; a custom tool's (`custom: true`) with its `input` as `arguments`. */
  calls: { id: string; name: string; arguments: string; custom?: true }[];
  finishReason: string | null;
  annotations?: Record<string, unknown>[];
  /** The model's refusal (OpenAI's structured outputs and safety refusals), once one streamed. */
  refusal?: string;
}

/** What a Chat Completions client read. */
export interface ChatReading {
  choices: Map<number, ChatChoice>;
  usage?: Record<string, unknown>;
  error?: Record<string, unknown>;
  done: boolean;
}

/** Reads a `chat.completion.chunk` stream as the API reference documents it. */
export function readChatChunks(text: string): ChatReading {
  const reading: ChatReading = { choices: new Map(), done: false };
  let head: string | undefined;
  for (const data of dataFrames(text)) {
    assert(!reading.done && !reading.error, "nothing after [DONE] or an error");
    if (data === "[DONE]") {
      reading.done = true;
      continue;
    }
    const chunk = JSON.parse(data) as Record<string, unknown>;
    if ("error" in chunk) {
      keysWithin(chunk, ["error"], [], "error chunk");
      keysWithin(chunk["error"] as Record<string, unknown>, ["message", "type", "param", "code"], [], "error");
      reading.error = chunk["error"] as Record<string, unknown>;
      continue;
    }
    keysWithin(chunk, ["id", "object", "created", "model", "choices"], ["usage"], "chunk");
    assertEquals(chunk["object"], "chat.completion.chunk");
    assert(Number.isInteger(chunk["created"]), "created is an integer");
    const thisHead = JSON.stringify([chunk["id"], chunk["created"], chunk["model"]]);
    assert(head === undefined || head === thisHead, "every chunk has the same id, created and model");
    head = thisHead;
    const choices = chunk["choices"] as Record<string, unknown>[];
    if ("usage" in chunk) {
      assertEquals(choices, [], "usage comes in a chunk of its own");
      keysWithin(
        chunk["usage"] as Record<string, unknown>,
        ["prompt_tokens", "completion_tokens", "total_tokens"],
        ["prompt_tokens_details", "completion_tokens_details"],
        "usage",
      );
      assert(
        [...reading.choices.values()].every((c) => c.finishReason !== null),
        "usage after every finish_reason",
      );
      reading.usage = chunk["usage"] as Record<string, unknown>;
      continue;
    }
    assert(reading.usage === undefined, "no choice after the usage chunk");
    for (const choice of choices) readChatChoice(reading, choice);
  }
  if (reading.done)
    assert(
      [...reading.choices.values()].every((c) => c.finishReason !== null),
      "every choice has a finish_reason before [DONE]",
    );
  return reading;
}

function readChatChoice(reading: ChatReading, choice: Record<string, unknown>): void {
  keysWithin(choice, ["index", "delta", "logprobs", "finish_reason"], [], "choice");
  const index = choice["index"] as number;
  let state = reading.choices.get(index);
  const delta = choice["delta"] as Record<string, unknown>;
  if (!state) {
    assertEquals(delta["role"], "assistant", "the first delta of a choice carries the role");
    reading.choices.set(index, (state = { content: "", reasoning: "", calls: [], finishReason: null }));
  } else assert(!("role" in delta), "the role comes once");
  assert(state.finishReason === null, "nothing after a choice's finish_reason");
  keysWithin(delta, [], ["role", "content", "reasoning_content", "refusal", "tool_calls", "annotations"], "delta");
  if (typeof delta["refusal"] === "string") state.refusal = (state.refusal ?? "") + delta["refusal"];
  // The pages the text cites, as OpenAI's search models stream them: each over text already sent.
  for (const annotation of (delta["annotations"] as Record<string, unknown>[] | undefined) ?? []) {
    keysWithin(annotation, ["type", "url_citation"], [], "annotation");
    assertEquals(annotation["type"], "url_citation");
    const cited = annotation["url_citation"] as Record<string, unknown>;
    keysWithin(cited, ["url", "title", "start_index", "end_index"], [], "url_citation");
    assert((cited["end_index"] as number) <= state.content.length, "an annotation spans text already sent");
    (state.annotations ??= []).push(annotation);
  }
  if (typeof delta["content"] === "string") state.content += delta["content"];
  if (typeof delta["reasoning_content"] === "string") state.reasoning += delta["reasoning_content"];
  // A custom tool's call (a free-text call) streams under `custom`: its `name`, then `input` fragments.
  for (const call of (delta["tool_calls"] as Record<string, unknown>[] | undefined) ?? []) {
    const callIndex = call["index"] as number;
    if (callIndex === state.calls.length) {
      const type = call["type"] as "function" | "custom";
      assert(type === "function" || type === "custom", "a call's type is function or custom");
      const [fields, text] = type === "custom" ? ["custom", "input"] : ["function", "arguments"];
      const fn = call[type] as Record<string, unknown>;
      keysWithin(call, ["index", "id", "type", fields], [], "a call's first delta");
      keysWithin(fn, ["name", text], [], `a call's first ${fields}`);
      assert(
        typeof call["id"] === "string" && call["id"] !== "" && typeof fn["name"] === "string",
        "id and name in the first delta",
      );
      const name = fn["name"] as string;
      const custom = type === "custom" ? { custom: true as const } : {};
      state.calls.push({ id: call["id"] as string, name, arguments: fn[text] as string, ...custom });
    } else {
      assert(callIndex < state.calls.length, `tool_calls indexes are dense from 0 (got ${callIndex})`);
      const type = state.calls[callIndex]!.custom ? "custom" : "function";
      const text = type === "custom" ? "input" : "arguments";
      keysWithin(call, ["index", type], [], "a call's later delta");
      keysWithin(call[type] as Record<string, unknown>, [text], [], `a call's later ${type}`);
      state.calls[callIndex]!.arguments += (call[type] as Record<string, unknown>)[text] as string;
    }
  }
  if (choice["finish_reason"] !== null) {
    assert(
      ["stop", "length", "tool_calls", "content_filter"].includes(choice["finish_reason"] as string),
      "a documented finish_reason",
    );
    state.finishReason = choice["finish_reason"] as string;
  }
}

// ---------------------------------------------------------------------------------------------
// AI SDK UI message stream (v1).

/** The fields each chunk type may have: [required, optional], from the `ai` package's schemas. */
const UI_FIELDS: Record<string, readonly [readonly string[], readonly string[]]> = {
  start: [[], ["messageId", "messageMetadata"]],
  "start-step": [[], []],
  "finish-step": [[], []],
  finish: [[], ["finishReason", "messageMetadata"]],
  abort: [[], ["reason"]],
  error: [["errorText"], []],
  "text-start": [["id"], ["providerMetadata"]],
  "text-delta": [["id", "delta"], ["providerMetadata"]],
  "text-end": [["id"], ["providerMetadata"]],
  "reasoning-start": [["id"], ["providerMetadata"]],
  "reasoning-delta": [["id", "delta"], ["providerMetadata"]],
  "reasoning-end": [["id"], ["providerMetadata"]],
  "tool-input-start": [
    ["toolCallId", "toolName"],
    ["providerExecuted", "dynamic", "inputEncoding", "providerMetadata", "toolMetadata", "title"],
  ],
  "tool-input-delta": [["toolCallId", "inputTextDelta"], []],
  "source-url": [
    ["sourceId", "url"],
    ["title", "providerMetadata"],
  ],
  "source-document": [
    ["sourceId", "mediaType", "title"],
    ["filename", "providerMetadata"],
  ],
  "tool-input-available": [
    ["toolCallId", "toolName", "input"],
    ["providerExecuted", "providerMetadata", "dynamic", "toolMetadata", "title"],
  ],
  "tool-input-error": [
    ["toolCallId", "toolName", "input", "errorText"],
    ["providerExecuted", "providerMetadata", "dynamic", "toolMetadata", "title"],
  ],
  "tool-output-available": [
    ["toolCallId", "output"],
    ["providerExecuted", "dynamic", "preliminary", "providerMetadata", "toolMetadata"],
  ],
  "tool-output-error": [
    ["toolCallId", "errorText"],
    ["providerExecuted", "dynamic", "providerMetadata", "toolMetadata"],
  ],
  "tool-output-denied": [["toolCallId"], []],
  "tool-approval-request": [
    ["approvalId", "toolCallId"],
    ["approvalDescriptor", "inputSchemaInput", "signature"],
  ],
};
/** What ai before 5.0.92 refuses (strict schemas) on top of the types it does not know. */
const NOT_IN_AI_5_0: Record<string, readonly string[]> = {
  finish: ["finishReason"],
  abort: ["reason"],
  "tool-input-start": ["inputEncoding"],
};
const NEWER_THAN_AI_5 = new Set(["tool-output-denied", "tool-approval-request"]);

/** A tool part as `readUIMessageStream` builds it. */
export interface UIToolPart {
  toolCallId: string;
  toolName: string;
  state:
    | "input-streaming"
    | "input-available"
    | "output-available"
    | "output-error"
    | "output-denied"
    | "approval-requested";
  inputText: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  providerExecuted?: boolean;
  /** The output is a preliminary one (`preliminary: true`): a final outcome must follow. */
  preliminary?: boolean;
}

/** What a UI message stream reader built. */
export interface UIReading {
  messageId?: string;
  text: string;
  reasoning: string;
  tools: UIToolPart[];
  steps: number;
  finishReason?: string;
  errors: string[];
  aborted: boolean;
}

/** The `source-url` / `source-document` chunks of a UI message stream, which `readUIChunks` reads first (strictly). */
export function uiSourceChunks(text: string): { type: string }[] {
  readUIChunks(text);
  return dataFrames(text)
    .flatMap((frame) => (frame.startsWith("{") ? [JSON.parse(frame) as { type: string }] : []))
    .filter((chunk) => chunk.type.startsWith("source-"));
}

/** Reads a UI message stream; `v5` also holds it to what every ai 5 reader accepts. */
export function readUIChunks(text: string, v5 = false): UIReading {
  const reading: UIReading = { text: "", reasoning: "", tools: [], steps: 0, errors: [], aborted: false };
  const frames = dataFrames(text);
  assertEquals(frames.at(-1), "[DONE]", "the stream ends with [DONE]");
  const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame) as Record<string, unknown>);
  assertEquals(chunks[0]?.["type"], "start", "start comes first");
  let stepOpen = false;
  let ended = false;
  const open = new Map<string, "text" | "reasoning">();
  const tools = new Map<string, UIToolPart>();
  for (const [i, chunk] of chunks.entries()) {
    const type = chunk["type"] as string;
    const fields = UI_FIELDS[type];
    assert(fields, `a documented chunk type (${type})`);
    keysWithin(
      chunk,
      ["type", ...fields[0]],
      ["type", ...fields[1].filter((key) => !(v5 && NOT_IN_AI_5_0[type]?.includes(key)))],
      type,
    );
    assert(!(v5 && NEWER_THAN_AI_5.has(type)), `${type} is unknown to ai 5`);
    assert(!ended, "nothing after finish or abort");
    if (type === "start") assert(i === 0, "one start");
    else if (type === "start-step") {
      assert(!stepOpen, "steps do not nest");
      stepOpen = true;
      reading.steps++;
    } else if (type === "finish-step") {
      assert(stepOpen && open.size === 0, "finish-step closes an open step with no text or reasoning open");
      stepOpen = false;
    } else if (type === "finish" || type === "abort") {
      ended = true;
      if (type === "finish") assert(!stepOpen && open.size === 0, "finish after the last step");
      if (typeof chunk["finishReason"] === "string") reading.finishReason = chunk["finishReason"];
      reading.aborted = type === "abort";
    } else if (type === "error") reading.errors.push(chunk["errorText"] as string);
    else if (type === "source-url" || type === "source-document") assert(stepOpen, `${type} inside a step`);
    else {
      assert(stepOpen, `${type} inside a step`);
      readUIPart(type, chunk, open, tools, reading);
    }
    if (type === "start" && typeof chunk["messageId"] === "string") reading.messageId = chunk["messageId"];
  }
  assert(ended, "the stream ends with finish or abort");
  reading.tools = [...tools.values()];
  if (!reading.aborted && reading.errors.length === 0)
    for (const part of reading.tools)
      assert(!part.preliminary, `a preliminary output is followed by the final one (${part.toolCallId})`);
  return reading;
}

function readUIPart(
  type: string,
  chunk: Record<string, unknown>,
  open: Map<string, "text" | "reasoning">,
  tools: Map<string, UIToolPart>,
  reading: UIReading,
): void {
  const [kind, phase] = type.startsWith("text-")
    ? ["text" as const, type.slice(5)]
    : type.startsWith("reasoning-")
      ? ["reasoning" as const, type.slice(10)]
      : [undefined, ""];
  if (kind) {
    const id = chunk["id"] as string;
    if (phase === "start") {
      assert(!open.has(id), `${type}: ${id} is not open already`);
      open.set(id, kind);
    } else assert(open.get(id) === kind, `${type} after its start (${id})`);
    if (phase === "delta") reading[kind] += chunk["delta"] as string;
    if (phase === "end") open.delete(id);
    return;
  }
  const id = chunk["toolCallId"] as string;
  let part = tools.get(id);
  if (type === "tool-input-start") {
    assert(!part, `one tool-input-start per call (${id})`);
    tools.set(id, {
      toolCallId: id,
      toolName: chunk["toolName"] as string,
      state: "input-streaming",
      inputText: "",
      ...(chunk["providerExecuted"] ? { providerExecuted: true } : {}),
    });
  } else if (type === "tool-input-delta") {
    assert(part?.state === "input-streaming", `tool-input-delta after its start (${id})`);
    part.inputText += chunk["inputTextDelta"] as string;
  } else if (type === "tool-input-available" || type === "tool-input-error") {
    assert(!part || part.state === "input-streaming", `one input outcome per call (${id})`);
    part ??= { toolCallId: id, toolName: chunk["toolName"] as string, state: "input-streaming", inputText: "" };
    assertEquals(chunk["toolName"], part.toolName, "the same tool name");
    part.input = chunk["input"];
    part.state = type === "tool-input-available" ? "input-available" : "output-error";
    if (type === "tool-input-error") part.errorText = chunk["errorText"] as string;
    if (chunk["providerExecuted"]) part.providerExecuted = true;
    tools.set(id, part);
  } else {
    assert(part && part.state !== "input-streaming", `${type} after the call's input (${id})`);
    // Exactly one final outcome per call: after an input error, a denial, an output error or an
    // output without `preliminary`, nothing more; a preliminary output only before the final one.
    const final =
      part.state === "output-denied" ||
      part.state === "output-error" ||
      (part.state === "output-available" && !part.preliminary);
    assert(!final, `${type} after the call's final outcome (${id})`);
    if (type === "tool-approval-request") part.state = "approval-requested";
    if (type === "tool-output-denied") part.state = "output-denied";
    if (type === "tool-output-available") Object.assign(part, { state: "output-available", output: chunk["output"] });
    if (type === "tool-output-error") Object.assign(part, { state: "output-error", errorText: chunk["errorText"] });
    if (type === "tool-output-available" && chunk["preliminary"] === true) part.preliminary = true;
    else delete part.preliminary;
  }
}

// ---------------------------------------------------------------------------------------------
// AG-UI events.

const AGUI_BASE = ["timestamp", "rawEvent", "metadata", "subagentRunId"];
/** The fields each event type may have: [required, optional], from `@ag-ui/core`'s schemas. */
const AGUI_FIELDS: Record<string, readonly [readonly string[], readonly string[]]> = {
  RUN_STARTED: [
    ["threadId", "runId"],
    ["protocolVersion", "parentRunId", "input"],
  ],
  RUN_FINISHED: [
    ["threadId", "runId"],
    ["result", "outcome", "usage"],
  ],
  RUN_ERROR: [["message"], ["code", "usage"]],
  TEXT_MESSAGE_START: [["messageId"], ["role", "name"]],
  TEXT_MESSAGE_CONTENT: [["messageId", "delta"], []],
  TEXT_MESSAGE_END: [["messageId"], []],
  TOOL_CALL_START: [["toolCallId", "toolCallName"], ["parentMessageId"]],
  TOOL_CALL_ARGS: [["toolCallId", "delta"], []],
  TOOL_CALL_END: [["toolCallId"], []],
  TOOL_CALL_RESULT: [["messageId", "toolCallId", "content"], ["role"]],
  REASONING_START: [["messageId"], []],
  REASONING_MESSAGE_START: [["messageId", "role"], []],
  REASONING_MESSAGE_CONTENT: [["messageId", "delta"], []],
  REASONING_MESSAGE_END: [["messageId"], []],
  REASONING_END: [["messageId"], []],
  CUSTOM: [["name", "value"], []],
};

/** A message as an AG-UI client builds it. */
export interface AGUIMessage {
  id: string;
  role: "assistant" | "tool" | "reasoning";
  content: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  toolCallId?: string;
}

/** What an AG-UI client read. */
export interface AGUIReading {
  messages: AGUIMessage[];
  finished?: Record<string, unknown>;
  error?: Record<string, unknown>;
}

/** Reads AG-UI events over SSE with the ordering rules of `@ag-ui/client`'s verifier. */
export function readAGUIEvents(text: string): AGUIReading {
  assert(!text.includes("\r"), "LF line ends only");
  const events = dataFrames(text).map((frame) => JSON.parse(frame) as Record<string, unknown>);
  assertEquals(events[0]?.["type"], "RUN_STARTED", "RUN_STARTED comes first");
  const reading: AGUIReading = { messages: [] };
  const texts = new Set<string>();
  const calls = new Map<string, { ended: boolean; call: { id: string; name: string; arguments: string } }>();
  const reasoning = { spans: new Set<string>(), messages: new Set<string>() };
  const results = new Set<string>();
  const message = (id: string, role: AGUIMessage["role"]): AGUIMessage => {
    let found = reading.messages.find((m) => m.id === id);
    if (!found) reading.messages.push((found = { id, role, content: "" }));
    assertEquals(found.role, role, `message ${id} keeps its role`);
    return found;
  };
  for (const [i, event] of events.entries()) {
    const type = event["type"] as string;
    const fields = AGUI_FIELDS[type];
    assert(fields, `a known event type (${type})`);
    keysWithin(event, ["type", ...fields[0]], ["type", ...fields[1], ...AGUI_BASE], type);
    assert(!reading.finished && !reading.error, "nothing after RUN_FINISHED or RUN_ERROR");
    if (type === "RUN_STARTED") assert(i === 0, "one RUN_STARTED");
    else if (type === "TEXT_MESSAGE_START") {
      assert(!texts.has(event["messageId"] as string), "a text message starts once at a time");
      texts.add(event["messageId"] as string);
      message(event["messageId"] as string, "assistant");
    } else if (type === "TEXT_MESSAGE_CONTENT" || type === "TEXT_MESSAGE_END") {
      assert(texts.has(event["messageId"] as string), `${type} of an active text message`);
      if (type === "TEXT_MESSAGE_CONTENT")
        message(event["messageId"] as string, "assistant").content += event["delta"] as string;
      else texts.delete(event["messageId"] as string);
    } else if (type === "TOOL_CALL_START") {
      const id = event["toolCallId"] as string;
      assert(!calls.has(id), `a tool call id is used once (${id})`);
      const call = { id, name: event["toolCallName"] as string, arguments: "" };
      calls.set(id, { ended: false, call });
      const parent = message((event["parentMessageId"] as string | undefined) ?? id, "assistant");
      (parent.toolCalls ??= []).push(call);
    } else if (type === "TOOL_CALL_ARGS" || type === "TOOL_CALL_END") {
      const state = calls.get(event["toolCallId"] as string);
      assert(state && !state.ended, `${type} of an active tool call`);
      if (type === "TOOL_CALL_ARGS") state.call.arguments += event["delta"] as string;
      else state.ended = true;
    } else if (type === "TOOL_CALL_RESULT") {
      assert(calls.get(event["toolCallId"] as string)?.ended, "a result after its call ended");
      assert(
        !results.has(event["toolCallId"] as string),
        `one TOOL_CALL_RESULT per call, the final one (${event["toolCallId"] as string})`,
      );
      results.add(event["toolCallId"] as string);
      assert(typeof event["content"] === "string", "content is text");
      reading.messages.push({
        id: event["messageId"] as string,
        role: "tool",
        content: event["content"] as string,
        toolCallId: event["toolCallId"] as string,
      });
    } else if (type.startsWith("REASONING_")) {
      const id = event["messageId"] as string;
      const set = type === "REASONING_START" || type === "REASONING_END" ? reasoning.spans : reasoning.messages;
      if (type.endsWith("_START")) {
        assert(!set.has(id), `${type}: not already open`);
        set.add(id);
        if (type === "REASONING_MESSAGE_START") message(id, "reasoning");
      } else {
        assert(set.has(id), `${type} of an open reasoning ${set === reasoning.spans ? "span" : "message"}`);
        if (type === "REASONING_MESSAGE_CONTENT") message(id, "reasoning").content += event["delta"] as string;
        else set.delete(id);
      }
    } else if (type === "RUN_FINISHED") {
      assert(
        texts.size === 0 && reasoning.spans.size === 0 && reasoning.messages.size === 0,
        "nothing open at RUN_FINISHED",
      );
      assert(
        [...calls.values()].every((c) => c.ended),
        "no tool call open at RUN_FINISHED",
      );
      reading.finished = event;
    } else if (type === "RUN_ERROR") reading.error = event;
  }
  assert(reading.finished || reading.error, "the run ends with RUN_FINISHED or RUN_ERROR");
  return reading;
}

// ---------------------------------------------------------------------------------------------
// What the events say a client must see.

/** A call as the events give it, in the order calls started. */
export interface ExpectedCall {
  id: string | null;
  name: string;
  rawArguments: string;
  arguments?: JsonValue;
  invalid: boolean;
}

/** The calls of the first choice that a client sees (not those the provider ran itself), in start order. */
export function expectedCalls(events: readonly EncodableEvent[]): ExpectedCall[] {
  const order: string[] = [];
  const done = new Map<string, CompletedToolCallEvent | InvalidToolCallEvent>();
  for (const event of events) {
    if (event.type !== "tool-call-start" && event.type !== "tool-call" && event.type !== "invalid-tool-call") continue;
    if (event.choice || (event.type !== "invalid-tool-call" && event.providerExecuted)) continue;
    const key = `${"step" in event ? event.step : 0}:${event.index}`;
    if (!order.includes(key)) order.push(key);
    if (event.type !== "tool-call-start") done.set(key, event);
  }
  return order.flatMap((key) => {
    const event = done.get(key);
    if (!event) return [];
    // A JSON call that came with no text at all (Anthropic's of a tool without parameters) is `{}`, as OpenAI writes it.
    // So is one its schema refused (the model wrote `{}`), but not one cut before any text (its "" did not parse, or the provider withdrew it).
    const cut =
      event.type === "invalid-tool-call" && ["invalid-json", "truncated-input", "withdrawn"].includes(event.error.code);
    const empty = !cut && event.inputFormat !== "text" && event.rawArguments.trim() === "";
    const base = {
      id: event.id,
      name: event.name,
      rawArguments: empty ? `${event.rawArguments}{}` : event.rawArguments,
    };
    return [
      event.type === "tool-call" ? { ...base, arguments: event.arguments, invalid: false } : { ...base, invalid: true },
    ];
  });
}

/** Checks ids as a client sees them: the provider's where it gave one, else a generated `call_...`, all distinct. */
export function assertCallIds(seen: readonly string[], expected: readonly ExpectedCall[]): void {
  assertEquals(seen.length, expected.length, "as many calls as the events completed");
  assertEquals(new Set(seen).size, seen.length, "call ids are distinct");
  const providerIds = new Set(expected.map((call) => call.id));
  expected.forEach((call, i) => {
    const id = seen[i]!;
    if (call.id !== null && call.id !== "" && expected.findIndex((other) => other.id === call.id) === i)
      assertEquals(id, call.id, "the provider's id");
    else
      assert(
        /^call_[A-Za-z0-9_]+$/.test(id) && !providerIds.has(id),
        `a generated id for a call without one of its own (${id})`,
      );
  });
}
