import {
  anthropicAssistantMessage,
  anthropicToolResultMessage,
  geminiFunctionResponseContent,
  geminiModelContent,
  openAIChatAssistantMessage,
  openAIChatToolMessages,
  responsesInputItems,
  responsesToolOutputs,
  streamToolCalls,
  type FinishEvent,
  type Provider,
} from "../../src/index.ts";
import { recording } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { collect, fromChunks } from "../support/streams.ts";

async function finishOf(provider: string, name: string, option: Provider): Promise<FinishEvent> {
  const fixture = recording(provider, name);
  const final = (await collect(streamToolCalls(fromChunks([fixture.body]), { provider: option }))).at(-1);
  assert(final?.type === "finish", "the recording finishes");
  return final;
}

group("Message helpers", (test) => {
  test("OpenAI Chat: tool_calls carry the arguments as the JSON string received; results are tool messages", async () => {
    const turn = await finishOf("openai", "chat-parallel-tool-calls-usage", "openai");
    const message = openAIChatAssistantMessage(turn);
    const calls = message["tool_calls"] as {
      id: string;
      type: string;
      function: { name: string; arguments: string };
    }[];
    assertEquals(
      calls.map((c) => [c.id, c.type, c.function.name]),
      turn.toolCalls.map((c) => [c.id, "function", c.name]),
    );
    assertEquals(
      calls.map((c) => JSON.parse(c.function.arguments)),
      turn.toolCalls.map((c) => c.arguments),
    );
    assertEquals(message["content"], null);
    assertEquals(openAIChatToolMessages([{ call: turn.toolCalls[0]!, output: { temp: 12 } }]), [
      { role: "tool", tool_call_id: turn.toolCalls[0]!.id, content: '{"temp":12}' },
    ]);
  }).needs("recordings");

  test("Anthropic: tool_use blocks with input objects after the text; results as one user message", async () => {
    const turn = await finishOf("anthropic", "text-then-tool-use-with-ping", "anthropic");
    const message = anthropicAssistantMessage(turn);
    const content = message["content"] as Record<string, unknown>[];
    assertEquals(content[0], { type: "text", text: turn.text });
    assertEquals(
      content.slice(1),
      turn.toolCalls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.arguments })),
    );
    assertEquals(anthropicToolResultMessage([{ call: turn.toolCalls[0]!, output: "boom", isError: true }]), {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: turn.toolCalls[0]!.id, content: "boom", is_error: true }],
    });
  }).needs("recordings");

  test("Gemini: functionCall parts keep their thought signature; responses are objects", async () => {
    const turn = await finishOf("gemini", "function-call-gemini-3-thought-signature", "gemini");
    const parts = geminiModelContent(turn)["parts"] as Record<string, unknown>[];
    const call = parts.find((p) => "functionCall" in p)!;
    assert(
      typeof call["thoughtSignature"] === "string" && (call["thoughtSignature"] as string).length > 0,
      "thoughtSignature sent back",
    );
    assertEquals((call["functionCall"] as { args: unknown }).args, turn.toolCalls[0]!.arguments);
    assertEquals(geminiFunctionResponseContent([{ call: turn.toolCalls[0]!, output: "sunny" }]), {
      role: "user",
      parts: [{ functionResponse: { name: turn.toolCalls[0]!.name, response: { result: "sunny" } } }],
    });
  }).needs("recordings");

  test("Responses: function_call items use the call_id; outputs are function_call_output items", async () => {
    const turn = await finishOf("openai-responses", "parallel-function-calls", "openai-responses");
    const items = responsesInputItems(turn);
    assertEquals(
      items.map((i) => [i["type"], i["call_id"]]),
      turn.toolCalls.map((c) => ["function_call", c.id]),
    );
    assertEquals(responsesToolOutputs([{ call: turn.toolCalls[0]!, output: ["a"] }]), [
      { type: "function_call_output", call_id: turn.toolCalls[0]!.id, output: '["a"]' },
    ]);
  }).needs("recordings");

  test("calls the provider ran itself are left out of the next request", () => {
    const turn = {
      toolCalls: [
        {
          index: 0,
          id: "srvtoolu_1",
          name: "web_search",
          arguments: {},
          rawArguments: "{}",
          providerExecuted: true as const,
        },
      ],
    };
    assertEquals(anthropicAssistantMessage(turn), { role: "assistant", content: [] });
  });
});
