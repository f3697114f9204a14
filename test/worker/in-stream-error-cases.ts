// Each provider's failure inside its stream, in the shape its documentation gives (its error
// codes, types, statuses, exception names, or wording where it has no code), after a first piece
// of text, in its own framing: the input of in-stream-error-kinds.test.ts (with the quota and
// rate-limit waits of in-stream-limit-cases.ts, built from the same pieces). Every message quotes a
// secret the Worker must never pass on.
import type { ProviderErrorKind } from "../../src/index.ts";
import { concat, converse, exceptionMessage } from "../support/event-stream.ts";

/** What every provider message carries: it must reach no client. */
export const SECRET = "sk-live-SECRET0123 at host-17.corp";

/** One provider's in-stream failure and the kind it is. */
export interface ErrorCase {
  provider: string;
  /** The client's model, `provider/model`. */
  model: string;
  /** What the failure is, as the provider documents it. */
  label: string;
  kind: ProviderErrorKind;
  /** The overflow's numbers (prompt tokens, window) where the provider gave them. */
  counts?: [number, number];
  /** A rate limit the provider says is one of tokens (OpenAI's 429 type); else `requests`. */
  limit?: "tokens";
  /** The wait, in seconds, a rate limit named (clients read it in the message, as Codex parses it). */
  wait?: number;
  contentType: string;
  chunks: (string | Uint8Array)[];
}

