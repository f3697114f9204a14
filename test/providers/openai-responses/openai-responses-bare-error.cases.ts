// vLLM's and SGLang's Responses servers report a failure mid-stream as a bare `data: {"error": {...}}`
// (`create_streaming_error_response`: no `type`, no `response.failed` after it). It ends the stream
// there: a body held open after it is cancelled, the half call discarded. OpenAI's own `error` event
// (with `type`), which `response.failed` follows, still reads on to it.
import { assertEquals, group } from "../../support/harness.ts";
import { readHeldOpen } from "../../support/streams.ts";

const event = (type: string, fields: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
const HEAD = [
  event("response.output_item.added", {
    sequence_number: 1,
    output_index: 0,
    item: { id: "fc_1", type: "function_call", call_id: "call_1", name: "get_weather", arguments: "" },
  }),
  event("response.function_call_arguments.delta", {
    sequence_number: 2,
    output_index: 0,
    item_id: "fc_1",
    delta: '{"city":"Pa',
  }),
];
const VLLM_ERROR = 'data: {"error": {"message": "boom", "type": "BadRequestError", "param": null, "code": 400}}\n\n';

group("OpenAI Responses: a bare error payload", (test) => {
  test("vLLM's `{error}` ends the stream at once: provider-error, the half call discarded, the body cancelled", async () => {
    const { events, cancelled } = await readHeldOpen("openai-responses", [...HEAD, VLLM_ERROR]);
    assertEquals(
      events?.map((e) => (e.type === "abort" ? `abort ${e.reason} ${e.discarded.length}` : e.type)),
      ["tool-call-start", "tool-call-delta", "error", "abort provider-error 1"],
    );
    assertEquals(cancelled, "The response ended.");
  });

  test("OpenAI's `error` event is not the end: response.failed follows it", async () => {
    const { events } = await readHeldOpen("openai-responses", [
      ...HEAD,
      event("error", { sequence_number: 3, code: "server_error", message: "x" }),
    ]);
    assertEquals(events, undefined);
  });
});
