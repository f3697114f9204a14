// Anthropic Messages streams of the 2026 turn features: programmatic tool calling (a `tool_use`
// with `caller`, and a continuation whose `message_start` already holds the call), server tools
// ending in `end_turn`, a server-side fallback that cuts a call off, a `compaction` block, and a
// turn paused by a server tool (`pause_turn`).
//
// Provenance: no real capture of a fallback, a compaction block or a pause_turn was available
// offline, so these streams are BUILT BY HAND from the documented shapes, field for field:
// - the blocks and deltas are the types of `@anthropic-ai/sdk` 1.12 (resources/beta/messages:
//   BetaFallbackBlock `{type: "fallback", from: {model}, to: {model}, trigger: {type: "refusal",
//   category}}`, "treated like a server-tool content block for streaming: it arrives via the
//   standard content_block_start / content_block_stop pair and carries no deltas";
//   BetaCompactionBlock `{type: "compaction", content, encrypted_content, signature?}` and
//   BetaCompactionContentBlockDelta `{type: "compaction_delta", content, encrypted_content}`;
//   BetaToolUseBlock's `caller` `{type: "direct"}` or `{type: "code_execution_20250825", tool_id}`;
//   StopReason `pause_turn`);
// - the continuation (`message_start` whose `content` holds the `tool_use`, `stop_reason:
//   "tool_use"`, then `message_stop`, no `message_delta`) follows the shape of vercel/ai's
//   recorded `anthropic-programmatic-tool-calling.1.chunks.txt` (also run as an external fixture);
// - the fallback's order (a `tool_use` right before the `fallback` block is the one the refusal
//   may have cut off) is the SDK's streaming tool runner's (lib/internal/BetaToolRunnerStream).
// The ids, models, signatures and texts are made up.