export const SSE = "text/event-stream";
export const sse = (event: string | undefined, data: unknown) =>
  `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;

export const anthropic = (
  label: string,
  kind: ProviderErrorKind,
  type: string,
  message: string,
  counts?: [number, number],
): ErrorCase => ({
  provider: "anthropic",
  model: "anthropic/claude-x",
  label: `Anthropic ${label}`,
  kind,
  ...(counts ? { counts } : {}),
  contentType: SSE,
  chunks: [
    sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } }),
    sse("error", { type: "error", error: { type, message: `${message} ${SECRET}` } }),
  ],
});

const chatText = sse(undefined, {
  id: "c1",
  object: "chat.completion.chunk",
  model: "m",
  choices: [{ index: 0, delta: { role: "assistant", content: "Hel" }, finish_reason: null }],
});
export const chat = (
  label: string,
  kind: ProviderErrorKind,
  failure: string,
  counts?: [number, number],
): ErrorCase => ({
  provider: "openai",
  model: "openai/gpt-x",
  label,
  kind,
  ...(counts ? { counts } : {}),
  contentType: SSE,
  chunks: [chatText, failure, "data: [DONE]\n\n"],
});

export const responsesCreated = sse("response.created", {
  type: "response.created",
  sequence_number: 0,
  response: { id: "resp_1", object: "response", status: "in_progress", output: [] },
});
export const responsesFailed = (code: string, kind: ProviderErrorKind, message = "Failed"): ErrorCase => ({
  provider: "openai-responses",
  model: "openai-responses/gpt-x",
  label: `OpenAI Responses response.failed ${code}`,
  kind,
  contentType: SSE,
  chunks: [
    responsesCreated,
    sse("response.failed", {
      type: "response.failed",
      sequence_number: 1,
      response: {
        id: "resp_1",
        object: "response",
        status: "failed",
        output: [],
        error: { code, message: `${message} ${SECRET}` },
      },
    }),
  ],
});

export const gemini = (
  status: string,
  code: number,
  message: string,
  kind: ProviderErrorKind,
  counts?: [number, number],
): ErrorCase => ({
  provider: "gemini",
  model: "gemini/gemini-x",
  label: `Gemini ${code} ${status}`,
  kind,
  ...(counts ? { counts } : {}),
  contentType: SSE,
  chunks: [
    sse(undefined, { candidates: [{ content: { role: "model", parts: [{ text: "Hel" }] }, index: 0 }] }),
    sse(undefined, { error: { code, message: `${message} ${SECRET}`, status } }),
  ],
});

const interactions = (code: string, message: string, kind: ProviderErrorKind): ErrorCase => ({
  provider: "gemini-interactions",
  model: "gemini-interactions/gemini-x",
  label: `Gemini Interactions error event ${code}`,
  kind,
  contentType: SSE,
  chunks: [sse(undefined, { event_type: "error", error: { code, message: `${message} ${SECRET}` } })],
});

export const bedrock = (exception: string, detail: Record<string, unknown>, kind: ProviderErrorKind): ErrorCase => ({
  provider: "bedrock",
  model: "bedrock/amazon.nova-micro-v1:0",
  label: `Bedrock ${exception}${detail["originalStatusCode"] ? ` (${detail["originalStatusCode"]})` : ""}`,
  kind,
  contentType: "application/vnd.amazon.eventstream",
  chunks: [
    concat([
      converse([
        ["messageStart", { role: "assistant" }],
        ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hel" } }],
      ]),
      exceptionMessage(exception, { ...detail, message: `${String(detail["message"])} ${SECRET}` }),
    ]),
  ],
});

const cohere = (label: string, error: string, kind: ProviderErrorKind, counts?: [number, number]): ErrorCase => ({
  provider: "cohere",
  model: "cohere/command-x",
  label: `Cohere message-end error: ${label}`,
  kind,
  ...(counts ? { counts } : {}),
  contentType: SSE,
  chunks: [
    sse("content-delta", { type: "content-delta", index: 0, delta: { message: { content: { text: "Hel" } } } }),
    sse("message-end", { type: "message-end", delta: { finish_reason: "ERROR", error: `${error} ${SECRET}` } }),
  ],
});

const ollama = (error: string, kind: ProviderErrorKind): ErrorCase => ({
  provider: "ollama",
  model: "ollama/llama-x",
  label: `Ollama error line "${error.slice(0, 24)}..."`,
  kind,
  contentType: "application/x-ndjson",
  chunks: [
    `${JSON.stringify({ model: "llama-x", message: { role: "assistant", content: "Hel" }, done: false })}\n`,
    `${JSON.stringify({ error: `${error} ${SECRET}` })}\n`,
  ],
});

/** Every case, by provider. */
export const errorCases: ErrorCase[] = [
  anthropic("overloaded_error", "overloaded", "overloaded_error", "Overloaded"),
  {
    ...anthropic(
      "rate_limit_error",
      "rate-limited",
      "rate_limit_error",
      "Number of request tokens has exceeded your rate limit.",
    ),
    limit: "tokens",
  },
  anthropic(
    "prompt is too long",
    "context-overflow",
    "invalid_request_error",
    "prompt is too long: 210000 tokens > 200000 maximum",
    [210000, 200000],
  ),
  anthropic("api_error", "other", "api_error", "Internal server error"),
  // Groq: `event: error` with OpenAI's error object.
  {
    ...chat(
      "Groq event: error rate_limit_exceeded",
      "rate-limited",
      sse("error", {
        error: { message: `Rate limit reached for model ${SECRET}`, type: "tokens", code: "rate_limit_exceeded" },
      }),
    ),
    limit: "tokens",
  },
  // vLLM: an error object with the HTTP status as its code, OpenAI's overflow wording.
  chat(
    "vLLM error object (code 400), maximum context length",
    "context-overflow",
    sse(undefined, {
      error: {
        object: "error",
        message: `This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). ${SECRET}`,
        type: "BadRequestError",
        param: null,
        code: 400,
      },
    }),
    [5000, 4096],
  ),
  // OpenRouter: `error` next to `choices`, its code the HTTP status (503: no provider available to serve it).
  chat(
    "OpenRouter error (code 503)",
    "overloaded",
    sse(undefined, {
      id: "c1",
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
      error: { code: 503, message: `No provider available ${SECRET}` },
    }),
  ),
  // DeepSeek and other OpenAI-compatible servers: `server_error` worded as an overload.
  chat(
    "DeepSeek-style server_error, overloaded",
    "overloaded",
    sse(undefined, {
      error: { message: `The server is overloaded, please try again later. ${SECRET}`, type: "server_error" },
    }),
  ),
  chat(
    "OpenRouter error (code 502)",
    "other",
    sse(undefined, { error: { code: 502, message: `Upstream error ${SECRET}` } }),
  ),
  responsesFailed("rate_limit_exceeded", "rate-limited"),
  responsesFailed("server_is_overloaded", "overloaded"),
  responsesFailed("context_length_exceeded", "context-overflow"),
  responsesFailed("server_error", "other"),
  gemini("UNAVAILABLE", 503, "The model is overloaded. Please try again later.", "overloaded"),
  gemini("RESOURCE_EXHAUSTED", 429, "Resource has been exhausted (e.g. check quota).", "rate-limited"),
  gemini(
    "INVALID_ARGUMENT",
    400,
    "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
    "context-overflow",
    [1200000, 1048576],
  ),
  gemini("INTERNAL", 500, "An internal error has occurred.", "other"),
  interactions("resource_exhausted", "Quota exceeded.", "rate-limited"),
  interactions("unavailable", "The service is currently unavailable.", "overloaded"),
  bedrock("throttlingException", { message: "Too many requests, please wait before trying again." }, "rate-limited"),
  {
    ...bedrock("throttlingException", { message: "Too many tokens, please wait before trying again." }, "rate-limited"),
    label: "Bedrock throttlingException, too many tokens",
    limit: "tokens",
  },
  bedrock("serviceUnavailableException", { message: "The service is unavailable." }, "overloaded"),
  bedrock(
    "modelStreamErrorException",
    { message: "The model failed.", originalStatusCode: 529, originalMessage: "Overloaded" },
    "overloaded",
  ),
  bedrock(
    "modelStreamErrorException",
    { message: "The model failed.", originalStatusCode: 429, originalMessage: "Too many requests" },
    "rate-limited",
  ),
  // A model's stream that broke with its own 400 (Nova's "invalid sequence as part of ToolUse"): AWS
  // documents the exception as "Retry your request", and a retry does cure it; no request at fault.
  bedrock(
    "modelStreamErrorException",
    {
      message: "The model failed.",
      originalStatusCode: 400,
      originalMessage: "Model produced invalid sequence as part of ToolUse.",
    },
    "other",
  ),
  bedrock("validationException", { message: "Input is too long for requested model." }, "context-overflow"),
  bedrock("internalServerException", { message: "Internal failure." }, "other"),
  cohere(
    "per minute request limit",
    "You are past the per minute request limit, please wait and try again later.",
    "rate-limited",
  ),
  cohere(
    "too many tokens",
    "too many tokens: total number of tokens in the prompt cannot exceed 4081 - received 5000.",
    "context-overflow",
    [5000, 4081],
  ),
  ollama("server busy, please try again.  maximum pending requests exceeded", "overloaded"),
  ollama("the input length exceeds the context length", "context-overflow"),
  ollama("an error was encountered while running the model", "other"),
];
