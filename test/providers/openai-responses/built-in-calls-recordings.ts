// Responses streams of OpenAI's built-in tools: `apply_patch_call`, `shell_call`,
// `local_shell_call` and `mcp_call`.
//
// Provenance: no real capture of these was available offline, so each stream is BUILT BY HAND
// from the documented shapes, field for field:
// - the output items (`apply_patch_call` with `operation` `{ type, path, diff }`, `shell_call`
//   with `action` `{ commands, timeout_ms, max_output_length }` and `environment`,
//   `local_shell_call` with `action` `{ type: "exec", command, env }`, `mcp_call` with
//   `server_label`, `arguments`, `output`, `error`) and the MCP events
//   (`response.mcp_call_arguments.delta/.done`, `response.mcp_call.in_progress/.completed`) are
//   the types of the `openai` SDK v6 (`resources/responses/responses.d.ts`: ResponseApplyPatchToolCall,
//   ResponseFunctionShellToolCall, ResponseOutputItem.LocalShellCall, ResponseOutputItem.McpCall,
//   ResponseMcpCallArgumentsDeltaEvent, ...);
// - the events the SDK v6 does not type yet are as OpenAI's API reference and the generated
//   clients of its OpenAPI document give them: `response.apply_patch_call_operation_diff.delta`
//   (`item_id`, `output_index`, `delta`) and `.done` (`diff`); `response.shell_call_command.added`
//   (`output_index`, `command_index`, `command`), `.delta` (`delta`) and `.done` (`command`), with
//   no `item_id` (docs.rs openai-client-base 0.16.0 ResponseShellCallCommandAddedStreamingEvent,
//   openrouter.ai's ApplyPatchCallOperationDiffDeltaEvent "Matches OpenAI's streaming shape").
// The ids, diffs and commands are made up; the `obfuscation` padding the API adds to deltas is
// kept on some events, as the API sends it.

/** Responses SSE from payloads, numbered from 0. */
export const responsesSse = (payloads: readonly Record<string, unknown>[]): string =>
  payloads
    .map((payload, sequence_number) => {
      const event = { ...payload, sequence_number };
      return `event: ${String(payload["type"])}\ndata: ${JSON.stringify(event)}\n\n`;
    })
    .join("");

const created = (id: string): Record<string, unknown>[] => [
  { type: "response.created", response: { id, object: "response", status: "in_progress", output: [] } },
  { type: "response.in_progress", response: { id, object: "response", status: "in_progress", output: [] } },
];
const completed = (id: string, output: unknown[]): Record<string, unknown> => ({
  type: "response.completed",
  response: {
    id,
    object: "response",
    status: "completed",
    output,
    usage: { input_tokens: 120, output_tokens: 48, total_tokens: 168 },
  },
});

const DIFF = "@@ def greet():\n-    print('hi')\n+    print(\"héllo\")\n";
const NEW_FILE = "+# Notes\n+- one\n";
const patchUpdate = {
  id: "apc_0a1",
  type: "apply_patch_call",
  call_id: "call_patch_1",
  status: "completed",
  operation: { type: "update_file", path: "src/greet.py", diff: DIFF },
  created_by: "resp_patch",
};
const patchCreate = {
  id: "apc_0a2",
  type: "apply_patch_call",
  call_id: "call_patch_2",
  status: "completed",
  operation: { type: "create_file", path: "NOTES.md", diff: NEW_FILE },
};
const patchDelete = {
  id: "apc_0a3",
  type: "apply_patch_call",
  call_id: "call_patch_3",
  status: "completed",
  operation: { type: "delete_file", path: "old.txt" },
};
const inProgress = (item: Record<string, unknown>, input: Record<string, unknown>) => ({
  ...item,
  status: "in_progress",
  ...input,
});

/** Three `apply_patch_call`s: an update and a creation whose diffs stream, and a deletion without one. */
export const applyPatchStream: string = responsesSse([
  ...created("resp_patch"),
  {
    type: "response.output_item.added",
    output_index: 0,
    item: inProgress(patchUpdate, { operation: { type: "update_file", path: "src/greet.py", diff: "" } }),
  },
  ...["@@ def greet():\n", "-    print('hi')\n", '+    print("hé', 'llo")\n'].map((delta) => ({
    type: "response.apply_patch_call_operation_diff.delta",
    item_id: "apc_0a1",
    output_index: 0,
    delta,
    obfuscation: "Qx7",
  })),
  { type: "response.apply_patch_call_operation_diff.done", item_id: "apc_0a1", output_index: 0, diff: DIFF },
  { type: "response.output_item.done", output_index: 0, item: patchUpdate },
  {
    type: "response.output_item.added",
    output_index: 1,
    item: inProgress(patchCreate, { operation: { type: "create_file", path: "NOTES.md", diff: "" } }),
  },
  { type: "response.apply_patch_call_operation_diff.delta", item_id: "apc_0a2", output_index: 1, delta: NEW_FILE },
  { type: "response.apply_patch_call_operation_diff.done", item_id: "apc_0a2", output_index: 1, diff: NEW_FILE },
  { type: "response.output_item.done", output_index: 1, item: patchCreate },
  { type: "response.output_item.added", output_index: 2, item: inProgress(patchDelete, {}) },
  { type: "response.output_item.done", output_index: 2, item: patchDelete },
  completed("resp_patch", [patchUpdate, patchCreate, patchDelete]),
]);

