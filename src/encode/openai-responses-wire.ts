/**
 * The OpenAI Responses wire shapes the encoders write, in the API's own snake_case, and the
 * mappings from the library's normalized values back to them.
 *
 * @module
 */
import type { ReasoningPart, Usage } from "../shared/deltas.ts";
import { failureKind, type ProviderErrorKind } from "../shared/errors.ts";
import type { JsonValue } from "../shared/json.ts";
import type { OpenAIResponseSettings } from "./openai-response-settings.ts";
import { OPENAI_KIND_CODES, OPENAI_KIND_TYPES } from "./protocol-encoder.ts";

/** Options of {@link OpenAIResponsesEncoder}, its stage and {@link readOpenAIResponse}. */
export interface OpenAIResponsesEncoderOptions {
  /** The `model` the response names (what the client asked for). */
  model: string;
  /**
   * The response id.
   * @defaultValue `resp_` and a generated token
   */
  id?: string | undefined;
  /**
   * `created_at`, in seconds since the epoch.
   * @defaultValue the current time
   */
  createdAt?: number | undefined;
  /**
   * Makes the tokens of generated ids: the response's, each item's, and call ids a provider lacks.
   * @defaultValue {@link randomId}
   */
  generateId?: (() => string) | undefined;
  /**
   * The `encrypted_content` of the reasoning item a reasoning part becomes: a server that wants
   * another provider's opaque reasoning state back on the next turn (an Anthropic signature)
   * encodes it here, since Responses clients send `encrypted_content` back unchanged. A
   * provider's own kept block (Anthropic's `compaction` and `fallback`, which Responses has no
   * item for) becomes a reasoning item of its own, with no summary, only when this gives it a value.
   * @defaultValue a Responses item's own `encryptedContent`; nothing for other parts
   */
  encryptedContent?: ((part: ReasoningPart) => string | undefined) | undefined;
  /**
   * What the response object repeats of its request (`instructions`, `tools`, `tool_choice`,
   * `temperature`, `metadata`, `store`, ...), in every snapshot; a setting not given is its
   * zero value (see {@link RESPONSE_SETTINGS_DEFAULTS}).
   * @defaultValue every setting at its default
   */
  settings?: { readonly [K in keyof OpenAIResponseSettings]?: OpenAIResponseSettings[K] | undefined } | undefined;
  /**
   * The clock of `completed_at`, in milliseconds since the epoch.
   * @defaultValue `Date.now`
   */
  now?: (() => number) | undefined;
  /**
   * The OpenAI Responses built-in tools the client offered (`apply_patch`, `shell`, `local_shell`):
   * a call of one of these names (a provider's function of that name, or the built-in call of an
   * OpenAI Responses upstream) is written as the tool's own item (`apply_patch_call` with its
   * `operation`, `shell_call` with its `action`, `local_shell_call`, `tool_search_call` with its
   * `arguments` and `execution: "client"`), whole at the call's end.
   * @defaultValue none: every call is a `function_call` (or `custom_tool_call`)
   */
  builtInTools?: ReadonlySet<string> | undefined;
}

/** Token usage as the Responses API reports it. */
export interface OpenAIResponsesUsage {
  /** Input tokens. */
  input_tokens: number;
  /** Of the input, the tokens read from the provider's cache and those written to it (each 0 when it reported none, as OpenAI sends them). */
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  /** Output tokens. */
  output_tokens: number;
  /** Of the output, the reasoning tokens (0 when the provider reported none). */
  output_tokens_details: { reasoning_tokens: number };
  /** Both. */
  total_tokens: number;
}

/** An `output_text` content part of a message item. */
export interface OpenAIResponsesOutputText {
  /** Always `output_text`. */
  type: "output_text";
  /** The text. */
  text: string;
  /** The provider's citations of the text (`url_citation`, `file_citation`); empty without any. */
  annotations: Record<string, JsonValue>[];
  /** Always empty. */
  logprobs: [];
}

