// Strict readers of the two agent protocols the encoders write (Anthropic Messages, OpenAI
// Responses), runtime-neutral: each parses the bytes as the protocol documents them, fails on
// anything the protocol or its strict clients (@anthropic-ai/sdk's MessageStream, openai-node's
// ResponseStream, Codex) reject, and returns what a client would have built.
import { createParser } from "eventsource-parser";
import { assert, assertEquals } from "./harness.ts";

/** The frames of an SSE body: each names its event, and its data is JSON whose `type` is that name. */
export function namedFrames(text: string): Record<string, unknown>[] {
  const frames: Record<string, unknown>[] = [];
  const parser = createParser({
    onEvent(message) {
      assert(message.id === undefined, "no id: field");
      assert(message.event !== undefined, `every frame names its event (${message.data.slice(0, 60)})`);
      const data = JSON.parse(message.data) as Record<string, unknown>;
      assertEquals(data["type"], message.event, "the event: line matches the JSON type");
      frames.push(data);
    },
  });
  parser.feed(text);
  parser.reset({ consume: true });
  return frames;
}

function keysWithin(value: unknown, required: readonly string[], optional: readonly string[], what: string): void {
  assert(typeof value === "object" && value !== null && !Array.isArray(value), `${what} is an object`);
  const record = value as Record<string, unknown>;
  for (const key of required) assert(key in record, `${what} lacks ${key}: ${JSON.stringify(value)}`);
  for (const key of Object.keys(record))
    assert(required.includes(key) || optional.includes(key), `${what} has an undocumented field ${key}`);
}

const isCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;

// ---------------------------------------------------------------------------------------------
// Anthropic Messages.

/** A content block as a Messages client builds it; a call's `json` is its concatenated `partial_json`. */
export type MessagesBlock =
  | { type: "text"; text: string; citations?: unknown[] }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | {
      type: "tool_use";
      id: string;
      name: string;
      json: string;
      input?: unknown;
      caller?: unknown;
      toolset_name?: unknown;
    }
  | { type: "compaction" | "fallback" | "server_tool_use" | "mcp_tool_use"; [field: string]: unknown }
  | { type: `${string}_tool_result`; tool_use_id: string; [field: string]: unknown };

/** What a Messages client read. */
export interface MessagesReading {
  id: string;
  model: string;
  content: MessagesBlock[];
  stopReason?: string;
  /** `message_start`'s usage. */
  startUsage: Record<string, number>;
  usage?: Record<string, number>;
  /** `message_delta`'s code-execution `container`, when it named one. */
  container?: { id: string; expires_at?: string };
  /** `message_delta`'s `stop_details`: a refusal's, else `null`. */
  stopDetails?: {
    type: "refusal";
    category: string | null;
    explanation: string | null;
    [beta: string]: unknown;
  } | null;
  error?: { type: string; message: string };
}

const BLOCK_FIELDS: Record<string, readonly string[]> = {
  text: ["type", "text"],
  thinking: ["type", "thinking", "signature"],
  redacted_thinking: ["type", "data"],
  tool_use: ["type", "id", "name", "input"],
  compaction: ["type"],
  fallback: ["type"],
  // Anthropic's server calls, whole at their start (their input as the SDK's MessageStream keeps it).
  server_tool_use: ["type", "id", "name", "input"],
  mcp_tool_use: ["type", "id", "name", "input", "server_name"],
};
/** A server tool's result block (`web_search_tool_result`, ...): whole at its start. */
const RESULT_FIELDS = ["type", "tool_use_id", "content"] as const;
/** The fields a block may have besides those (the Messages API's own, as the SDK types them). */
const BLOCK_OPTIONAL: Record<string, readonly string[]> = {
  tool_use: ["caller", "toolset_name"],
  server_tool_use: ["caller"],
  mcp_tool_use: ["caller"],
  compaction: ["content", "encrypted_content", "signature"],
  fallback: ["from", "to", "trigger"],
};
/** The fields of Anthropic's response citations (`TextCitation`) besides `type` and `cited_text`. */
const CITATION_FIELDS = [
  ...["document_index", "document_title", "file_id", "start_char_index", "end_char_index"],
  ...["start_page_number", "end_page_number", "start_block_index", "end_block_index"],
  ...["url", "title", "encrypted_index", "search_result_index", "source"],
];
const DELTA_OF: Record<string, readonly string[]> = {
  text: ["text_delta", "citations_delta"],
  thinking: ["thinking_delta", "signature_delta"],
  tool_use: ["input_json_delta"],
  redacted_thinking: [],
  compaction: [],
  fallback: [],
};
const STOP_REASONS = ["end_turn", "max_tokens", "stop_sequence", "tool_use", "refusal", "pause_turn"];

