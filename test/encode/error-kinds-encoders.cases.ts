// A provider error's `kind` (ProviderErrorKind, set by the application that classified the
// provider's payload) through every client-protocol encoder, streamed and whole, each stream read
// by its protocol's strict reader: Messages writes Anthropic's error type (and Claude Code's
// "prompt is too long" for an overflow), Chat Completions and Responses OpenAI's code (and `param`
// for an overflow; a Responses overload `server_error`, which Codex retries), AG-UI the kind as
// RUN_ERROR's code; without a kind, or `other`, every
// protocol writes what it wrote before, and of a provider's payload on `data` only the name an
// Anthropic or OpenAI payload gives itself is read (a provider piped into its own protocol).
import {
  type EncodableEvent,
  type ProviderErrorKind,
  readAnthropicMessage,
  readOpenAIChatCompletion,
  readOpenAIResponse,
} from "../../src/index.ts";
import { readMessagesEvents, readResponsesEvents } from "../support/agent-protocol-readers.ts";
import { ENCODERS, encodeAll } from "../support/encoders.ts";
import { assertEquals, group } from "../support/harness.ts";
import { readAGUIEvents, readChatChunks, readUIChunks } from "../support/protocol-readers.ts";
import { fromChunks } from "../support/streams.ts";

const MESSAGE = "The provider is overloaded; retry after a pause.";
const failed = (kind: ProviderErrorKind | undefined, data?: unknown): EncodableEvent[] => [
  { type: "text-delta", text: "Hel" },
  {
    type: "error",
    error: {
      code: "provider-error",
      message: MESSAGE,
      ...(kind === undefined ? {} : { kind }),
      ...(data === undefined ? {} : { data }),
    },
  },
  { type: "abort", reason: "provider-error", discarded: [] },
];

/** What each protocol writes for each kind: Chat's [code, type, param], Messages' type, Responses' [code, type, param], AG-UI's code. */
const EXPECTED: [
  ProviderErrorKind | undefined,
  [string, string, string | null],
  string,
  [string, string, string | null],
  string,
][] = [
  [
    "overloaded",
    // Responses: `server_error`, which Codex retries (it ends its turn on `server_is_overloaded`).
    ["server_is_overloaded", "server_error", null],
    "overloaded_error",
    ["server_error", "server_error", null],
    "overloaded",
  ],
  [
    "quota-exceeded",
    // OpenAI's own 429 body; Anthropic's 402's type; Codex stops on `insufficient_quota`.
    ["insufficient_quota", "insufficient_quota", null],
    "billing_error",
    ["insufficient_quota", "insufficient_quota", null],
    "quota-exceeded",
  ],
  [
    "rate-limited",
    // OpenAI's own 429: code rate_limit_exceeded, type the limit hit (`requests` or `tokens`).
    ["rate_limit_exceeded", "requests", null],
    "rate_limit_error",
    ["rate_limit_exceeded", "too_many_requests", null],
    "rate-limited",
  ],
  [
    "context-overflow",
    ["context_length_exceeded", "invalid_request_error", "messages"],
    "invalid_request_error",
    ["context_length_exceeded", "invalid_request_error", "input"],
    "context-overflow",
  ],
  [
    "invalid-request",
    // OpenAI's code of a prompt it refused (Codex shows it and stops), a request at fault's type.
    ["invalid_prompt", "invalid_request_error", null],
    "invalid_request_error",
    ["invalid_prompt", "invalid_request_error", null],
    "invalid-request",
  ],
  [
    "other",
    ["provider-error", "server_error", null],
    "api_error",
    ["provider-error", "model_error", null],
    "provider-error",
  ],
  [
    undefined,
    ["provider-error", "server_error", null],
    "api_error",
    ["provider-error", "model_error", null],
    "provider-error",
  ],
];

