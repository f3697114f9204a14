/**
 * The request shape of `POST /v1/stream`, one for every provider. The Worker translates it into
 * the provider's own request (see worker/upstream/providers/).
 *
 * On the wire (JSON, snake_case like the providers' APIs):
 *
 * ```jsonc
 * {
 *   "provider": "openai",              // "openai" | "openai-responses" | "anthropic" | "gemini" | "bedrock" | "cohere" | "ollama"
 *   "model": "gpt-4o-mini",
 *   "messages": [
 *     { "role": "system", "content": "Be brief." },
 *     { "role": "user", "content": "Weather in Paris?" },
 *     // or content parts: { "type": "text", "text": ... } and files,
 *     // { "type": "file", "media_type": "image/png", "data": "<base64>" } or { ..., "url": "https://..." }
 *     // a previous turn: the calls as the stream's `finish.toolCalls` listed them ...
 *     { "role": "assistant", "content": "", "tool_calls": [{ "id": "call_1", "name": "get_weather", "arguments": { "city": "Paris" } }] },
 *     // (with "reasoning_parts": finish.reasoningParts and "reasoning": finish.reasoning, which providers take back,
 *     // and "order": finish.order with each call's "index", the order the provider gets the turn in;
 *     // a free-text call with "inputFormat": "text" and its text as "arguments", which OpenAI, Responses and Chat, takes back as a custom call,
 *     // and every other provider as a call of a function of one string, {"input": text})
 *     // ... and their results
 *     { "role": "tool", "tool_call_id": "call_1", "name": "get_weather", "content": "{\"celsius\": 18}" }   // "is_error": true for a failure
 *     // (and "files": [file parts] for the files a result carries)
 *   ],
 *   "tools": [{ "name": "get_weather", "description": "Current weather", "parameters": { "type": "object", "properties": { "city": { "type": "string" } } } }],
 *   "tool_choice": "auto",            // "auto" | "none" | "required" | { "name": "get_weather" }
 *   "max_tokens": 1024,               // optional
 *   "temperature": 0.2,               // optional
 *   "top_p": 0.9, "top_k": 40, "stop": ["END"], "seed": 7,  // optional: each where the provider has it (`stop` everywhere)
 *   "frequency_penalty": 0.5, "presence_penalty": 0.5,     // (worker/request/parse-sampling.ts)
 *   "reasoning": { "type": "on", "effort": "high" },  // optional: see parse-reasoning.ts
 *   "early_validation": true,         // optional: check each call against its tool's parameters while
 *                                     // it streams; a `tool-call-violation` event says where it went wrong
 *   "abort_on_violation": true        // optional, with early_validation: stop the provider at the violation
 * }
 * ```
 *
 * Tools may also be given in the Chat Completions form `{ "type": "function", "function": {...} }`.
 *
 * @module
 */