/** Reads a Messages stream with the rules the API documents and the SDKs enforce. */
export function readMessagesEvents(text: string): MessagesReading {
  const frames = namedFrames(text).filter((frame) => frame["type"] !== "ping");
  const first = frames[0];
  assertEquals(first?.["type"], "message_start", "message_start comes first");
  const message = first!["message"] as Record<string, unknown>;
  keysWithin(
    message,
    ["id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "stop_details", "usage"],
    [],
    "message",
  );
  assertEquals([message["type"], message["role"], message["content"]], ["message", "assistant", []]);
  // The SDK's Message has each, `null` until the message_delta.
  assertEquals([message["stop_reason"], message["stop_sequence"], message["stop_details"]], [null, null, null]);
  keysWithin(
    message["usage"],
    ["input_tokens", "output_tokens"],
    ["cache_read_input_tokens", "cache_creation_input_tokens"],
    "message_start usage",
  );
  for (const value of Object.values(message["usage"] as object)) assert(isCount(value), "usage counts are integers");
  const reading: MessagesReading = {
    id: message["id"] as string,
    model: message["model"] as string,
    content: [],
    startUsage: message["usage"] as Record<string, number>,
  };
  let open: number | undefined;
  /** A tool_use a fault cut short, left open: never stopped (a stopped one reads as complete). */
  let abandoned = false;
  let signed = false;
  let ended = false;
  for (const frame of frames.slice(1)) {
    const type = frame["type"] as string;
    assert(!ended, `nothing after message_stop or error (got ${type})`);
    if (type === "error") {
      keysWithin(frame, ["type", "error"], [], "error event");
      keysWithin(frame["error"], ["type", "message"], [], "error");
      reading.error = frame["error"] as { type: string; message: string };
      ended = true;
    } else if (type === "content_block_start") {
      keysWithin(frame, ["type", "index", "content_block"], [], type);
      // One block open at a time, but for a tool_use left open by a fault: what waited behind it
      // follows (nothing more of it: deltas and stops are the newest block's), then the error.
      assert(open === undefined || reading.content[open]?.type === "tool_use", "one block open at a time");
      abandoned ||= open !== undefined;
      assert(reading.stopReason === undefined, "no block after message_delta");
      assertEquals(frame["index"], reading.content.length, "block indices are 0, 1, 2, ... without gaps");
      const block = frame["content_block"] as Record<string, unknown>;
      const fields =
        BLOCK_FIELDS[block["type"] as string] ??
        (/_tool_result$/.test(String(block["type"])) ? RESULT_FIELDS : undefined);
      assert(fields, `a known block type (${String(block["type"])})`);
      keysWithin(block, fields, BLOCK_OPTIONAL[block["type"] as string] ?? [], `${String(block["type"])} block`);
      if (block["type"] === "text") assertEquals(block["text"], "", "a text block starts empty");
      if (block["type"] === "thinking") assertEquals([block["thinking"], block["signature"]], ["", ""]);
      if (block["type"] === "tool_use") {
        assertEquals(block["input"], {}, "a tool_use block starts with input: {}");
        assert(typeof block["id"] === "string" && block["id"] !== "", "a tool_use block has an id");
        const { caller, toolset_name } = block;
        reading.content.push({
          type: "tool_use",
          id: block["id"] as string,
          name: block["name"] as string,
          json: "",
          ...("caller" in block && { caller }),
          ...("toolset_name" in block && { toolset_name }),
        });
      } else reading.content.push({ ...(block as unknown as MessagesBlock) });
      open = frame["index"] as number;
      signed = false;
    } else if (type === "content_block_delta") {
      keysWithin(frame, ["type", "index", "delta"], [], type);
      assertEquals(frame["index"], open, "a delta of the open block");
      const block = reading.content[open!]!;
      const delta = frame["delta"] as Record<string, unknown>;
      assert(
        (DELTA_OF[block.type] ?? []).includes(delta["type"] as string),
        `${String(delta["type"])} in a ${block.type} block`,
      );
      assert(!signed, "nothing after a thinking block's signature");
      if (block.type === "text" && delta["type"] === "citations_delta") {
        // Anthropic's citations (the SDK's MessageStream appends each to the block's `citations`).
        keysWithin(delta, ["type", "citation"], [], "citations_delta");
        keysWithin(delta["citation"], ["type", "cited_text"], CITATION_FIELDS, "citation");
        block.citations = [...(block.citations ?? []), delta["citation"]];
      } else if (block.type === "text")
        keysWithin(delta, ["type", "text"], [], "text_delta"), (block.text += delta["text"]);
      else if (block.type === "tool_use")
        keysWithin(delta, ["type", "partial_json"], [], "input_json_delta"), (block.json += delta["partial_json"]);
      else if (block.type === "thinking" && delta["type"] === "thinking_delta")
        keysWithin(delta, ["type", "thinking"], [], "thinking_delta"), (block.thinking += delta["thinking"]);
      else if (block.type === "thinking") {
        keysWithin(delta, ["type", "signature"], [], "signature_delta");
        block.signature = delta["signature"] as string;
        signed = true;
      }
    } else if (type === "content_block_stop") {
      keysWithin(frame, ["type", "index"], [], type);
      assertEquals(frame["index"], open, "content_block_stop of the open block");
      const block = reading.content[open!]!;
      if (block.type === "tool_use")
        try {
          block.input = JSON.parse(block.json);
        } catch {
          // Left without `input`: the caller decides whether this call was expected to parse.
        }
      open = undefined;
    } else if (type === "message_delta") {
      keysWithin(frame, ["type", "delta", "usage"], [], type);
      assert(reading.stopReason === undefined, "one message_delta");
      assert(!abandoned, "a tool_use left open only on the way to an error");
      assert(open === undefined, "message_delta after every block closed");
      keysWithin(
        frame["delta"],
        ["stop_reason", "stop_sequence", "stop_details"],
        ["container"],
        "message_delta.delta",
      );
      const reason = (frame["delta"] as Record<string, unknown>)["stop_reason"] as string;
      // The SDK's RefusalStopDetails, only with a refusal; else null ("when the stop_reason has no additional detail").
      const details = (frame["delta"] as Record<string, unknown>)["stop_details"];
      assert(details === null || reason === "refusal", "stop_details only with stop_reason refusal");
      if (details !== null) {
        // The beta's BetaRefusalStopDetails adds three fields, each nullable; written together or not at all.
        const fallback = ["fallback_credit_token", "fallback_has_prefill_claim", "recommended_model"];
        keysWithin(details, ["type", "category", "explanation"], fallback, "message_delta.delta.stop_details");
        const some = fallback.filter((key) => key in (details as object)).length;
        assert(some === 0 || some === 3, "the beta's fallback fields together");
        const { type, category, explanation } = details as Record<string, unknown>;
        assertEquals(type, "refusal", "stop_details.type");
        for (const value of [category, explanation])
          assert(value === null || (typeof value === "string" && value !== ""), "a string or null");
      }
      reading.stopDetails = details as NonNullable<MessagesReading["stopDetails"]> | null;
      const container = (frame["delta"] as Record<string, unknown>)["container"];
      if (container !== undefined) {
        // The SDK's Container: `id` and `expires_at` strings (and the `skills` loaded, or null).
        keysWithin(container, ["id"], ["expires_at", "skills"], "message_delta.delta.container");
        const { id, expires_at } = container as Record<string, unknown>;
        assert(typeof id === "string" && id !== "", "container.id is a non-empty string");
        assert(expires_at === undefined || typeof expires_at === "string", "container.expires_at is a string");
        reading.container = container as { id: string; expires_at?: string };
      }
      assert(STOP_REASONS.includes(reason), `a documented stop_reason (${reason})`);
      // A tool_use right before a fallback block is the one the refusal cut off: no call to run.
      const calls = reading.content.filter(
        (block, i) => block.type === "tool_use" && reading.content[i + 1]?.type !== "fallback",
      );
      // A call cut by the length limit (input that never parsed) ends as Anthropic ends it: max_tokens.
      const cut = reason === "max_tokens" && calls.some((block) => !("input" in block));
      assertEquals(
        reason === "tool_use",
        calls.length > 0 && !cut,
        "stop_reason tool_use exactly when a tool_use block was sent (max_tokens when the limit cut one)",
      );
      keysWithin(
        frame["usage"],
        ["output_tokens"],
        ["input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"],
        "message_delta usage",
      );
      for (const value of Object.values(frame["usage"] as object)) assert(isCount(value), "usage counts are integers");
      reading.stopReason = reason;
      reading.usage = frame["usage"] as Record<string, number>;
    } else if (type === "message_stop") {
      keysWithin(frame, ["type"], [], type);
      assert(reading.stopReason !== undefined, "message_stop after message_delta");
      ended = true;
    } else assert(false, `a documented event type (${type})`);
  }
  assert(ended, "the stream ends with message_stop or error");
  assert(!abandoned || reading.error !== undefined, "a tool_use left open only on the way to an error");
  return reading;
}

// ---------------------------------------------------------------------------------------------
// OpenAI Responses.

/** An output item as a Responses client builds it. */
export type ResponsesItem = Record<string, unknown> & { type: string; id: string };

/** What a Responses client read. */
export interface ResponsesReading {
  /** The terminal event's type. */
  terminal: "response.completed" | "response.incomplete" | "response.failed";
  response: Record<string, unknown>;
  /** The items as the events built them, done or not. */
  items: ResponsesItem[];
  text: string;
  /** The messages' `refusal` content parts, joined. */
  refusal: string;
  calls: { id: string; name: string; arguments: string; custom: boolean }[];
}

const ITEM_SCOPED: Record<string, readonly string[]> = {
  "response.content_part.added": ["content_index", "part"],
  "response.content_part.done": ["content_index", "part"],
  "response.output_text.delta": ["content_index", "delta", "logprobs"],
  "response.output_text.done": ["content_index", "text", "logprobs"],
  "response.output_text.annotation.added": ["content_index", "annotation_index", "annotation"],
  // openai 6.49's ResponseRefusalDeltaEvent and ResponseRefusalDoneEvent.
  "response.refusal.delta": ["content_index", "delta"],
  "response.refusal.done": ["content_index", "refusal"],
  "response.function_call_arguments.delta": ["delta"],
  "response.function_call_arguments.done": ["arguments"],
  "response.custom_tool_call_input.delta": ["delta"],
  "response.custom_tool_call_input.done": ["input"],
  "response.reasoning_summary_part.added": ["summary_index", "part"],
  "response.reasoning_summary_part.done": ["summary_index", "part"],
  "response.reasoning_summary_text.delta": ["summary_index", "delta"],
  "response.reasoning_summary_text.done": ["summary_index", "text"],
  // openai 6's ResponseReasoningTextDeltaEvent and ResponseReasoningTextDoneEvent (raw reasoning, gpt-oss's).
  "response.reasoning_text.delta": ["content_index", "delta"],
  "response.reasoning_text.done": ["content_index", "text"],
};
/** openai 6's `ResponseOutputText` annotations the encoder writes: required and optional fields. */
const ANNOTATION_FIELDS: Record<string, readonly [readonly string[], readonly string[]]> = {
  url_citation: [["type", "url", "title", "start_index", "end_index"], []],
  file_citation: [["type", "file_id", "filename", "index"], []],
};
const ITEM_OF: Record<string, string> = {
  content_part: "message",
  output_text: "message",
  refusal: "message",
  function_call_arguments: "function_call",
  custom_tool_call_input: "custom_tool_call",
  reasoning_summary_part: "reasoning",
  reasoning_summary_text: "reasoning",
  reasoning_text: "reasoning",
};
const ITEM_FIELDS: Record<string, readonly [readonly string[], readonly string[]]> = {
  // openai 6's ResponseOutputMessage: `phase` optional (an OpenAI Responses upstream's, gpt-5.3-codex and later).
  message: [["type", "id", "status", "role", "content"], ["phase"]],
  // openai 6's ResponseFunctionToolCall and ResponseCustomToolCall: `namespace` (a tool search's tool) and `caller` (programmatic tool calling) optional.
  function_call: [
    ["type", "id", "status", "call_id", "name", "arguments"],
    ["namespace", "caller"],
  ],
  custom_tool_call: [
    ["type", "id", "status", "call_id", "name", "input"],
    ["namespace", "caller"],
  ],
  reasoning: [
    ["type", "id", "summary"],
    ["encrypted_content", "content", "status"],
  ],
  // openai 6's ResponseOutputItem.McpApprovalRequest: every field required, no status.
  mcp_approval_request: [["type", "id", "server_label", "name", "arguments"], []],
};
/** Every field Open Responses' `ResponseResource` requires. */
const RESPONSE_FIELDS = [
  "id",
  "object",
  "created_at",
  "completed_at",
  "status",
  "incomplete_details",
  "model",
  "previous_response_id",
  "instructions",
  "output",
  "error",
  "tools",
  "tool_choice",
  "truncation",
  "parallel_tool_calls",
  "text",
  "top_p",
  "presence_penalty",
  "frequency_penalty",
  "top_logprobs",
  "temperature",
  "reasoning",
  "usage",
  "max_output_tokens",
  "max_tool_calls",
  "store",
  "background",
  "service_tier",
  "metadata",
  "safety_identifier",
  "prompt_cache_key",
];
const RESPONSE_OPTIONAL = ["user"];

function checkResponse(response: unknown, status: string, id?: string): Record<string, unknown> {
  keysWithin(response, RESPONSE_FIELDS, RESPONSE_OPTIONAL, "response");
  const r = response as Record<string, unknown>;
  assertEquals([r["object"], r["status"]], ["response", status]);
  assert(Number.isInteger(r["created_at"]), "created_at is an integer");
  if (status === "completed") assert(Number.isInteger(r["completed_at"]), "a completed response has completed_at");
  else assertEquals(r["completed_at"], null, "completed_at is null until the response completes");
  if (id !== undefined) assertEquals(r["id"], id, "the same response id throughout");
  return r;
}

/** Reads a Responses stream with the rules openai-node's ResponseStream, Codex and the API reference hold it to. */
export function readResponsesEvents(text: string): ResponsesReading {
  // "The terminal event MUST be the literal string `[DONE]`" (Open Responses): a data-only frame, last.
  const DONE = "data: [DONE]\n\n";
  assert(text.endsWith(DONE), "the stream ends with data: [DONE]");
  assertEquals(text.indexOf("[DONE]"), text.length - DONE.length + "data: ".length, "[DONE] comes once, last");
  const frames = namedFrames(text.slice(0, -DONE.length));
  assertEquals(
    frames.slice(0, 2).map((frame) => frame["type"]),
    ["response.created", "response.in_progress"],
    "response.created, then response.in_progress",
  );
  const id = checkResponse(frames[0]!["response"], "in_progress")["id"] as string;
  checkResponse(frames[1]!["response"], "in_progress", id);
  assertEquals((frames[0]!["response"] as { output: unknown[] }).output, [], "no output yet");
  let sequence = -1;
  const items: ResponsesItem[] = [];
  const done = new Set<number>();
  const ids = new Set<string>();
  const state: { text: string[]; args: string[]; parts: number[] } = { text: [], args: [], parts: [] };
  let terminal: ResponsesReading | undefined;
  let errored = false;
  for (const frame of frames) {
    const type = frame["type"] as string;
    assert(terminal === undefined, `nothing after the terminal event (got ${type})`);
    assert(!errored || type === "response.failed", `an error event is followed by response.failed (got ${type})`);
    assert(
      Number.isInteger(frame["sequence_number"]) && (frame["sequence_number"] as number) > sequence,
      "sequence_number strictly increases",
    );
    sequence = frame["sequence_number"] as number;
    if (type === "response.created" || type === "response.in_progress") {
      keysWithin(frame, ["type", "sequence_number", "response"], [], type);
    } else if (type === "error") {
      keysWithin(frame, ["type", "sequence_number", "error"], [], type);
      keysWithin(frame["error"], ["type", "code", "message", "param"], [], "error");
      errored = true;
    } else if (type === "response.output_item.added" || type === "response.output_item.done") {
      keysWithin(frame, ["type", "sequence_number", "output_index", "item"], [], type);
      const item = frame["item"] as ResponsesItem;
      const fields = ITEM_FIELDS[item.type];
      assert(fields, `a documented item type (${item.type})`);
      keysWithin(item, fields[0], fields[1], `${item.type} item`);
      const at = frame["output_index"] as number;
      if (type === "response.output_item.added") {
        assertEquals(at, items.length, "output_item.added appends: output_index is the output's length");
        assert(typeof item.id === "string" && item.id !== "" && !ids.has(item.id), "a fresh non-empty item id");
        ids.add(item.id);
        if (item.type === "function_call" || item.type === "custom_tool_call")
          assert(typeof item["call_id"] === "string" && item["call_id"] !== "", "a call_id");
        items.push(structuredClone(item));
        state.text[at] = "";
        state.args[at] = "";
        state.parts[at] = 0;
      } else {
        assert(items[at] && !done.has(at), "output_item.done of an open item");
        assertEquals([item.id, item.type], [items[at]!.id, items[at]!.type], "the same item");
        if (item.type === "function_call")
          assertEquals(item["arguments"], items[at]!["arguments"], "done carries the whole arguments");
        if (item.type === "custom_tool_call")
          assertEquals(item["input"], items[at]!["input"], "done carries the whole input");
        if (item.type === "message")
          assertEquals(item["content"], items[at]!["content"], "done carries every content part");
        items[at] = structuredClone(item);
        done.add(at);
      }
    } else if (type in ITEM_SCOPED) {
      keysWithin(
        frame,
        ["type", "sequence_number", "item_id", "output_index", ...ITEM_SCOPED[type]!],
        type === "response.function_call_arguments.done" ? ["name"] : [],
        type,
      );
      const at = frame["output_index"] as number;
      const item = items[at];
      assert(item && !done.has(at), `${type} of an open item`);
      assertEquals(frame["item_id"], item.id, "item_id names the item at output_index");
      // A content part is a message's, or a reasoning item's raw reasoning (`reasoning_text`).
      const reasoningPart = item.type === "reasoning" && type.startsWith("response.content_part.");
      assertEquals(
        item.type,
        reasoningPart ? "reasoning" : ITEM_OF[type.split(".")[1]!],
        `${type} in a ${item.type} item`,
      );
      readItemEvent(type, frame, item, state, at);
    } else if (type === "response.completed" || type === "response.incomplete" || type === "response.failed") {
      keysWithin(frame, ["type", "sequence_number", "response"], [], type);
      const status = type === "response.failed" ? "failed" : type === "response.completed" ? "completed" : "incomplete";
      const response = checkResponse(frame["response"], status, id);
      if (type !== "response.failed") {
        assertEquals(done.size, items.length, "every item is done before the response completes");
        keysWithin(
          response["usage"],
          ["input_tokens", "output_tokens", "total_tokens"],
          ["input_tokens_details", "output_tokens_details"],
          "usage",
        );
        for (const key of ["input_tokens", "output_tokens", "total_tokens"])
          assert(isCount((response["usage"] as Record<string, unknown>)[key]), `usage.${key} is an integer`);
        assertEquals(response["error"], null);
        if (type === "response.incomplete")
          keysWithin(response["incomplete_details"], ["reason"], [], "incomplete_details");
      } else {
        keysWithin(response["error"], ["code", "message"], [], "error");
        assert(errored, "response.failed follows an error event");
      }
      if (type !== "response.incomplete")
        assert(
          items.every((item) => item["status"] !== "incomplete"),
          "only an item of an incomplete response is incomplete (Open Responses)",
        );
      // A call cut short by a failure is discarded: never sent done, and not in the failed response's output.
      for (const [i, item] of items.entries())
        if (!done.has(i))
          assert(
            type === "response.failed" && (item.type === "function_call" || item.type === "custom_tool_call"),
            "only a call cut short by a failure is left without output_item.done",
          );
      assertEquals(
        response["output"],
        items.filter((_, i) => done.has(i)),
        "the output is every item done, in order (a call cut short by a failure left out)",
      );
      const calls = items.filter(
        (item, i) => done.has(i) && (item.type === "function_call" || item.type === "custom_tool_call"),
      );
      terminal = {
        terminal: type,
        response,
        items,
        text: items
          .filter((item) => item.type === "message")
          .map((item) => (item["content"] as { text?: string }[]).map((part) => part.text ?? "").join(""))
          .join(""),
        refusal: items
          .filter((item) => item.type === "message")
          .map((item) => (item["content"] as { refusal?: string }[]).map((part) => part.refusal ?? "").join(""))
          .join(""),
        calls: calls.map((item) => ({
          id: item["call_id"] as string,
          name: item["name"] as string,
          arguments: (item["arguments"] ?? item["input"]) as string,
          custom: item.type === "custom_tool_call",
        })),
      };
    } else assert(false, `a documented event type (${type})`);
  }
  assert(terminal, "the stream ends with response.completed, .incomplete or .failed");
  return terminal;
}

function readItemEvent(
  type: string,
  frame: Record<string, unknown>,
  item: ResponsesItem,
  state: { text: string[]; args: string[]; parts: number[] },
  at: number,
): void {
  if (item.type === "reasoning" && !type.includes("summary")) return readReasoningText(type, frame, item);
  const content = item["content"] as Record<string, unknown>[] | undefined;
  const summary = item["summary"] as Record<string, unknown>[] | undefined;
  switch (type) {
    case "response.content_part.added":
      assertEquals(frame["content_index"], content!.length, "content parts append");
      // An output_text part, or a refusal part (openai 6.49's ResponseOutputRefusal), opened empty.
      if ((frame["part"] as { type?: unknown })["type"] === "refusal")
        assertEquals(frame["part"], { type: "refusal", refusal: "" });
      else assertEquals(frame["part"], { type: "output_text", text: "", annotations: [], logprobs: [] });
      content!.push({ ...(frame["part"] as object), open: true });
      return;
    case "response.output_text.annotation.added": {
      const part = content![frame["content_index"] as number];
      assert(part?.["open"] === true && part["done"] !== true, `${type} of an open content part`);
      const annotations = part["annotations"] as unknown[];
      assertEquals(frame["annotation_index"], annotations.length, "annotations append");
      const annotation = frame["annotation"] as Record<string, unknown>;
      const [required, optional] = ANNOTATION_FIELDS[annotation["type"] as string] ?? [["a known type"], []];
      keysWithin(annotation, required, optional, "annotation");
      part["annotations"] = [...annotations, annotation];
      return;
    }
    case "response.output_text.delta":
    case "response.output_text.done":
    case "response.refusal.delta":
    case "response.refusal.done":
    case "response.content_part.done": {
      const part = content![frame["content_index"] as number];
      assert(part?.["open"] === true, `${type} of an open content part`);
      const refusal = part["type"] === "refusal";
      if (type !== "response.content_part.done")
        assert(refusal === type.startsWith("response.refusal."), `${type} of a ${String(part["type"])} part`);
      if (type === "response.refusal.delta") part["refusal"] += frame["delta"] as string;
      else if (type === "response.refusal.done")
        assertEquals(frame["refusal"], part["refusal"], "refusal.done has the whole refusal"), (part["done"] = true);
      else if (type === "response.output_text.delta") part["text"] += frame["delta"] as string;
      else if (type === "response.output_text.done")
        assertEquals(frame["text"], part["text"], "output_text.done has the whole text"), (part["done"] = true);
      else {
        assert(part["done"] === true, "content_part.done after output_text.done or refusal.done");
        content![frame["content_index"] as number] = structuredClone(frame["part"] as Record<string, unknown>);
        const { annotations } = part;
        assertEquals(
          frame["part"],
          refusal
            ? { type: "refusal", refusal: part["refusal"] }
            : { type: "output_text", text: part["text"], annotations, logprobs: [] },
        );
      }
      return;
    }
    case "response.function_call_arguments.delta":
    case "response.custom_tool_call_input.delta":
      state.args[at] += frame["delta"] as string;
      item[item.type === "function_call" ? "arguments" : "input"] = state.args[at];
      return;
    case "response.function_call_arguments.done":
    case "response.custom_tool_call_input.done":
      item[item.type === "function_call" ? "arguments" : "input"] =
        frame[item.type === "function_call" ? "arguments" : "input"];
      return;
    case "response.reasoning_summary_part.added":
      assertEquals(frame["summary_index"], summary!.length, "summary parts append");
      assertEquals(frame["part"], { type: "summary_text", text: "" });
      summary!.push({ type: "summary_text", text: "" });
      return;
    default: {
      const part = summary![frame["summary_index"] as number];
      assert(part, `${type} of a summary part that was added`);
      if (type === "response.reasoning_summary_text.delta") part["text"] += frame["delta"] as string;
      else if (type === "response.reasoning_summary_text.done") assertEquals(frame["text"], part["text"]);
      else assertEquals(frame["part"], part);
    }
  }
}

/** A reasoning item's raw reasoning (openai 6's `ResponseReasoningItem.content`): `reasoning_text` parts, each opened empty. */
function readReasoningText(type: string, frame: Record<string, unknown>, item: ResponsesItem): void {
  item["content"] ??= [];
  const content = item["content"] as Record<string, unknown>[];
  const index = frame["content_index"] as number;
  if (type === "response.content_part.added") {
    assertEquals(index, content.length, "content parts append");
    assertEquals(frame["part"], { type: "reasoning_text", text: "" });
    content.push({ type: "reasoning_text", text: "" });
    return;
  }
  const part = content[index];
  assert(part, `${type} of a reasoning_text part that was added`);
  if (type === "response.reasoning_text.delta") part["text"] += frame["delta"] as string;
  else if (type === "response.reasoning_text.done") assertEquals(frame["text"], part["text"]);
  else assertEquals(frame["part"], part);
}
