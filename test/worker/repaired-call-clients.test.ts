// A call whose arguments a provider ended short at a normal finish (`{"city":"Paris"` and then
// finish_reason tool_calls: a server that drops the closing brace) is repaired by the chain and
// handed over as complete: every client protocol then gives the arguments that the repair made,
// read by the real clients, never the provider's text that no client can parse (a Chat call, a
// Responses item `completed` with `{"city":"Paris"`, a Messages `input` that is a string). The
// protocols that only append get the rest as one more fragment.
import { HttpAgent } from "@ag-ui/client";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { chatChunk, FakeUpstream, openAIChunks, testEnv, weatherCall } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "k" });
const base = "http://localhost:8787";
const model = "openai/gpt-x";
const TOOL = { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } };
const question = "The weather in Paris?";
const PARIS = { city: "Paris" };

/** OpenAI Chat: text, then one call whose arguments lack their closing brace, then finish_reason tool_calls. */
const fetchOf = () =>
  workerFetch({
    env,
    upstream: new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([
        chatChunk({ role: "assistant", content: "Checking " }),
        weatherCall(0, "call_1", '{"city":"Paris"'),
        chatChunk({}, "tool_calls"),
      ]),
    }),
  });
const openai = () => new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch: fetchOf(), maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: base, apiKey: "t", fetch: fetchOf(), maxRetries: 0 });
const parsed = (text: string | undefined): unknown => JSON.parse(text ?? "null");

describe("a call the chain repaired (its closing brace missing at a normal finish), through each real client", () => {
  it("/v1/chat/completions (openai-node), streamed and not: arguments that parse to the repaired value", async () => {
    const request = {
      model,
      messages: [{ role: "user" as const, content: question }],
      tools: [{ type: "function" as const, function: TOOL }],
    };
    const streamed = await openai().chat.completions.stream(request).finalChatCompletion();
    const whole = await openai().chat.completions.create(request);
    for (const completion of [streamed, whole]) {
      const call = completion.choices[0]!.message.tool_calls![0]!;
      expect(call.type === "function" && parsed(call.function.arguments)).toEqual(PARIS);
      expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
    }
  });

  it("/v1/responses (openai-node): the item's arguments, at its done and in the final response, parse", async () => {
    const stream = openai().responses.stream({
      model,
      input: question,
      store: false,
      tools: [{ type: "function", strict: false, ...TOOL }],
    });
    const done: unknown[] = [];
    for await (const event of stream)
      if (event.type === "response.output_item.done" && event.item.type === "function_call")
        done.push(parsed(event.item.arguments));
    const final = (await stream.finalResponse()).output.flatMap((item) =>
      item.type === "function_call" ? [parsed(item.arguments)] : [],
    );
    expect({ done, final }).toEqual({ done: [PARIS], final: [PARIS] });
  });

  it("/v1/messages (@anthropic-ai/sdk), streamed and not: the tool_use input is the repaired object", async () => {
    const request = {
      model,
      max_tokens: 64,
      messages: [{ role: "user" as const, content: question }],
      tools: [{ name: TOOL.name, input_schema: TOOL.parameters as never }],
    };
    const streamed = await anthropic().messages.stream(request).finalMessage();
    const whole = await anthropic().messages.create(request);
    for (const message of [streamed, whole]) {
      expect(message.content.flatMap((block) => (block.type === "tool_use" ? [block.input] : []))).toEqual([PARIS]);
      expect(message.stop_reason).toBe("tool_use");
    }
  });

  it("/v1/ag-ui (@ag-ui/client's HttpAgent): the call's arguments parse", async () => {
    const agent = new HttpAgent({
      url: `${base}/v1/ag-ui`,
      threadId: "t1",
      headers: { authorization: "Bearer t" },
      fetch: fetchOf(),
    });
    agent.addMessage({ id: "m1", role: "user", content: question });
    await agent.runAgent({ runId: "r1", tools: [{ ...TOOL, description: "Weather." }], forwardedProps: { model } });
    const calls = agent.messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []));
    expect(calls.map((call) => parsed(call.function.arguments))).toEqual([PARIS]);
  });
});