/** Anthropic SSE: `event: <type>` with the payload's own type. */
export const anthropicSse = (...payloads: Record<string, unknown>[]): string =>
  payloads.map((p) => `event: ${String(p["type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("");

const start = (id: string, content: unknown[] = [], stop_reason: string | null = null): Record<string, unknown> => ({
  type: "message_start",
  message: {
    id,
    type: "message",
    role: "assistant",
    model: "claude-fable-5",
    content,
    stop_reason,
    stop_sequence: null,
    usage: { input_tokens: 120, output_tokens: 1 },
  },
});
const block = (index: number, content_block: Record<string, unknown>): Record<string, unknown> => ({
  type: "content_block_start",
  index,
  content_block,
});
const delta = (index: number, d: Record<string, unknown>): Record<string, unknown> => ({
  type: "content_block_delta",
  index,
  delta: d,
});
const text = (index: number, t: string): Record<string, unknown> => delta(index, { type: "text_delta", text: t });
const json = (index: number, partial_json: string): Record<string, unknown> =>
  delta(index, { type: "input_json_delta", partial_json });
const stop = (index: number): Record<string, unknown> => ({ type: "content_block_stop", index });
const end = (stop_reason: string): Record<string, unknown>[] => [
  { type: "message_delta", delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: 64 } },
  { type: "message_stop" },
];

/** Who made a call from code: the code execution tool, by its id. */
export const CODE_CALLER = { type: "code_execution_20250825", tool_id: "srvtoolu_code_1" } as const;

/**
 * A toolset member's call (BetaToolUseBlock.toolset_name, @anthropic-ai/sdk 1.12): a browser
 * toolset's `navigate`, made from code, so it has a caller too.
 */
export const toolsetMemberCall: string = anthropicSse(
  start("msg_01Toolset"),
  block(0, {
    type: "tool_use",
    id: "toolu_nav",
    name: "navigate",
    input: {},
    toolset_name: "browser",
    caller: CODE_CALLER,
  }),
  json(0, '{"url":"https://example.com"}'),
  stop(0),
  ...end("tool_use"),
);

/** A programmatic tool calling turn: text, the code execution server tool, then the first call its code made. */
export const programmaticFirst: string = anthropicSse(
  start("msg_ptc_1"),
  block(0, { type: "text", text: "" }),
  text(0, "Rolling for both players."),
  stop(0),
  block(1, {
    type: "server_tool_use",
    id: "srvtoolu_code_1",
    name: "code_execution",
    input: {},
    caller: { type: "direct" },
  }),
  json(1, '{"code": "r = await rollDie({\\"player\\": '),
  json(1, '\\"p1\\"})"}'),
  stop(1),
  block(2, { type: "tool_use", id: "toolu_roll_1", name: "rollDie", input: { player: "p1" }, caller: CODE_CALLER }),
  stop(2),
  ...end("tool_use"),
);

/** The continuation after the first call's result: the next call is already in `message_start.content`. */
export const programmaticContinuation: string = anthropicSse(
  start(
    "msg_ptc_2",
    [{ type: "tool_use", id: "toolu_roll_2", name: "rollDie", input: { player: "p2" }, caller: CODE_CALLER }],
    "tool_use",
  ),
  { type: "message_stop" },
);

/** Only server tools (web search), then the answer: `end_turn`. */
export const serverToolsOnly: string = anthropicSse(
  start("msg_srv"),
  block(0, { type: "server_tool_use", id: "srvtoolu_ws_1", name: "web_search", input: {} }),
  json(0, '{"query": "tide times Brest"}'),
  stop(0),
  block(1, {
    type: "web_search_tool_result",
    tool_use_id: "srvtoolu_ws_1",
    content: [
      { type: "web_search_result", title: "Tides", url: "https://example.com/tides", encrypted_content: "Eo8B" },
    ],
  }),
  stop(1),
  block(2, { type: "text", text: "" }),
  text(2, "High tide is at 14:05."),
  stop(2),
  ...end("end_turn"),
);

const thinking = (index: number, t: string, signature: string): Record<string, unknown>[] => [
  block(index, { type: "thinking", thinking: "" }),
  delta(index, { type: "thinking_delta", thinking: t }),
  delta(index, { type: "signature_delta", signature }),
  stop(index),
];

/** The fallback block, as the server places it between the refused model's output and the fallback model's. */
export const FALLBACK_BLOCK = {
  type: "fallback",
  from: { model: "claude-fable-5" },
  to: { model: "claude-opus-4-8" },
  trigger: { type: "refusal", category: "cyber" },
};

/**
 * Server-side fallback: the first model thinks, writes, and starts a call that the refusal cuts
 * off (its block stopped with the input it had); the fallback model thinks and makes its own call.
 */
export const fallbackAfterCall: string = anthropicSse(
  start("msg_fb"),
  ...thinking(0, "The user wants a port scan.", "EqA1sigA"),
  block(1, { type: "text", text: "" }),
  text(1, "Scanning now. "),
  stop(1),
  block(2, { type: "tool_use", id: "toolu_cut", name: "run_scan", input: {} }),
  json(2, '{"target": "10.0.0.'),
  stop(2),
  block(3, FALLBACK_BLOCK),
  stop(3),
  ...thinking(4, "Check what the user owns first.", "EqB2sigB"),
  block(5, { type: "text", text: "" }),
  text(5, "Let me check the inventory."),
  stop(5),
  block(6, { type: "tool_use", id: "toolu_ok", name: "list_hosts", input: {} }),
  json(6, '{"owner": "me"}'),
  stop(6),
  ...end("tool_use"),
);

/** A fallback that starts while the call before it is still open (no `content_block_stop` for it). */
export const fallbackWhileOpen: string = anthropicSse(
  start("msg_fb_open"),
  block(0, { type: "tool_use", id: "toolu_open", name: "run_scan", input: {} }),
  json(0, '{"target": '),
  block(1, FALLBACK_BLOCK),
  stop(1),
  block(2, { type: "text", text: "" }),
  text(2, "I can't run that scan, but here is how to audit your own hosts."),
  stop(2),
  ...end("end_turn"),
);

/** Server-side compaction: the summary block first, its value in a `compaction_delta`, then the answer. */
export const compactionTurn: string = anthropicSse(
  start("msg_cmp"),
  block(0, { type: "compaction", content: null, encrypted_content: null }),
  delta(0, { type: "compaction_delta", content: "The user is planning a trip to Lisbon.", encrypted_content: "ENC1" }),
  stop(0),
  block(1, { type: "text", text: "" }),
  text(1, "Lisbon it is."),
  stop(1),
  ...end("end_turn"),
);

/** A long server tool turn the API paused: send it back as it is to let it continue. */
export const pausedTurn: string = anthropicSse(
  start("msg_pause"),
  block(0, { type: "text", text: "" }),
  text(0, "Searching. "),
  stop(0),
  block(1, { type: "server_tool_use", id: "srvtoolu_p1", name: "web_search", input: {} }),
  json(1, '{"query": "ferry Lisbon Porto"}'),
  stop(1),
  block(2, { type: "web_search_tool_result", tool_use_id: "srvtoolu_p1", content: [] }),
  stop(2),
  ...end("pause_turn"),
);