import type {
  JsonValue,
  ReasoningPart,
  RequestContentPart,
  RequestReasoning,
  ToolEntry,
  TurnOrderEntry,
} from "../../src/index.ts";
import type { RequestPromptCache } from "../../src/core.ts";
import type { Sampling } from "./parse-sampling.ts";

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** A validated `POST /v1/stream` request. */
export interface StreamRequest {
  provider: string;
  model: string;
  messages: Message[];
  /** The functions the model may call: the library's own `ToolEntry`, as every provider's kit takes it. */
  tools: ToolEntry[];
  toolChoice?: ToolChoice;
  maxTokens?: number;
  temperature?: number;
  /** The other sampling settings (`top_p`, `top_k`, `stop`, `seed`, the penalties), each in the provider's own form. */
  sampling?: Sampling;
  /** Whether and how much the model reasons (`reasoning`, see worker/request/parse-reasoning.ts); absent: the provider's default. */
  reasoning?: RequestReasoning;
  /**
   * OpenAI's `store`, as a Responses or Chat client sent it: written by the OpenAI Responses and Gemini
   * Interactions kits and, at api.openai.com, OpenAI Chat's builder. Never read from a `/v1/stream` body.
   */
  store?: boolean;
  /**
   * Anthropic's code-execution container to run in (`container`: the id an earlier answer's
   * `finish.container` named); the other providers are sent nothing.
   */
  container?: string;
  /**
   * Prompt caching a Messages client marked (`cache_control`) or an OpenAI client keyed
   * (`prompt_cache_key`): Anthropic is sent marks of its own (the library's `promptCache`); never
   * read from a `/v1/stream` body.
   */
  promptCache?: RequestPromptCache;
  /** Check each call's arguments against its tool's `parameters` while they stream. */
  earlyValidation?: true;
  /** With `earlyValidation`: cancel the provider request at the first violation. */
  abortOnViolation?: true;
  /**
   * The `anthropic-beta` values an Anthropic client sent (`POST /v1/messages`) that
   * `ANTHROPIC_BETAS` allows, forwarded when the provider is Anthropic; never read from a
   * `/v1/stream` body.
   */
  anthropicBetas?: string[];
  /**
   * What a Messages client sent for Anthropic's own side (`POST /v1/messages`), that
   * `ANTHROPIC_SERVER_TOOLS` allows, sent when the provider is Anthropic: its server tools as given
   * (after the client's tools), the one `tool_choice` names, and its `container`'s `skills`; never
   * read from a `/v1/stream` body.
   */
  anthropicServerTools?: { tools: JsonObject[]; toolChoice?: string; skills?: JsonValue[] };
  /**
   * OpenAI Chat's `web_search_options`, when a Chat or Responses client asked for web search in its
   * own protocol (worker/protocols/web-search.ts), sent when the provider is OpenAI Chat; never read
   * from a `/v1/stream` body.
   */
  openaiWebSearch?: JsonObject;
  /**
   * A Responses client's `tool_choice` of a tool OpenAI runs (`{type: "mcp", server_label, name?}`,
   * a forced web search), for an OpenAI Responses upstream, in place of the `required` the other
   * fields carry: `required` would let the model call any other tool offered. Never read from a
   * `/v1/stream` body.
   */
  openaiToolChoice?: JsonObject;
  /**
   * A Responses client's `max_tool_calls` (its limit on the calls of built-in tools in a
   * response), for an OpenAI Responses upstream, which takes it; the others have no such
   * setting. Never read from a `/v1/stream` body.
   */
  openaiMaxToolCalls?: number;
  /**
   * A Responses client's `context_management` (OpenAI compacts the context past a threshold), for
   * an OpenAI Responses upstream; the others have no such setting. Never read from a `/v1/stream` body.
   */
  openaiContextManagement?: JsonObject[];
  /**
   * A Chat or Responses client's `moderation` (OpenAI blocks the input or answer its moderation
   * model flags: worker/protocols/moderation.ts), for an OpenAI Chat or Responses upstream. Never
   * read from a `/v1/stream` body.
   */
  openaiModeration?: JsonObject;
  /**
   * A Responses or Chat client's `parallel_tool_calls: false`, a Messages client's
   * `disable_parallel_tool_use: true` (with a choice other than `none`), for the providers that
   * have a field for it (OpenAI's `parallel_tool_calls`, Anthropic's `disable_parallel_tool_use`);
   * every answer is held to one call by the route (worker/services/call-rules.ts). Never read from
   * a `/v1/stream` body.
   */
  parallelToolCalls?: false;
  /**
   * The functions a Responses client made `strict: true`, for an OpenAI Chat upstream at OpenAI
   * (`function.strict`; a compatible server may refuse the field). Never read from a `/v1/stream` body.
   */
  strictTools?: readonly string[];
  /**
   * A Responses or Chat client's OpenAI bookkeeping (`prompt_cache_key`, `prompt_cache_retention`,
   * `prompt_cache_options`, `safety_identifier`, `metadata`, `user`: worker/protocols/openai-keys.ts;
   * its `store` is {@link StreamRequest.store}), for an OpenAI
   * Responses upstream and OpenAI Chat at OpenAI, which take them (the others have no such fields).
   * Never read from a `/v1/stream` body.
   */
  openaiKeys?: JsonObject;
  /** A Responses client's `truncation: "auto"`, for an OpenAI Responses upstream. Never read from a `/v1/stream` body. */
  openaiTruncation?: "auto";
  /**
   * Structured output a client asked for in the upstream's own protocol
   * (worker/protocols/output-format.ts), sent as it came: OpenAI Chat's `response_format`,
   * OpenAI Responses' `text`, Anthropic's `output_config.format` and the beta's `output_format`;
   * never read from a `/v1/stream` body.
   */
  openaiResponseFormat?: JsonObject;
  /** See {@link StreamRequest.openaiResponseFormat}. */
  openaiText?: JsonObject;
  /**
   * How long the answer runs (`low`, `medium`, `high`), from Chat's `verbosity` or Responses'
   * `text.verbosity`, for an OpenAI Chat upstream (`verbosity`) or an OpenAI Responses one of another
   * protocol (`text.verbosity`); never read from a `/v1/stream` body.
   */
  openaiVerbosity?: string;
  /** See {@link StreamRequest.openaiResponseFormat}. */
  anthropicOutputFormat?: JsonObject;
  /** Structured output asked for in another protocol than the upstream's (worker/request/output-format.ts). */
  outputFormat?: OutputFormat;
}

