// Provider streams that reason before they call `lookup`, as each provider writes them: Anthropic's
// signed thinking and redacted thinking, an OpenAI Responses reasoning item with its summary and
// encrypted content, Gemini's thought parts. The agent reasoning tests serve them from a fake upstream.
import { FakeUpstream } from "./support.ts";

/** The thinking text every stream reasons with. */
export const THOUGHT = "Paris needs a lookup.";
/** Anthropic's signature of the thinking block. */
export const SIGNATURE = "EqQBCkYIBxgCKkAsig==";
/** Anthropic's redacted thinking. */
export const REDACTED = "EmwKAhgBEgy3redacted";
/** OpenAI's encrypted reasoning. */
export const ENCRYPTED = "gAAAAABoencrypted==";

const sse = (events: readonly Record<string, unknown>[]): string[] =>
  events.map((event) => `event: ${String(event["type"])}\ndata: ${JSON.stringify(event)}\n\n`);

/** Anthropic: a signed thinking block, a redacted one, then a `lookup` call. */
export function anthropicThinkingStream(): FakeUpstream {
  return new FakeUpstream({
    kind: "sse",
    chunks: sse([
      {
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "claude-x",
          content: [],
          usage: { input_tokens: 9, output_tokens: 1 },
        },
      },
      { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: THOUGHT } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: SIGNATURE } },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "redacted_thinking", data: REDACTED } },
      { type: "content_block_stop", index: 1 },
      {
        type: "content_block_start",
        index: 2,
        content_block: { type: "tool_use", id: "toolu_1", name: "lookup", input: {} },
      },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"query":"Paris"}' } },
      { type: "content_block_stop", index: 2 },
      { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 30 } },
      { type: "message_stop" },
    ]),
  });
}

/** OpenAI Responses: a reasoning item (summary and encrypted content), then a `lookup` call. */
export function responsesReasoningStream(): FakeUpstream {
  const reasoning = {
    type: "reasoning",
    id: "rs_1",
    summary: [{ type: "summary_text", text: THOUGHT }],
    encrypted_content: ENCRYPTED,
  };
  const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "lookup", arguments: '{"query":"Paris"}' };
  const events: Record<string, unknown>[] = [
    { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } },
    { type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id: "rs_1", summary: [] } },
    {
      type: "response.reasoning_summary_part.added",
      item_id: "rs_1",
      output_index: 0,
      summary_index: 0,
      part: { type: "summary_text", text: "" },
    },
    {
      type: "response.reasoning_summary_text.delta",
      item_id: "rs_1",
      output_index: 0,
      summary_index: 0,
      delta: THOUGHT,
    },
    { type: "response.output_item.done", output_index: 0, item: reasoning },
    { type: "response.output_item.added", output_index: 1, item: { ...call, arguments: "", status: "in_progress" } },
    { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 1, delta: call.arguments },
    { type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 1, arguments: call.arguments },
    { type: "response.output_item.done", output_index: 1, item: { ...call, status: "completed" } },
    {
      type: "response.completed",
      response: {
        id: "resp_1",
        status: "completed",
        output: [reasoning, call],
        usage: { input_tokens: 9, output_tokens: 30, total_tokens: 39 },
      },
    },
  ];
  return new FakeUpstream({ kind: "sse", chunks: sse(events.map((event, i) => ({ ...event, sequence_number: i }))) });
}

/** Gemini: a thought part, then a signed `lookup` call. */
export function geminiThoughtStream(): FakeUpstream {
  const chunk = (parts: unknown[], finishReason?: string) =>
    `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, ...(finishReason ? { finishReason } : {}) }] })}\n\n`;
  return new FakeUpstream({
    kind: "sse",
    chunks: [
      chunk([{ text: THOUGHT, thought: true }]),
      chunk(
        [{ functionCall: { name: "lookup", args: { query: "Paris" } }, thoughtSignature: "c2lnLWdlbWluaQ==" }],
        "STOP",
      ),
    ],
  });
}

/** Cohere (a reasoning model): a thinking content item, a tool plan, then a `lookup` call. */
export function cohereThinkingStream(): FakeUpstream {
  const call = { id: "lookup_1", type: "function", function: { name: "lookup", arguments: "" } };
  return new FakeUpstream({
    kind: "sse",
    chunks: sse([
      { type: "message-start", id: "c1", delta: { message: { role: "assistant", content: [], tool_plan: "" } } },
      { type: "content-start", index: 0, delta: { message: { content: { type: "thinking", thinking: "" } } } },
      { type: "content-delta", index: 0, delta: { message: { content: { thinking: THOUGHT } } } },
      { type: "content-end", index: 0 },
      { type: "tool-plan-delta", delta: { message: { tool_plan: "I will look Paris up." } } },
      { type: "tool-call-start", index: 0, delta: { message: { tool_calls: call } } },
      {
        type: "tool-call-delta",
        index: 0,
        delta: { message: { tool_calls: { function: { arguments: '{"query":"Paris"}' } } } },
      },
      { type: "tool-call-end", index: 0 },
      {
        type: "message-end",
        delta: { finish_reason: "TOOL_CALL", usage: { tokens: { input_tokens: 9, output_tokens: 30 } } },
      },
    ]),
  });
}
