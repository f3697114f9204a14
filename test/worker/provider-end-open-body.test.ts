// A provider whose body stays open after its own end of the response (`[DONE]`, `message_stop`,
// `response.completed`, Bedrock's `metadata`, Cohere's `message-end`, Ollama's `done: true`) or
// after its in-stream error that ends the stream (Anthropic's `event: error`, OpenAI Responses'
// `response.failed`, a Bedrock exception message, Gemini's error object, Cohere's `message-end` of
// ERROR, Ollama's `{"error": ...}` line, an OpenAI-compatible error chunk) is not waited on: the
// answer ends there, in the protocol's success or error, and the provider's body is cancelled, with
// no clock of the provider's run out (only the batch window's timers fire here). Gemini has no end
// event: its chunk with `finishReason` and the usage is its end.
// Before, /v1/stream, /v1/ui, /v1/run and AG-UI's success waited for the idle timeout (120 s)
// with the finish already sent, and a run's next step waited behind it. Every route: the agent
// protocols' too (test/worker/held-open-routes.ts).
import { describe, expect, it } from "vitest";
import { converse, exceptionMessage } from "../support/event-stream.ts";
import { answerHeldOpen, HELD_OPEN_ROUTES } from "./held-open-routes.ts";

const sse = (event: string | undefined, data: unknown) =>
  `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const SSE = "text/event-stream";

/** One provider's text, then its end of the response or its in-stream error; its body then stays open. */
interface Case {
  provider: string;
  model: string;
  contentType: string;
  text: string | Uint8Array;
  end?: string | Uint8Array;
  error?: string | Uint8Array;
}
/** OpenAI Responses' text delta, for the two Responses servers' cases. */
const RESPONSES_TEXT = sse("response.output_text.delta", {
  type: "response.output_text.delta",
  output_index: 0,
  item_id: "msg_1",
  content_index: 0,
  delta: "Hello.",
});
const cases: Case[] = [
  {
    provider: "OpenAI Chat",
    model: "openai/gpt-x",
    contentType: SSE,
    text: sse(undefined, { choices: [{ index: 0, delta: { content: "Hello." }, finish_reason: null }] }),
    end: `${sse(undefined, { choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}data: [DONE]\n\n`,
    // vLLM's (and LiteLLM's proxy's) error chunk; test/worker/error-chunk-held-open.test.ts has the other servers'.
    error: sse(undefined, {
      error: { message: "The engine died.", type: "InternalServerError", param: null, code: 500 },
    }),
  },
  {
    provider: "OpenAI Responses",
    model: "openai-responses/gpt-x",
    contentType: SSE,
    text: RESPONSES_TEXT,
    end: sse("response.completed", {
      type: "response.completed",
      response: { id: "resp_1", object: "response", status: "completed", output: [] },
    }),
    error: sse("response.failed", {
      type: "response.failed",
      response: { id: "resp_1", status: "failed", output: [], error: { code: "server_error", message: "Failed" } },
    }),
  },
  {
    // vLLM's and SGLang's Responses error: a bare `{"error": ...}`, no `type`, no `response.failed` after it.
    provider: "OpenAI Responses (vLLM)",
    model: "openai-responses/gpt-x",
    contentType: SSE,
    text: RESPONSES_TEXT,
    error: sse(undefined, { error: { message: "boom", type: "BadRequestError", param: null, code: 400 } }),
  },
  {
    provider: "Anthropic",
    model: "anthropic/claude-x",
    contentType: SSE,
    text:
      sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) +
      sse("content_block_delta", {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: "Hello." },
      }),
    end:
      sse("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }) +
      sse("message_stop", { type: "message_stop" }),
    error: sse("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
  },
  {
    provider: "Gemini",
    model: "gemini/gemini-x",
    contentType: SSE,
    text: sse(undefined, { candidates: [{ content: { role: "model", parts: [{ text: "Hello." }] }, index: 0 }] }),
    // No end event of its own: the last chunk has the finish and the usage (every recording's does).
    end: sse(undefined, {
      candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 2, totalTokenCount: 3 },
    }),
    error: sse(undefined, { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } }),
  },
  {
    provider: "Bedrock",
    model: "bedrock/amazon.nova-micro-v1:0",
    contentType: "application/vnd.amazon.eventstream",
    text: converse([
      ["messageStart", { role: "assistant" }],
      ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hello." } }],
    ]),
    end: converse([
      ["contentBlockStop", { contentBlockIndex: 0 }],
      ["messageStop", { stopReason: "end_turn" }],
      ["metadata", { usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 }, metrics: { latencyMs: 1 } }],
    ]),
    error: exceptionMessage("throttlingException", { message: "Too many requests, please wait." }),
  },
  {
    provider: "Cohere",
    model: "cohere/command-x",
    contentType: SSE,
    text: sse("content-delta", {
      type: "content-delta",
      index: 0,
      delta: { message: { content: { text: "Hello." } } },
    }),
    end: sse("message-end", { type: "message-end", delta: { finish_reason: "COMPLETE" } }),
    error: sse("message-end", { type: "message-end", delta: { finish_reason: "ERROR", error: "internal error" } }),
  },
  {
    provider: "Ollama",
    model: "ollama/llama-x",
    contentType: "application/x-ndjson",
    text: line({ model: "l", message: { role: "assistant", content: "Hello." }, done: false }),
    end: line({ model: "l", message: { role: "assistant", content: "" }, done: true, done_reason: "stop" }),
    error: line({ error: "server busy, please try again." }),
  },
];

describe.each(HELD_OPEN_ROUTES)("$label over a provider whose body stays open after its end", (route) => {
  it.each(cases.filter((c) => c.end !== undefined))("$provider: the answer ends in success", async (c) => {
    const { text, cancelled } = await answerHeldOpen(route, c.model, c.contentType, [c.text, c.end!]);
    expect(text, "the answer ended").toBeDefined();
    expect(text).toContain("Hello.");
    expect(text).toMatch(route.success);
    expect(text).not.toMatch(route.failure);
    expect(cancelled, "the provider's body cancelled").toBe(true);
  });

  it.each(cases.filter((c) => c.error !== undefined))(
    "$provider: its in-stream error ends the answer in the protocol's error",
    async (c) => {
      const { text, status, cancelled } = await answerHeldOpen(route, c.model, c.contentType, [c.text, c.error!]);
      expect(text, "the answer ended").toBeDefined();
      // What came before it, streamed (a whole Chat answer that failed has no text).
      if (status === 200) expect(text).toContain("Hello.");
      expect(text).toMatch(route.failure);
      expect(cancelled, "the provider's body cancelled").toBe(true);
    },
  );
});