/** JSON output: any JSON object (`json_object`), or one of a JSON Schema. */
export type OutputFormat =
  | { type: "json_object" }
  | { type: "json_schema"; name: string; schema: JsonObject; description?: string; strict?: boolean };

/** One message of the conversation. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** Instructions; providers without a system role receive them as their system field. */
export interface SystemMessage {
  role: "system";
  content: string;
}

/** What the user said. */
export interface UserMessage {
  role: "user";
  /** Its text (its text parts joined, when it has `parts`). */
  content: string;
  /** Its text and files in order, when it carries files (worker/request/file-parts.ts). */
  parts?: RequestContentPart[];
}

/** An earlier answer of the model, with the calls it made. */
export interface AssistantMessage {
  role: "assistant";
  content: string;
  toolCalls: AssistantToolCall[];
  /**
   * The turn's reasoning as `finish.reasoningParts` gave it (`reasoning_parts`): Anthropic and
   * Claude on Bedrock take back their signed and redacted blocks, OpenAI Responses its items.
   */
  reasoningParts?: ReasoningPart[];
  /** The turn's reasoning text (`reasoning`, the stream's `finish.reasoning`): Ollama takes it back as `thinking`. */
  reasoning?: string;
  /** Where its text, calls (by `index`) and reasoning parts came (`order`, the stream's `finish.order`). */
  order?: TurnOrderEntry[];
}

/** A call the model made, as `finish.toolCalls` reports it. */
export interface AssistantToolCall {
  id: string | null;
  name: string;
  arguments: JsonValue;
  /** `text`: a custom tool's free-text call, `arguments` its text (`finish.toolCalls`' `inputFormat`), which OpenAI takes back as one. */
  inputFormat?: "text";
  /** Data the provider needs back (a Gemini thought signature), as the stream reported it. */
  providerMetadata?: JsonObject;
  /** The call's index (`finish.toolCalls`' `index`), by which the message's `order` places it. */
  index?: number;
  /**
   * The provider ran the call itself (`finish.toolCalls`' `providerExecuted`: an Anthropic server
   * tool's): it goes back as the provider's own block with its result, else is left out; never as a
   * call of the client's, which the provider would refuse without a result.
   */
  providerExecuted?: true;
}

/** The result of one call. `toolCallId` or `name` identifies the call (Gemini calls have no id). */
export interface ToolMessage {
  role: "tool";
  toolCallId?: string;
  name?: string;
  content: string;
  /** The tool failed (`is_error: true`): Anthropic and Bedrock are told so; other providers read it in the text. */
  isError?: true;
  /** Its text then its files (`files`), when it carries files. */
  parts?: RequestContentPart[];
}

/** Whether and which tool the model must call. */
export type ToolChoice = { type: "auto" } | { type: "none" } | { type: "required" } | { type: "tool"; name: string };
