// OpenAI Chat's refusal (a `refusal` field part of the turn) through the client-protocol
// encoders: Chat Completions writes it as OpenAI does, in a delta's `refusal` (openai 6.49.0's
// `ChatCompletionChunk.Choice.Delta.refusal`) and as the completion's `message.refusal`; Responses
// as a message item's `refusal` content part (`ResponseOutputRefusal`, streamed as
// `response.refusal.delta` / `.done`), and OpenAI Responses' refusal the same; the other protocols
// have no refusal to put it in and show it as text, so their clients see what the model said.
// Every stream is read by the protocol's strict reader.
// The streams are test/providers/openai-chat/refusal-recordings.ts and
// test/providers/openai-responses/refusal-recordings.ts.
import { readOpenAIChatCompletion, readOpenAIResponse, streamToolCalls, type EncodableEvent } from "../../src/index.ts";
import { REFUSAL, refused } from "../providers/openai-chat/refusal-recordings.ts";
import { RESPONSES_REFUSAL, responsesRefused } from "../providers/openai-responses/refusal-recordings.ts";
import { readMessagesEvents, readResponsesEvents } from "../support/agent-protocol-readers.ts";
import { ENCODERS, encodeAll } from "../support/encoders.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { readAGUIEvents, readChatChunks, readUIChunks } from "../support/protocol-readers.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

const events = (): Promise<EncodableEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(refused)]), { provider: "openai" }));

group("OpenAI Chat's refusal through the client-protocol encoders", (test) => {
  test("Chat Completions: streamed in a delta's refusal, and the completion's message.refusal", async () => {
    const all = await events();
    const choice = readChatChunks(encodeAll(ENCODERS.openai(), all)).choices.get(0)!;
    assertEquals([choice.refusal, choice.content, choice.finishReason], [REFUSAL, "", "stop"]);
    const result = await readOpenAIChatCompletion(fromChunks(all), { model: "m", created: 1 });
    assert(result.type === "completion", "a completion");
    const message = result.completion.choices[0]?.message;
    assertEquals([message?.refusal, message?.content], [REFUSAL, ""]);
  });

  test("Responses: a message item of its own with the refusal content part, from Chat's and Responses' refusals", async () => {
    for (const [all, refusal] of [
      [await events(), REFUSAL],
      [
        await collect(streamToolCalls(fromChunks([bytes(responsesRefused)]), { provider: "openai-responses" })),
        RESPONSES_REFUSAL,
      ],
    ] as const) {
      const reading = readResponsesEvents(encodeAll(ENCODERS.responses(), all));
      assertEquals([reading.text, reading.refusal, reading.terminal], ["", refusal, "response.completed"]);
      const content = reading.items.map((item) => [item.type, item["content"]]);
      assertEquals(content, [["message", [{ type: "refusal", refusal }]]]);
      const result = await readOpenAIResponse(fromChunks(all), { model: "m" });
      assertEquals(
        result.response.output.map((item) => item.type === "message" && item.content),
        [[{ type: "refusal", refusal }]],
      );
    }
  });

  test("Messages, the AI SDK UI stream and AG-UI show it as text, once", async () => {
    const all = await events();
    const messages = readMessagesEvents(encodeAll(ENCODERS.anthropic(), all));
    assertEquals(messages.content, [{ type: "text", text: REFUSAL }]);
    assertEquals(readUIChunks(encodeAll(ENCODERS.ui(), all)).text, REFUSAL);
    const agui = readAGUIEvents(encodeAll(ENCODERS["ag-ui"](), all));
    assertEquals(
      agui.messages.map((message) => [message.role, message.content]),
      [["assistant", REFUSAL]],
    );
  });
});