group("a provider error's kind through the client-protocol encoders", (test) => {
  for (const [kind, chat, messages, responses, agui] of EXPECTED) {
    test(`${kind ?? "no kind"}: each protocol's own form, streamed and whole`, async () => {
      const events = failed(kind);
      const chunk = readChatChunks(encodeAll(ENCODERS.openai(), events)).error!;
      assertEquals([chunk["code"], chunk["type"], chunk["param"], chunk["message"]], [...chat, MESSAGE]);
      const completion = await readOpenAIChatCompletion(fromChunks(events), { model: "m", created: 1 });
      assertEquals(completion.type === "error" ? completion.error.code : completion.type, chat[0]);

      const error = readMessagesEvents(encodeAll(ENCODERS.anthropic(), events)).error!;
      assertEquals(error.type, messages);
      // Claude Code matches "prompt is too long" at the start; the others are the library's message
      // alone, not its internal code.
      assertEquals(error.message, kind === "context-overflow" ? `prompt is too long: ${MESSAGE}` : MESSAGE);
      const message = await readAnthropicMessage(fromChunks(events), { model: "m" });
      assertEquals(message.type === "error" ? message.error.type : message.type, messages);

      const text = encodeAll(ENCODERS.responses(), events);
      const reading = readResponsesEvents(text);
      assertEquals(
        [reading.terminal, (reading.response["error"] as { code: string }).code],
        ["response.failed", responses[0]],
      );
      const sent = text.split("\n").find((line) => line.includes('"type":"error"'))!;
      const { code, type, param } = (JSON.parse(sent.slice(6)) as { error: Record<string, unknown> }).error;
      assertEquals([code, type, param], responses);
      const { response } = await readOpenAIResponse(fromChunks(events), { model: "m" });
      assertEquals(response.error?.code, responses[0]);

      assertEquals(readAGUIEvents(encodeAll(ENCODERS["ag-ui"](), events)).error?.["code"], agui);
      assertEquals(readUIChunks(encodeAll(ENCODERS.ui(), events)).errors, [MESSAGE]);
    });
  }

  test("without a kind, a payload's own Anthropic or OpenAI name is its kind: a provider piped into its own protocol", () => {
    const anthropic = failed(undefined, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    assertEquals(readMessagesEvents(encodeAll(ENCODERS.anthropic(), anthropic)).error?.type, "overloaded_error");
    const responses = failed(undefined, {
      code: "context_length_exceeded",
      message: "Your input exceeds the context window",
    });
    const reading = readResponsesEvents(encodeAll(ENCODERS.responses(), responses));
    assertEquals((reading.response["error"] as { code: string }).code, "context_length_exceeded");
    const chat = failed(undefined, { error: { type: "invalid_request_error", code: "context_length_exceeded" } });
    assertEquals(readChatChunks(encodeAll(ENCODERS.openai(), chat)).error?.["code"], "context_length_exceeded");
    const quota = failed(undefined, { code: "insufficient_quota", message: "You exceeded your current quota" });
    assertEquals(readChatChunks(encodeAll(ENCODERS.openai(), quota)).error?.["code"], "insufficient_quota");
    const billing = failed(undefined, { type: "error", error: { type: "billing_error", message: "Low balance" } });
    assertEquals(readMessagesEvents(encodeAll(ENCODERS.anthropic(), billing)).error?.type, "billing_error");
    const agui = readAGUIEvents(encodeAll(ENCODERS["ag-ui"](), anthropic)).error?.["code"];
    assertEquals(agui, "overloaded");
  });

  test("Chat Completions: a rate limit's type is the limit OpenAI's payload names (tokens), else requests", () => {
    // As OpenAI sends it (a recorded stream: ../shared/fixtures/openai-responses/error-event-then-response-failed.sse).
    const tokens = failed(undefined, { error: { type: "tokens", code: "rate_limit_exceeded", message: "TPM" } });
    const chunk = readChatChunks(encodeAll(ENCODERS.openai(), tokens)).error!;
    assertEquals([chunk["code"], chunk["type"]], ["rate_limit_exceeded", "tokens"]);
    const odd = failed("rate-limited", { error: { type: "rate_limit_error", message: "Slow down" } });
    assertEquals(readChatChunks(encodeAll(ENCODERS.openai(), odd)).error?.["type"], "requests");
  });

  test("a kind the application set wins over the payload, and nothing else of the payload is read", () => {
    const other = failed("other", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    assertEquals(readMessagesEvents(encodeAll(ENCODERS.anthropic(), other)).error?.type, "api_error");
    const unnamed = failed(undefined, {
      error: { message: "rate_limit_exceeded overloaded_error" },
      type: "overloaded_error",
    });
    assertEquals(readMessagesEvents(encodeAll(ENCODERS.anthropic(), unnamed)).error?.type, "api_error");
  });
});
