// Builders of an Anthropic Messages stream for the Worker tests of its blocks (issue 34): the SSE
// frames of payloads, and the events of one thinking, text or tool_use block at an index.

/** A `fallback` block: a refusal handed the turn from the first model to the fallback one. */
export const FALLBACK = {
  type: "fallback",
  from: { model: "claude-fable-5" },
  to: { model: "claude-opus-4-8" },
  trigger: { type: "refusal", category: "cyber" },
} as const;

/** Each payload as one Anthropic SSE frame, its event named by its type. */
export const anthropicSse = (...payloads: Record<string, unknown>[]): string[] =>
  payloads.map((p) => `event: ${String(p["type"])}\ndata: ${JSON.stringify(p)}\n\n`);

/** An Anthropic turn that says nothing, for a test that reads what the upstream was sent. */
export const EMPTY_TURN: readonly string[] = anthropicSse(
  { type: "message_start", message: { id: "msg_a", content: [], usage: { input_tokens: 5, output_tokens: 1 } } },
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
  { type: "message_stop" },
);

/** An Anthropic turn that says `said` and ends (`end_turn`). */
export const textTurn = (said: string): string[] =>
  anthropicSse(
    { type: "message_start", message: { id: "msg_1", content: [], usage: { input_tokens: 5, output_tokens: 1 } } },
    ...textBlock(0, said),
    { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
    { type: "message_stop" },
  );

/** A signed thinking block at `index`. */
export const thinkingBlock = (index: number, text: string, signature: string) => [
  { type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } },
  { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: text } },
  { type: "content_block_delta", index, delta: { type: "signature_delta", signature } },
  { type: "content_block_stop", index },
];

/** A text block at `index`. */
export const textBlock = (index: number, said: string) => [
  { type: "content_block_start", index, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index, delta: { type: "text_delta", text: said } },
  { type: "content_block_stop", index },
];

/** A tool_use block at `index` whose input streams as `json` (whole or cut off). */
export const toolUseBlock = (index: number, id: string, name: string, json: string) => [
  { type: "content_block_start", index, content_block: { type: "tool_use", id, name, input: {} } },
  { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json } },
  { type: "content_block_stop", index },
];

/** A server_tool_use block (a call Anthropic runs) at `index` whose input streams as `json`. */
export const serverToolUseBlock = (index: number, id: string, name: string, json: string) => [
  { type: "content_block_start", index, content_block: { type: "server_tool_use", id, name, input: {} } },
  { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json } },
  { type: "content_block_stop", index },
];
