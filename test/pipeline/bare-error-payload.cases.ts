// A payload that names no event type but holds an `error` is the provider's error in every
// protocol: an HTTP 200 whose body is a JSON error (a gateway's, a proxy's, Google's own shape
// for the Interactions API) or a gateway's `data: {"error": ...}` in the middle of a stream. The
// Chat, Gemini and Ollama decoders read it; the others gave no error at all, so the stream ended
// with an `abort` alone and the provider's message was lost.
import { streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

const openAIError = { error: { message: "Upstream timed out.", type: "server_error", code: "timeout" } };
const googleError = { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } };

/** The events' types and what matters: each error's code and data, the abort's reason and discarded ids. */
function outline(events: ToolCallEvent[]): unknown[] {
  return events.flatMap((event) => {
    if (event.type === "tool-call") return [["call", event.id]];
    // The data as a client reads it, serialized (a key left undefined is no key).
    if (event.type === "error") return [["error", event.error.code, JSON.parse(JSON.stringify(event.error.data))]];
    if (event.type === "abort") return [["abort", event.reason, event.discarded.map((call) => call.id)]];
    return [];
  });
}

const read = async (body: string, provider: string, contentType = "text/event-stream"): Promise<unknown[]> =>
  outline(
    await collect(
      streamToolCalls(new Response(fromChunks([bytes(body)]), { headers: { "content-type": contentType } }), {
        provider: provider as "anthropic",
      }),
    ),
  );

const sse = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;

/** Each protocol's stream: a call that completes, then one left open. */
const streams: Record<string, string> = {
  "openai-responses": [
    {
      type: "response.output_item.added",
      sequence_number: 0,
      output_index: 0,
      item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", arguments: "" },
    },
    {
      type: "response.function_call_arguments.done",
      sequence_number: 1,
      output_index: 0,
      item_id: "fc_1",
      arguments: "{}",
    },
    {
      type: "response.output_item.added",
      sequence_number: 2,
      output_index: 1,
      item: { type: "function_call", id: "fc_2", call_id: "call_2", name: "f", arguments: "" },
    },
    {
      type: "response.function_call_arguments.delta",
      sequence_number: 3,
      output_index: 1,
      item_id: "fc_2",
      delta: '{"a":',
    },
  ]
    .map(sse)
    .join(""),
  anthropic: [
    { type: "message_start", message: { id: "msg_1", content: [], usage: { input_tokens: 1, output_tokens: 1 } } },
    { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "call_1", name: "f", input: {} } },
    { type: "content_block_stop", index: 0 },
    { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "call_2", name: "f", input: {} } },
    { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"a":' } },
  ]
    .map(sse)
    .join(""),
  cohere: [
    { type: "message-start", id: "m_1", delta: { message: { role: "assistant" } } },
    {
      type: "tool-call-start",
      index: 0,
      delta: { message: { tool_calls: { id: "call_1", type: "function", function: { name: "f", arguments: "{}" } } } },
    },
    { type: "tool-call-end", index: 0 },
    {
      type: "tool-call-start",
      index: 1,
      delta: {
        message: { tool_calls: { id: "call_2", type: "function", function: { name: "f", arguments: '{"a":' } } },
      },
    },
  ]
    .map(sse)
    .join(""),
  "gemini-interactions": [
    { event_type: "interaction.created", interaction: { id: "i_1", status: "in_progress" } },
    { event_type: "step.start", index: 0, step: { type: "function_call", id: "call_1", name: "f", arguments: {} } },
    { event_type: "step.stop", index: 0 },
    { event_type: "step.start", index: 1, step: { type: "function_call", id: "call_2", name: "f" } },
    { event_type: "step.delta", index: 1, delta: { type: "arguments_delta", partial_arguments: '{"a":' } },
  ]
    .map(sse)
    .join(""),
};

group("A payload of no event type holding an error is the provider's error in every protocol", (test) => {
  for (const [provider, stream] of Object.entries(streams)) {
    test(`${provider}: an HTTP 200 whose body is a JSON error gives a provider-error, not an abort alone`, async () => {
      for (const body of [openAIError, googleError])
        assertEquals(await read(JSON.stringify(body), provider, "application/json"), [
          ["error", "provider-error", body],
          ["abort", "provider-error", []],
        ]);
    });
    test(`${provider}: a gateway's data: {"error": ...} after a complete call and inside an open one`, async () => {
      assertEquals(await read(stream + sse(openAIError), provider), [
        ["call", "call_1"],
        ["error", "provider-error", openAIError],
        ["abort", "provider-error", ["call_2"]],
      ]);
    });
  }
});
