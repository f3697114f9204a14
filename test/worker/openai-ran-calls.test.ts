// The tools OpenAI ran itself (a `web_search_call`, a `code_interpreter_call`) streamed by an
// OpenAI Responses upstream, as each client protocol sees them through the Worker, read by the
// protocol's real client (issue 34): the AI SDK's `readUIMessageStream` (ai 6) gets each as a
// provider-executed tool part with its input and, as its output, the item (its result), as
// vercel/ai's own OpenAI provider reports them;
// openai-node's Chat Completions stream gets no tool call and `stop` (a Chat client runs every call
// it sees); openai-node's Responses stream gets no call item either, the turn ending `completed`.
// The stream is built from openai 6's item and event types, in this project's ids.
import * as ai6 from "ai";
import { describe, expect, it } from "vitest";
import { responsesSse } from "../providers/openai-responses/built-in-calls-recordings.ts";
import { OPENAI_ANTHROPIC_ENV, openAIClient, workerFetch } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const search = { id: "ws_1", type: "web_search_call", status: "completed", action: { type: "search", query: "tides" } };
const code = {
  id: "ci_2",
  type: "code_interpreter_call",
  status: "completed",
  code: "print(6 * 7)",
  container_id: "cntr_1",
  outputs: [{ type: "logs", logs: "42" }],
};
const TEXT = "High tide at 14:05; 6 * 7 is 42.";
const stream = responsesSse([
  { type: "response.created", response: { id: "resp_1", object: "response", status: "in_progress", output: [] } },
  { type: "response.output_item.added", output_index: 0, item: { ...search, status: "in_progress" } },
  { type: "response.web_search_call.completed", output_index: 0, item_id: "ws_1" },
  { type: "response.output_item.done", output_index: 0, item: search },
  { type: "response.output_item.added", output_index: 1, item: { ...code, code: "", outputs: null } },
  { type: "response.code_interpreter_call_code.delta", output_index: 1, item_id: "ci_2", delta: "print(6 * 7)" },
  { type: "response.output_item.done", output_index: 1, item: code },
  {
    type: "response.output_item.added",
    output_index: 2,
    item: { id: "msg_3", type: "message", role: "assistant", status: "in_progress", content: [] },
  },
  { type: "response.output_text.delta", output_index: 2, item_id: "msg_3", content_index: 0, delta: TEXT },
  {
    type: "response.completed",
    response: { id: "resp_1", object: "response", status: "completed", output: [], usage: null },
  },
]);
const upstream = () => new FakeUpstream({ kind: "sse", chunks: [stream] });
const MODEL = "openai-responses/gpt-5";

describe("the tools an OpenAI Responses upstream ran, through each client protocol", () => {
  it("AI SDK: provider-executed tool parts with their inputs and their items as outputs, then the text", async () => {
    const transport = new ai6.DefaultChatTransport({
      api: "http://localhost:8787/v1/ui",
      fetch: workerFetch({ env: OPENAI_ANTHROPIC_ENV, upstream: upstream() }),
      headers: { authorization: "Bearer t" },
      body: { model: MODEL },
    });
    const chunks = await transport.sendMessages({
      chatId: "c",
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Tides? And 6 * 7?" }] }],
      abortSignal: undefined,
      trigger: "submit-message",
      messageId: undefined,
    });
    const errors: unknown[] = [];
    let message: ai6.UIMessage | undefined;
    for await (const snapshot of ai6.readUIMessageStream({ stream: chunks, onError: (e) => errors.push(e) }))
      message = snapshot;
    expect(errors).toEqual([]);
    const parts = (message?.parts ?? []).flatMap((part): unknown[] =>
      part.type === "text" ? [["text", part.text]] : part.type === "step-start" ? [] : [part],
    );
    expect(parts).toEqual([
      expect.objectContaining({
        type: "tool-web_search",
        toolCallId: "ws_1",
        providerExecuted: true,
        state: "output-available",
        input: { action: search.action },
        output: search,
      }),
      expect.objectContaining({
        type: "tool-code_interpreter",
        toolCallId: "ci_2",
        providerExecuted: true,
        state: "output-available",
        input: { code: "print(6 * 7)", container_id: "cntr_1" },
        output: code,
      }),
      ["text", TEXT],
    ]);
  });

  it("Chat Completions: no tool call, finish stop", async () => {
    const chunks = await openAIClient(upstream()).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Tides?" }],
      stream: true,
    });
    let text = "";
    const finishes: unknown[] = [];
    for await (const chunk of chunks) {
      const choice = chunk.choices[0];
      expect(choice?.delta.tool_calls).toBeUndefined();
      text += choice?.delta.content ?? "";
      if (choice?.finish_reason) finishes.push(choice.finish_reason);
    }
    expect([text, finishes]).toEqual([TEXT, ["stop"]]);
  });

  it("Responses: no call item for the client, the response completed with the text", async () => {
    const response = await openAIClient(upstream()).responses.stream({ model: MODEL, input: "Tides?" }).finalResponse();
    expect(response.status).toBe("completed");
    expect(response.output.map((item) => item.type).filter((type) => type.endsWith("call"))).toEqual([]);
    expect(response.output_text).toBe(TEXT);
  });
});
