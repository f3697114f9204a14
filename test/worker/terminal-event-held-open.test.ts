// A provider's terminal event beyond test/worker/provider-end-open-body.test.ts's, then a body held
// open (a proxy that keeps the connection, a server whose worker hung after it reported), on every
// client route: the answer ends at the event, at once, in the route's success or error shape, with
// the text before it and none of the provider's own words, and the provider's body is cancelled.
// The shapes are the providers' own: OpenAI Responses' `response.incomplete`; each Bedrock
// ConverseStream exception; Cohere's error object in the stream. (OpenAI Responses' `error` event is
// not an end: OpenAI sends `response.failed` after it, which the recording
// ../shared/fixtures/openai-responses/error-event-then-response-failed reads to its finish.)
import { describe, expect, it } from "vitest";
import { converse, exceptionMessage } from "../support/event-stream.ts";
import { answerHeldOpen, HELD_OPEN_ROUTES } from "./held-open-routes.ts";

const sse = (event: string | undefined, data: unknown) =>
  `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
const SSE = "text/event-stream";
const SECRET = "proj_f4H0b30rYp2y52CGw64BafkL";

interface Case {
  label: string;
  model: string;
  contentType: string;
  text: string | Uint8Array;
  last: string | Uint8Array;
  ok: boolean;
}
const responsesText = sse("response.output_text.delta", {
  type: "response.output_text.delta",
  sequence_number: 1,
  output_index: 0,
  item_id: "msg_1",
  content_index: 0,
  delta: "Hello.",
});
const responses = (label: string, last: string, ok = false): Case => ({
  label: `OpenAI Responses: ${label}`,
  model: "openai-responses/gpt-x",
  contentType: SSE,
  text: responsesText,
  last,
  ok,
});
const bedrockText = converse([
  ["messageStart", { role: "assistant" }],
  ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hello." } }],
]);
const bedrock = (exception: string): Case => ({
  label: `Bedrock: ${exception}`,
  model: "bedrock/amazon.nova-micro-v1:0",
  contentType: "application/vnd.amazon.eventstream",
  text: bedrockText,
  last: exceptionMessage(exception, { message: `${exception} at ${SECRET}` }),
  ok: false,
});
const cohereText = sse("content-delta", {
  type: "content-delta",
  index: 0,
  delta: { message: { content: { text: "Hello." } } },
});

const cases: Case[] = [
  responses(
    "response.incomplete",
    sse("response.incomplete", {
      type: "response.incomplete",
      sequence_number: 2,
      response: {
        id: "resp_1",
        object: "response",
        status: "incomplete",
        incomplete_details: { reason: "max_output_tokens" },
        output: [],
      },
    }),
    true,
  ),
  ...["modelStreamErrorException", "validationException", "internalServerException", "serviceUnavailableException"].map(
    bedrock,
  ),
  {
    label: "Cohere: its error object in the stream",
    model: "cohere/command-x",
    contentType: SSE,
    text: cohereText,
    last: sse(undefined, { message: `internal server error at ${SECRET}` }),
    ok: false,
  },
];

describe.each(HELD_OPEN_ROUTES)("$label: a provider's terminal event, then its body held open", (route) => {
  it.each(cases)("$label", async (c) => {
    const { text, status, cancelled } = await answerHeldOpen(route, c.model, c.contentType, [c.text, c.last]);
    expect(text, "the answer ended").toBeDefined();
    expect(cancelled, "the provider's body cancelled").toBe(true);
    expect(text).toMatch(c.ok ? route.success : route.failure);
    if (c.ok) expect(text).not.toMatch(route.failure);
    // What came before the fault is delivered, streamed or whole (an unstreamed failure has no text).
    if (c.ok || status === 200) expect(text).toContain("Hello.");
    expect(text, "nothing of the provider's own internals").not.toContain(SECRET);
  });
});
