// An Anthropic tool_use block whose `content_block_stop` came (its arguments complete) is held
// until the next block or the message's end, which a `fallback` block or a `refusal` stop may
// withdraw it at. A fault there (the body cut inside the next event, or an `overloaded_error`
// event) withdraws nothing: the call reaches every client protocol as complete, before the error,
// read by the real clients: Messages stops its block (@anthropic-ai/sdk's `contentBlock`), the UI
// stream makes it input-available, AG-UI ends it. (Chat Completions streams a call's arguments as
// they come and has no end of a call to withhold: it read the same before.)
import { HttpAgent } from "@ag-ui/client";
import Anthropic from "@anthropic-ai/sdk";
import { DefaultChatTransport, readUIMessageStream } from "ai";
import { describe, expect, it } from "vitest";
import { anthropicSse, textBlock, toolUseBlock } from "./anthropic-blocks.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", ANTHROPIC_API_KEY: "k" });
const base = "http://localhost:8787";
const model = "anthropic/claude-x";
const prompt = "Tides?";
const lookup = { name: "lookup", parameters: { type: "object", properties: { query: { type: "string" } } } };
const answered = anthropicSse(
  { type: "message_start", message: { id: "msg_1", content: [], usage: { input_tokens: 5, output_tokens: 1 } } },
  ...textBlock(0, "Checking. "),
  ...toolUseBlock(1, "toolu_1", "lookup", '{"query":"tides"}'),
);
const faults = [
  {
    label: "the body cut inside the next event",
    chunks: [...answered, 'event: content_block_start\ndata: {"type":"co'],
  },
  {
    label: "an overloaded_error event",
    chunks: [
      ...answered,
      ...anthropicSse({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
    ],
  },
];

describe.each(faults)("a complete tool_use, then $label", ({ chunks }) => {
  const fetch = () => workerFetch({ env, upstream: new FakeUpstream({ kind: "sse", chunks }) });

  it("/v1/messages (@anthropic-ai/sdk's stream helper): the tool_use block stopped, then the error", async () => {
    const anthropic = new Anthropic({ baseURL: base, apiKey: "t", fetch: fetch(), maxRetries: 0 });
    const stream = anthropic.messages.stream({
      model,
      max_tokens: 64,
      messages: [{ role: "user", content: prompt }],
      tools: [{ name: lookup.name, input_schema: lookup.parameters as never }],
    });
    const calls: unknown[] = [];
    stream.on("contentBlock", (block) => void (block.type === "tool_use" && calls.push([block.name, block.input])));
    const outcome = await stream.finalMessage().then(
      (message) => String(message.stop_reason),
      (error: unknown) => (error instanceof Anthropic.APIError ? "error" : String(error)),
    );
    expect({ calls, outcome }).toEqual({ calls: [["lookup", { query: "tides" }]], outcome: "error" });
  });

  it("/v1/ui (the AI SDK's readUIMessageStream): the tool part input-available, then the error", async () => {
    const transport = new DefaultChatTransport({
      api: `${base}/v1/ui`,
      fetch: fetch(),
      headers: { authorization: "Bearer t" },
      body: { model, tools: [lookup] },
    });
    const stream = await transport.sendMessages({
      chatId: "chat_1",
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: prompt }] }],
      abortSignal: undefined,
      trigger: "submit-message",
      messageId: undefined,
    });
    const errors: unknown[] = [];
    let parts: { type: string; state?: string; input?: unknown }[] = [];
    for await (const message of readUIMessageStream({ stream, onError: (error) => errors.push(error) }))
      parts = message.parts as never;
    const tools = parts.filter((part) => part.type.startsWith("tool-"));
    expect(tools.map((part) => [part.type, part.state, part.input])).toEqual([
      ["tool-lookup", "input-available", { query: "tides" }],
    ]);
    expect(errors).toHaveLength(1);
  });

  it("/v1/ag-ui (@ag-ui/client's HttpAgent): TOOL_CALL_END for the call, then RUN_ERROR", async () => {
    const agent = new HttpAgent({
      url: `${base}/v1/ag-ui`,
      threadId: "t1",
      headers: { authorization: "Bearer t" },
      fetch: fetch(),
    });
    agent.addMessage({ id: "m1", role: "user", content: prompt });
    const ended: string[] = [];
    const errors: string[] = [];
    await agent.runAgent(
      { runId: "r1", tools: [{ ...lookup, description: "lookup" }], forwardedProps: { model } },
      {
        onToolCallEndEvent: ({ event }) => void ended.push(event.toolCallId),
        onRunErrorEvent: ({ event }) => void errors.push(String(event.code)),
      },
    );
    expect({ ended, errors: errors.length }).toEqual({ ended: ["toolu_1"], errors: 1 });
  });
});
