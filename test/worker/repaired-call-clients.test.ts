// Calls whose arguments text no client could parse as the provider sent it, but which the chain
// completes: every client protocol must give the arguments the chain made, read by the real
// clients, never the provider's text (a Chat call, a Responses item `completed` with it, a Messages
// `input` that is a string). The protocols that only append get the rest as one more fragment.
// - Repaired: a value a provider ended short at a normal finish (`{"city":"Paris"` and then
//   finish_reason tool_calls: a server that drops the closing brace) is closed.
// - No arguments: Anthropic's call of a tool without parameters (the recorded tool-use-no-args:
//   `input: {}` at the block's start, then one `input_json_delta` of `""`) is `{}`, as OpenAI writes
//   one; `""` is no JSON (openai-node's `runTools`, Codex's serde and open-webui, issue 23778 for
//   Claude on Bedrock, fail with "EOF while parsing").
import { HttpAgent } from "@ag-ui/client";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { recording, recordingsAvailable } from "../support/fixtures.ts";
import { workerFetch } from "./client-support.ts";
import { chatChunk, FakeUpstream, openAIChunks, testEnv, weatherCall } from "./support.ts";

const base = "http://localhost:8787";
const parsed = (text: string | undefined): unknown => JSON.parse(text ?? "null");

/** The call's arguments a Responses stream gives (openai-node): at `.done` and the item's done, and in the final response. */
async function responsesArguments(
  client: OpenAI,
  model: string,
  input: string,
  tool: { name: string; parameters: Record<string, unknown> },
): Promise<{ done: unknown[]; final: unknown[] }> {
  const stream = client.responses.stream({
    model,
    input,
    store: false,
    tools: [{ type: "function", strict: false, ...tool }],
  });
  const done: unknown[] = [];
  for await (const event of stream)
    if (event.type === "response.function_call_arguments.done") done.push(parsed(event.arguments));
    else if (event.type === "response.output_item.done" && event.item.type === "function_call")
      done.push(parsed(event.item.arguments));
  const final = (await stream.finalResponse()).output.flatMap((item) =>
    item.type === "function_call" ? [parsed(item.arguments)] : [],
  );
  return { done, final };
}

const CASES = [
  {
    what: "a call the chain repaired (its closing brace missing at a normal finish)",
    skip: false,
    model: "openai/gpt-x",
    env: testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "k" }),
    /** OpenAI Chat: text, then one call whose arguments lack their closing brace, then finish_reason tool_calls. */
    chunks: () =>
      openAIChunks([
        chatChunk({ role: "assistant", content: "Checking " }),
        weatherCall(0, "call_1", '{"city":"Paris"'),
        chatChunk({}, "tool_calls"),
      ]),
    tool: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
    question: "The weather in Paris?",
    input: { city: "Paris" },
  },
  {
    what: "a call without arguments (Anthropic's recorded tool-use-no-args)",
    skip: !recordingsAvailable,
    model: "anthropic/claude-x",
    env: testEnv({ CLIENT_TOKEN: "t", ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1" }),
    chunks: () => [recording("anthropic", "tool-use-no-args").text],
    tool: { name: "updateIssueList", parameters: { type: "object", properties: {} } },
    question: "Update the issue list.",
    input: {},
  },
];

for (const { what, skip, model, env, chunks, tool, question, input } of CASES) {
  const fetchOf = () => workerFetch({ env, upstream: new FakeUpstream({ kind: "sse", chunks: chunks() }) });
  const openai = () => new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch: fetchOf(), maxRetries: 0 });
  const anthropic = () => new Anthropic({ baseURL: base, apiKey: "t", fetch: fetchOf(), maxRetries: 0 });

  describe.skipIf(skip)(`${what}, through each real client`, () => {
    it("/v1/chat/completions (openai-node), streamed and not: arguments that parse to the chain's", async () => {
      const request = {
        model,
        messages: [{ role: "user" as const, content: question }],
        tools: [{ type: "function" as const, function: tool }],
      };
      const streamed = await openai().chat.completions.stream(request).finalChatCompletion();
      const whole = await openai().chat.completions.create(request);
      for (const completion of [streamed, whole]) {
        const call = completion.choices[0]!.message.tool_calls![0]!;
        expect(call.type === "function" && parsed(call.function.arguments)).toEqual(input);
        expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
      }
    });

    it("/v1/responses (openai-node): the item's arguments, at their done, its done and in the final response, parse", async () => {
      expect(await responsesArguments(openai(), model, question, tool)).toEqual({
        done: [input, input],
        final: [input],
      });
    });

    it("/v1/messages (@anthropic-ai/sdk), streamed and not: the tool_use input is the chain's object", async () => {
      const request = {
        model,
        max_tokens: 64,
        messages: [{ role: "user" as const, content: question }],
        tools: [{ name: tool.name, input_schema: tool.parameters as never }],
      };
      const streamed = await anthropic().messages.stream(request).finalMessage();
      const whole = await anthropic().messages.create(request);
      for (const message of [streamed, whole]) {
        expect(message.content.flatMap((block) => (block.type === "tool_use" ? [block.input] : []))).toEqual([input]);
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
      await agent.runAgent({ runId: "r1", tools: [{ ...tool, description: "A tool." }], forwardedProps: { model } });
      const calls = agent.messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []));
      expect(calls.map((call) => parsed(call.function.arguments))).toEqual([input]);
    });
  });
}

// A value cut where no closing makes it the repaired one (`{"city":"Paris","un`, a key cut short) cannot
// be mended by what a stream appends; the protocols whose answer carries the whole text at the end carry the repair.
describe("a call the chain repaired that no closing mends (cut inside a key), through the clients that take the whole text", () => {
  const { model, env, tool, question } = CASES[0]!;
  const fetchOf = () =>
    workerFetch({
      env,
      upstream: new FakeUpstream({
        kind: "sse",
        chunks: openAIChunks([weatherCall(0, "call_1", '{"city":"Paris","un'), chatChunk({}, "tool_calls")]),
      }),
    });
  const openai = () => new OpenAI({ baseURL: `${base}/v1`, apiKey: "t", fetch: fetchOf(), maxRetries: 0 });

  it("/v1/chat/completions (openai-node) not streamed: the message's arguments are the repaired value", async () => {
    const completion = await openai().chat.completions.create({
      model,
      messages: [{ role: "user", content: question }],
      tools: [{ type: "function", function: tool }],
    });
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(call.type === "function" && parsed(call.function.arguments)).toMatchObject({ city: "Paris" });
  });

  it("/v1/responses (openai-node): the arguments' done, the item's done and the final response carry the repaired value", async () => {
    const { done, final } = await responsesArguments(openai(), model, question, tool);
    expect(done).toHaveLength(2);
    expect([...done, ...final]).toEqual([final[0], final[0], final[0]]);
    expect(final[0]).toMatchObject({ city: "Paris" });
  });
});
