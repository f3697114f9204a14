// The bodies the real clients send, as the fuzzer's seeds: openai-node's Chat Completions with
// files and the legacy `functions`, Claude Code's Messages, Codex's Responses, the AI SDK's
// DefaultChatTransport and AG-UI's HttpAgent (the shapes of their tests in this folder); and the
// paths of a body, which both fuzzers mutate.

import { endpoints } from "./endpoint-bodies.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PDF = "JVBERi0xLjQK";
const PARAMETERS = {
  type: "object",
  properties: { city: { type: "string", description: "The city" } },
  required: ["city"],
  additionalProperties: false,
};
/** Where the model goes: replaced by each of `models`. */
const MODEL = "fuzz-model-placeholder";

/** A client's body for one route, and the models it is sent to. */
export interface ClientBody {
  name: string;
  path: string;
  /** The key of the route's error shape in endpoint-bodies.ts. */
  endpoint: string;
  body: Record<string, unknown>;
  model: string;
  models: string[];
}

/** A place in a JSON value: object keys and array indices. */
export type Path = (string | number)[];

/** Every path in `value` (objects' keys and arrays' indices), the root included. */
export function pathsOf(value: unknown, at: Path = []): Path[] {
  if (typeof value !== "object" || value === null) return [at];
  const entries = Array.isArray(value) ? value.map((item, i) => [i, item] as const) : Object.entries(value);
  return [at, ...entries.flatMap(([key, item]) => pathsOf(item, [...at, key]))];
}

const BOTH = ["openai/gpt-4o", "anthropic/claude-opus-4-7", "anthropic/claude-sonnet-4-5"];

/** A client's body for `path`, sent to each of {@link BOTH}. */
const entry = (name: string, path: string, endpoint: string, body: Record<string, unknown>): ClientBody => ({
  name,
  path,
  endpoint,
  body,
  model: MODEL,
  models: BOTH,
});

/** The seeds: one body per client. */
export const clientBodies: ClientBody[] = [
  entry("openai-node chat with files", "/v1/chat/completions", "chat", {
    model: MODEL,
    stream: true,
    stream_options: { include_usage: true },
    reasoning_effort: "low",
    messages: [
      { role: "system", content: "Be brief." },
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}`, detail: "low" } },
          { type: "file", file: { filename: "a.pdf", file_data: `data:application/pdf;base64,${PDF}` } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"celsius": 18}' },
    ],
    tools: [{ type: "function", function: { name: "get_weather", parameters: PARAMETERS, strict: true } }],
    tool_choice: "auto",
    parallel_tool_calls: false,
    max_completion_tokens: 256,
  }),
  entry("openai-node chat with the legacy functions", "/v1/chat/completions", "chat", {
    model: MODEL,
    messages: [
      { role: "user", content: "Weather in Paris?" },
      { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      { role: "function", name: "get_weather", content: '{"celsius": 18}' },
      { role: "user", content: "And in Rome?" },
    ],
    functions: [{ name: "get_weather", description: "Weather", parameters: PARAMETERS }],
    function_call: { name: "get_weather" },
    stream: true,
  }),
  entry("Claude Code messages", "/v1/messages", "messages", {
    model: MODEL,
    max_tokens: 32_000,
    stream: true,
    system: [
      { type: "text", text: "You are Claude Code.", cache_control: { type: "ephemeral" } },
      { type: "text", text: "Environment: linux" },
    ],
    thinking: { type: "adaptive", display: "summarized" },
    output_config: { effort: "high" },
    metadata: { user_id: "user_abc_account_1_session_2" },
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "Read these." },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, title: "a.pdf" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "The weather tool.", signature: "c2lnbmF0dXJl" },
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "18" }], is_error: false },
        ],
      },
    ],
    tools: [
      { name: "get_weather", description: "Weather", input_schema: PARAMETERS, cache_control: { type: "ephemeral" } },
    ],
    tool_choice: { type: "auto" },
  }),
  entry("Codex responses", "/v1/responses", "responses", {
    model: MODEL,
    instructions: "You are Codex.",
    stream: true,
    store: false,
    include: ["reasoning.encrypted_content"],
    prompt_cache_key: "session_1",
    reasoning: { effort: "medium", summary: "auto" },
    parallel_tool_calls: false,
    input: [
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "What is this?" },
          { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
          { type: "input_file", filename: "a.pdf", file_data: `data:application/pdf;base64,${PDF}` },
        ],
      },
      {
        type: "reasoning",
        id: "rs_1",
        summary: [{ type: "summary_text", text: "Weather." }],
        encrypted_content: "ZW5j",
      },
      { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
      { type: "function_call_output", call_id: "call_1", output: '{"celsius": 18}' },
    ],
    tools: [
      { type: "function", name: "get_weather", parameters: PARAMETERS, strict: false },
      { type: "custom", name: "apply_patch", description: "Patch", format: { type: "text" } },
    ],
    tool_choice: "auto",
  }),
  entry("AI SDK UI parts", "/v1/ui", "ui", {
    id: "chat_1",
    trigger: "submit-message",
    model: MODEL,
    messages: [
      {
        id: "u1",
        role: "user",
        parts: [
          { type: "text", text: "Compare them." },
          { type: "file", mediaType: "image/png", url: `data:image/png;base64,${PNG}` },
          {
            type: "file",
            mediaType: "application/pdf",
            filename: "a.pdf",
            url: `data:application/pdf;base64,${PDF}`,
          },
        ],
      },
      {
        id: "a1",
        role: "assistant",
        parts: [
          { type: "step-start" },
          { type: "reasoning", text: "The weather tool.", state: "done" },
          {
            type: "tool-get_weather",
            toolCallId: "call_1",
            state: "output-available",
            input: { city: "Paris" },
            output: { celsius: 18 },
          },
          { type: "text", text: "18 degrees.", state: "done" },
        ],
      },
      { id: "u2", role: "user", parts: [{ type: "text", text: "And Rome?" }] },
    ],
    tools: [{ name: "get_weather", parameters: PARAMETERS }],
  }),
  entry("AG-UI binary parts", "/v1/ag-ui", "agui", {
    threadId: "thread_1",
    runId: "run_1",
    state: {},
    messages: [
      {
        id: "m1",
        role: "user",
        content: [
          { type: "text", text: "Read these." },
          { type: "image", source: { type: "data", value: PNG, mimeType: "image/png" } },
          { type: "document", source: { type: "data", value: PDF, mimeType: "application/pdf" } },
        ],
      },
      // The call and its result of endpoint-bodies.ts.
      ...(endpoints["agui"]!.valid()["messages"] as unknown[]).slice(1),
    ],
    tools: [{ name: "get_weather", description: "Weather", parameters: PARAMETERS }],
    context: [{ description: "Units", value: "metric" }],
    forwardedProps: { model: MODEL },
  }),
];
