// A provider payload the Worker could not read, while a call's arguments streamed: the fragment it
// held may be missing anywhere in the call, and the rest can still be valid JSON (`rm -rf /tmp/x` of
// `rm -rf /tmp/x/y`). Read by the real clients, the call is never one to run (no finished tool_use,
// function_call item, TOOL_CALL_END or tool part with its input), the response fails in the
// protocol's shape, and the text and the call complete before it are delivered.
import { HttpAgent } from "@ag-ui/client";
import Anthropic from "@anthropic-ai/sdk";
import * as ai from "ai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { chatChunk, openAISSE } from "../support/streams.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, responses, testEnv } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" });
const base = "http://localhost:8787";
const TOOLS = [
  { name: "shell", parameters: { type: "object", properties: { cmd: { type: "string" } } } },
  { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
];
const user = "The weather in Paris, then clean up.";
const call = (index: number, args: string, id?: string, name?: string) =>
  chatChunk({
    tool_calls: [{ index, ...(id && { id, type: "function" }), function: { ...(name && { name }), arguments: args } }],
  });
/** OpenAI Chat: text, a whole call, a second call whose middle fragment is not JSON, then a normal finish. */
const upstream = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: [
      openAISSE(
        [
          chatChunk({ content: "Checking. " }),
          call(0, '{"city":"Paris"}', "call_1", "get_weather"),
          call(1, '{"cmd":"rm -rf /tmp/x', "call_2", "shell"),
        ],
        false,
      ),
      'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"/y"}}]}}]\n\n',
      openAISSE([call(1, '"}'), chatChunk({}, "tool_calls")]),
    ],
  });
const openai = (fetch: typeof globalThis.fetch) =>
  new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch, maxRetries: 0 });
const failure = (error: unknown) => (error instanceof Error ? error.constructor.name : String(error));

describe("a payload the Worker skipped inside a call, read by the real clients", () => {
  it("/v1/chat/completions (openai-node): the text and the whole call's arguments, no finish_reason, an APIError", async () => {
    const stream = await openai(workerFetch({ env, upstream: upstream() })).chat.completions.create({
      model: "openai/gpt-x",
      stream: true,
      messages: [{ role: "user", content: user }],
      tools: TOOLS.map((tool) => ({ type: "function" as const, function: tool })),
    });
    let text = "";
    const finishes: unknown[] = [];
    const outcome = await (async () => {
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? "";
        if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
      }
    })().then(() => "done", failure);
    expect({ text, finishes, outcome }).toEqual({ text: "Checking. ", finishes: [], outcome: "APIError" });
  });

  it("/v1/messages (@anthropic-ai/sdk): the whole call as a tool_use, never the cut one, then the error", async () => {
    const anthropic = new Anthropic({
      baseURL: base,
      apiKey: "t",
      fetch: workerFetch({ env, upstream: upstream() }),
      maxRetries: 0,
    });
    const stream = anthropic.messages.stream({
      model: "openai/gpt-x",
      max_tokens: 64,
      messages: [{ role: "user", content: user }],
      tools: TOOLS.map((tool) => ({ name: tool.name, input_schema: tool.parameters as never })),
    });
    const texts: string[] = [];
    const calls: [string, unknown][] = [];
    stream.on("text", (delta) => void texts.push(delta));
    stream.on("contentBlock", (block) => void (block.type === "tool_use" && calls.push([block.name, block.input])));
    const outcome = await stream.finalMessage().then((message) => String(message.stop_reason), failure);
    expect({ text: texts.join(""), calls, outcome }).toEqual({
      text: "Checking. ",
      calls: [["get_weather", { city: "Paris" }]],
      outcome: "APIError",
    });
  });

  for (const store of [false, true])
    it(`/v1/responses, store: ${store} (openai-node): only the whole call's item is done, and the response fails`, async () => {
      const fetch = workerFetch({ env: store ? { ...env, RESPONSES: responses } : env, upstream: upstream() });
      const stream = openai(fetch).responses.stream({
        model: "openai/gpt-x",
        store,
        input: user,
        tools: TOOLS.map((tool) => ({ type: "function" as const, ...tool, strict: false })),
      });
      let text = "";
      const done: string[] = [];
      const outcome = await (async () => {
        for await (const event of stream) {
          if (event.type === "response.output_text.delta") text += event.delta;
          if (event.type === "response.output_item.done" && event.item.type === "function_call")
            done.push(`${event.item.name} ${event.item.arguments}`);
          if (event.type === "response.completed") return "completed";
        }
        return "ended";
      })().catch(failure);
      expect({ text, done, outcome }).toEqual({
        text: "Checking. ",
        done: ['get_weather {"city":"Paris"}'],
        outcome: "APIError",
      });
    });

  it("/v1/ui (the AI SDK's readUIMessageStream): the whole call input-available, the cut one an error, and the stream's error", async () => {
    const transport = new ai.DefaultChatTransport({
      api: `${base}/v1/ui`,
      fetch: workerFetch({ env, upstream: upstream() }),
      headers: { authorization: "Bearer t" },
      body: { model: "openai/gpt-x", tools: TOOLS },
    });
    const chunks = await transport.sendMessages({
      chatId: "c",
      messages: [{ id: "u", role: "user", parts: [{ type: "text", text: user }] }],
      abortSignal: undefined,
      trigger: "submit-message",
      messageId: undefined,
    });
    const errors: unknown[] = [];
    let message: ai.UIMessage | undefined;
    for await (const snapshot of ai.readUIMessageStream({ stream: chunks, onError: (e) => errors.push(e) }))
      message = snapshot;
    const tools = (message?.parts ?? []).flatMap((part) =>
      part.type.startsWith("tool-") ? [`${part.type} ${(part as { state: string }).state}`] : [],
    );
    expect({ tools, errors: errors.length }).toEqual({
      tools: ["tool-get_weather input-available", "tool-shell output-error"],
      errors: 1,
    });
  });

  it("/v1/ag-ui (@ag-ui/client's HttpAgent): TOOL_CALL_END for the whole call only, and RUN_ERROR", async () => {
    const agent = new HttpAgent({
      url: `${base}/v1/ag-ui`,
      threadId: "t1",
      headers: { authorization: "Bearer t" },
      fetch: workerFetch({ env, upstream: upstream() }),
    });
    agent.addMessage({ id: "m1", role: "user", content: user });
    const names = new Map<string, string>();
    const ended: string[] = [];
    let [text, errors, finished] = ["", 0, false];
    await agent.runAgent(
      {
        runId: "r1",
        tools: TOOLS.map((tool) => ({ ...tool, description: tool.name })),
        forwardedProps: { model: "openai/gpt-x" },
      },
      {
        onTextMessageContentEvent: ({ event }) => void (text += event.delta),
        onToolCallStartEvent: ({ event }) => void names.set(event.toolCallId, event.toolCallName),
        onToolCallEndEvent: ({ event }) => void ended.push(names.get(event.toolCallId) ?? "?"),
        onRunErrorEvent: () => void errors++,
        onRunFinishedEvent: () => void (finished = true),
      },
    );
    expect({ text, ended, errors, finished }).toEqual({
      text: "Checking. ",
      ended: ["get_weather"],
      errors: 1,
      finished: false,
    });
  });
});