const shellItem = {
  id: "sh_0b1",
  type: "shell_call",
  call_id: "call_shell_1",
  status: "completed",
  action: { commands: ["ls -la", 'grep -n "TODO" src/*.py'], timeout_ms: 120000, max_output_length: 4096 },
  environment: { type: "local" },
};

/** A `shell_call` of two commands, streamed by `command_index` with no `item_id`, after a short text. */
export const shellStream: string = responsesSse([
  ...created("resp_shell"),
  {
    type: "response.output_item.added",
    output_index: 0,
    item: { id: "msg_0b0", type: "message", role: "assistant", status: "in_progress", content: [] },
  },
  { type: "response.output_text.delta", item_id: "msg_0b0", output_index: 0, content_index: 0, delta: "Looking." },
  {
    type: "response.output_item.done",
    output_index: 0,
    item: {
      id: "msg_0b0",
      type: "message",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "Looking.", annotations: [] }],
    },
  },
  {
    type: "response.output_item.added",
    output_index: 1,
    item: inProgress(shellItem, { action: { commands: [], timeout_ms: 120000, max_output_length: 4096 } }),
  },
  { type: "response.shell_call_command.added", output_index: 1, command_index: 0, command: "" },
  { type: "response.shell_call_command.delta", output_index: 1, command_index: 0, delta: "ls ", obfuscation: "a1" },
  { type: "response.shell_call_command.delta", output_index: 1, command_index: 0, delta: "-la" },
  { type: "response.shell_call_command.done", output_index: 1, command_index: 0, command: "ls -la" },
  { type: "response.shell_call_command.added", output_index: 1, command_index: 1, command: "" },
  { type: "response.shell_call_command.delta", output_index: 1, command_index: 1, delta: 'grep -n "TO' },
  { type: "response.shell_call_command.delta", output_index: 1, command_index: 1, delta: 'DO" src/*.py' },
  {
    type: "response.shell_call_command.done",
    output_index: 1,
    command_index: 1,
    command: 'grep -n "TODO" src/*.py',
  },
  { type: "response.output_item.done", output_index: 1, item: shellItem },
  completed("resp_shell", [shellItem]),
]);

const localShellItem = {
  id: "lsh_0c1",
  type: "local_shell_call",
  call_id: "call_local_1",
  status: "completed",
  action: { type: "exec", command: ["bash", "-lc", "pwd"], env: {}, timeout_ms: 10000, working_directory: "/repo" },
};

/** A `local_shell_call`: no streamed input, the action whole in its item. */
export const localShellStream: string = responsesSse([
  ...created("resp_local"),
  { type: "response.output_item.added", output_index: 0, item: { ...localShellItem, status: "in_progress" } },
  { type: "response.output_item.done", output_index: 0, item: localShellItem },
  completed("resp_local", [localShellItem]),
]);

const mcpItem = {
  id: "mcp_0d1",
  type: "mcp_call",
  name: "roll",
  server_label: "dmcp",
  arguments: '{"diceRollExpression":"2d4 + 1"}',
  output: "4",
  error: null,
  status: "completed",
  approval_request_id: null,
};

/** An `mcp_call` OpenAI ran, its arguments streamed, its output in its item, then the answer. */
export const mcpStream: string = responsesSse([
  ...created("resp_mcp"),
  {
    type: "response.output_item.added",
    output_index: 0,
    item: { ...mcpItem, arguments: "", output: null, status: "in_progress" },
  },
  { type: "response.mcp_call.in_progress", item_id: "mcp_0d1", output_index: 0 },
  { type: "response.mcp_call_arguments.delta", item_id: "mcp_0d1", output_index: 0, delta: '{"diceRollExpression":' },
  { type: "response.mcp_call_arguments.delta", item_id: "mcp_0d1", output_index: 0, delta: '"2d4 + 1"}' },
  { type: "response.mcp_call_arguments.done", item_id: "mcp_0d1", output_index: 0, arguments: mcpItem.arguments },
  { type: "response.mcp_call.completed", item_id: "mcp_0d1", output_index: 0 },
  { type: "response.output_item.done", output_index: 0, item: mcpItem },
  {
    type: "response.output_item.added",
    output_index: 1,
    item: { id: "msg_0d2", type: "message", role: "assistant", status: "in_progress", content: [] },
  },
  { type: "response.output_text.delta", item_id: "msg_0d2", output_index: 1, content_index: 0, delta: "You rolled 4." },
  completed("resp_mcp", [mcpItem]),
]);