/** An output item of a response. */
export type OpenAIResponsesOutputItem =
  | {
      /** Visible text. */
      type: "message";
      /** `msg_...`, generated. */
      id: string;
      /** `completed` once done (in a failed response too); `incomplete` when a length or content-filter stop cut it. */
      status: "in_progress" | "completed" | "incomplete";
      /** Always `assistant`. */
      role: "assistant";
      /** An `output_text` part, then a `refusal` part when a refusal stopped it; or a refusal's message of its own, one `refusal` part. */
      content: (OpenAIResponsesOutputText | { type: "refusal"; refusal: string })[];
      /** `commentary` (a preamble before calls) or `final_answer`, when an OpenAI Responses upstream gave it (the next turn sends it back). */
      phase?: string;
    }
  | {
      /** Reasoning. */
      type: "reasoning";
      /** `rs_...`, generated. */
      id: string;
      /** The reasoning text as one summary part (none when the provider gave no text). */
      summary: { type: "summary_text"; text: string }[];
      /** The raw reasoning (`reasoning_text`, gpt-oss's), apart from the summary; absent when none came. */
      content?: { type: "reasoning_text"; text: string }[];
      /** The provider's encrypted reasoning, to send back unchanged; absent when there is none. */
      encrypted_content?: string;
      /** As a message's: Open Responses gives every item a status (OpenAI's reasoning items have none). */
      status?: "in_progress" | "completed" | "incomplete";
    }
  | {
      /** A call for the client to run. */
      type: "function_call";
      /** `fc_...`, generated: the item's id, not the call's. */
      id: string;
      /** `in_progress` when added, `completed` once done; one cut short is discarded (never done, not in a failed response's output). */
      status: "in_progress" | "completed" | "incomplete";
      /** The provider's call id, or a generated `call_...` one: what the output item answering it names. */
      call_id: string;
      /** The function name. */
      name: string;
      /** The arguments text as the model wrote it (invalid JSON stays as it was). */
      arguments: string;
      /** The namespace of a tool a tool search loaded, which the item must carry back. */
      namespace?: string;
      /** Who made the call, when the provider said (programmatic tool calling: `{ type: "program", caller_id }`). */
      caller?: { [key: string]: JsonValue };
    }
  | {
      /** A call of a free-text tool (Codex's `apply_patch`). */
      type: "custom_tool_call";
      /** `ctc_...`, generated. */
      id: string;
      /** `in_progress` when added, `completed` once done; one cut short is discarded (never done, not in a failed response's output). */
      status: "in_progress" | "completed" | "incomplete";
      /** The provider's call id, or a generated `call_...` one. */
      call_id: string;
      /** The tool's name. */
      name: string;
      /** The input text. */
      input: string;
      /** Its tool's namespace, when the provider said. */
      namespace?: string;
      /** Who made the call, when the provider said. */
      caller?: { [key: string]: JsonValue };
    }
  | {
      /** A call of a built-in tool the client runs: `apply_patch_call`, `shell_call`, `local_shell_call` or `tool_search_call`. */
      type: "apply_patch_call" | "shell_call" | "local_shell_call" | "tool_search_call";
      /** `apc_...`, `sh_...`, `lsh_...` or `ts_...`, generated. */
      id: string;
      /** `completed` once done. */
      status: "in_progress" | "completed";
      /** The provider's call id, or a generated `call_...` one. */
      call_id: string;
      /** apply_patch: `{ type, path, diff }`. */
      operation?: Record<string, unknown>;
      /** shell: `{ commands, timeout_ms, max_output_length }`; local_shell: `{ type: "exec", command, ... }`. */
      action?: Record<string, unknown>;
      /** shell: where the commands run (`null`: the client decides). */
      environment?: unknown;
      /** tool_search: what to search for. */
      arguments?: Record<string, unknown>;
      /** tool_search: always `client` (the client runs the search). */
      execution?: "client";
    }
  | {
      /** A remote MCP tool the provider runs once the client approves it (`mcp_approval_response`). */
      type: "mcp_approval_request";
      /** The provider's `mcpr_...`, which the client's answer names. */
      id: string;
      /** The MCP server's label. */
      server_label: string;
      /** The tool's name. */
      name: string;
      /** Its arguments, as JSON text. */
      arguments: string;
    };

