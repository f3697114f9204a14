// A provider's error that comes after its finish reason (Anthropic's `error` event after
// `message_delta`, an OpenAI-compatible server's `error` event after `finish_reason`) fails the
// turn as one before it does: everything before it is delivered (the text, the complete call),
// then the `error`, then the `finish` of reason `error` with the provider's own reason kept on
// `rawReason`; `runToolLoop` ends there (`aborted`) and never asks the model again on it. A
// refusal keeps its reason (`content-filter` with an error stays `content-filter`).
import { runToolLoop, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { collect } from "../support/streams.ts";

const sse = (event: string | undefined, data: unknown) =>
  `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;

const ANTHROPIC = [
  sse("message_start", {
    type: "message_start",
    message: { id: "msg_1", type: "message", role: "assistant", content: [], usage: { input_tokens: 3 } },
  }),
  sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
  sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "On it." } }),
  sse("content_block_stop", { type: "content_block_stop", index: 0 }),
  sse("content_block_start", {
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "toolu_1", name: "get_time", input: {} },
  }),
  sse("content_block_delta", {
    type: "content_block_delta",
    index: 1,
    delta: { type: "input_json_delta", partial_json: '{"zone":"UTC"}' },
  }),
  sse("content_block_stop", { type: "content_block_stop", index: 1 }),
  sse("message_delta", { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } }),
  sse("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
].join("");

const chunk = (delta: object, finish: string | null = null) =>
  sse(undefined, { id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
const OPENAI = [
  chunk({ role: "assistant", content: "On it." }),
  chunk({ tool_calls: [{ index: 0, id: "call_1", function: { name: "get_time", arguments: '{"zone":"UTC"}' } }] }),
  chunk({}, "tool_calls"),
  sse("error", { error: { message: "Overloaded", type: "server_error", code: "server_is_overloaded" } }),
].join("");

const BODIES = [
  ["anthropic", ANTHROPIC, "tool_use"],
  ["openai", OPENAI, "tool_calls"],
] as const;

/** How `runToolLoop` ends over `body` (a tool `get_time`): its reason, its steps, the model requests it made. */
async function loopEnd(provider: "anthropic" | "openai" | "openai-responses", body: string) {
  let requests = 0;
  const events = await collect(
    runToolLoop({
      provider,
      messages: [{ role: "user", content: "Time?" }],
      tools: { get_time: { run: () => "noon" } },
      call: () => (requests++, Promise.resolve(new Response(body))),
    }),
  );
  const last = events.at(-1);
  return last?.type === "loop-finish" && [last.reason, last.steps, requests];
}

group("A provider's error after its finish reason", (test) => {
  for (const [provider, body, rawReason] of BODIES) {
    test(`${provider}: the text and the call, the error, then a finish of reason error`, async () => {
      const events: ToolCallEvent[] = await collect(streamToolCalls(new Response(body), { provider }));
      assertEquals(
        events.filter((event) => event.type !== "usage").map((event) => event.type),
        ["text-delta", "tool-call-start", "tool-call-delta", "tool-call", "error", "finish"],
      );
      const finish = events.at(-1);
      assertEquals(finish?.type === "finish" && [finish.reason, finish.rawReason, finish.toolCalls.length], [
        "error",
        rawReason,
        1,
      ]);
    });

    test(`${provider}: runToolLoop ends the run there (aborted), with no second request`, async () => {
      assertEquals(await loopEnd(provider, body), ["aborted", 1, 1]);
    });
  }
});

// An OpenAI Responses turn with an MCP approval request, then the provider's error, then its
// `response.completed`: the turn failed, so its finish is `error`, not `approval`, and no loop
// asks the application to approve a call of it.
const responses = (type: string, fields: object) => sse(type, { type, ...fields });
const APPROVAL = {
  id: "mcpr_1",
  type: "mcp_approval_request",
  server_label: "deepwiki",
  name: "ask_question",
  arguments: '{"q":"x"}',
};
const RESPONSES_APPROVAL = [
  responses("response.created", { sequence_number: 0, response: { id: "resp_1", status: "in_progress", output: [] } }),
  responses("response.output_item.added", { sequence_number: 1, output_index: 0, item: APPROVAL }),
  responses("response.output_item.done", { sequence_number: 2, output_index: 0, item: APPROVAL }),
  responses("error", { sequence_number: 3, code: "server_error", message: "boom", param: null }),
  responses("response.completed", {
    sequence_number: 4,
    response: { id: "resp_1", status: "completed", output: [APPROVAL] },
  }),
].join("");

group("A provider's error in a turn with approval requests", (test) => {
  test("openai-responses: the request, then the error, which ends the stream (no approval finish)", async () => {
    const events = await collect(streamToolCalls(new Response(RESPONSES_APPROVAL), { provider: "openai-responses" }));
    // OpenAI Responses' `error` event ends the stream: what follows it is not read.
    assertEquals(
      events.map((event) => (event.type === "finish" ? `finish:${event.reason}/${event.rawReason}` : event.type)),
      ["approval-request", "error", "abort"],
    );
  });

  test("openai-responses: runToolLoop ends the run aborted, asking no approval", async () => {
    assertEquals(await loopEnd("openai-responses", RESPONSES_APPROVAL), ["aborted", 1, 1]);
  });
});