/** The `error` of a failed response: the library's code and message, never the provider's text. */
export interface OpenAIResponsesError {
  /** The library's error code (`provider-error`, `input-ended`, ...). */
  code: string;
  /** A sentence that never quotes model output nor the provider's own error text. */
  message: string;
  /** What a provider's failure is, where the application classified it: written as OpenAI's own code. */
  kind?: ProviderErrorKind;
  /** The provider's error payload: without a `kind`, only the name it gives itself is read ({@link failureKind}). */
  data?: unknown;
}

/**
 * The `error` event's error of a failed response: the library's code, but for a provider's failure
 * of a known `kind` OpenAI's own (Codex compacts on `context_length_exceeded`, stops on
 * `insufficient_quota`, retries `rate_limit_exceeded`), typed as Open Responses types a 429; an
 * overload `server_error`, which Codex retries (`server_is_overloaded` ends its turn: "at capacity").
 */
export function responsesError(error: OpenAIResponsesError): {
  type: string;
  code: string;
  message: string;
  param: string | null;
} {
  const kind = failureKind(error);
  const type = (kind && OPENAI_KIND_TYPES[kind]) ?? (error.code === "provider-error" ? "model_error" : "server_error");
  const code = kind === "overloaded" ? type : ((kind && OPENAI_KIND_CODES[kind]) ?? error.code);
  return { type, code, message: error.message, param: kind === "context-overflow" ? "input" : null };
}

/**
 * A response object (Open Responses' `ResponseResource`): in `response.created` (empty), and whole
 * in the terminal event and the non-streaming answer, with the settings of its request.
 */
export interface OpenAIResponse extends OpenAIResponseSettings {
  /** `resp_...`: the `id` option, or generated. */
  id: string;
  /** Always `response`. */
  object: "response";
  /** In seconds since the epoch. */
  created_at: number;
  /** When it completed, in seconds since the epoch; `null` until then, and for a failed or incomplete response. */
  completed_at: number | null;
  /** How the response ended (`in_progress` until then). */
  status: "in_progress" | "completed" | "incomplete" | "failed";
  /** Why it failed; `null` otherwise. */
  error: OpenAIResponsesError | null;
  /** Why it is incomplete (a length or content-filter stop, OpenAI's steering: openai-node 7's reasons); `null` otherwise. */
  incomplete_details: { reason: "max_output_tokens" | "max_messages" | "content_filter" | "steered" } | null;
  /** The model named in the options. */
  model: string;
  /** Every item done, in order. */
  output: OpenAIResponsesOutputItem[];
  /** Token usage once the response completed; `null` before. */
  usage: OpenAIResponsesUsage | null;
  /** The provider's moderation results (OpenAI's moderated completions), once the response ended, when it sent them. */
  moderation?: Record<string, unknown>;
}

/** The usage of a response: integers, 0 where the provider gave none, the total as reported or their sum. */
export function responsesUsage(usage: Usage | undefined): OpenAIResponsesUsage {
  const input = tokens(usage?.inputTokens);
  const output = tokens(usage?.outputTokens);
  return {
    input_tokens: input,
    input_tokens_details: {
      cached_tokens: tokens(usage?.cacheReadTokens),
      cache_write_tokens: tokens(usage?.cacheWriteTokens),
    },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: tokens(usage?.reasoningTokens) },
    total_tokens: usage?.totalTokens !== undefined ? tokens(usage.totalTokens) : input + output,
  };
}

const tokens = (value = 0): number => (Number.isFinite(value) && value > 0 ? Math.round(value) : 0);

/**
 * A message's one `output_text` part, as the encoder writes it.
 *
 * @example
 * ```ts
 * const part = outputText("Hello"); // { type: "output_text", text: "Hello", annotations: [], logprobs: [] }
 * ```
 */
export const outputText = (text: string, annotations: Record<string, JsonValue>[] = []): OpenAIResponsesOutputText => ({
  type: "output_text",
  text,
  annotations,
  logprobs: [],
});

/** The default `encrypted_content` of a reasoning part: a Responses item's own. */
export const ownEncryptedContent = (part: ReasoningPart): string | undefined =>
  part.type === "item" ? part.encryptedContent : undefined;

/** The terminal events: the last of every stream. */
export const TERMINAL_EVENTS: ReadonlySet<string> = new Set([
  "response.completed",
  "response.incomplete",
  "response.failed",
]);
