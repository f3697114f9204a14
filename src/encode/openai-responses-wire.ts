/**
 * The OpenAI Responses wire shapes the encoders write, in the API's own snake_case, and the
 * mappings from the library's normalized values back to them.
 *
 * @module
 */
import type { ReasoningPart, Usage } from "../shared/deltas.ts";

/** Options of {@link OpenAIResponsesEncoder}, its stage and {@link readOpenAIResponse}. */
export interface OpenAIResponsesEncoderOptions {
  /** The `model` the response names (what the client asked for). */
  model: string;
  /**
   * The response id.
   * @defaultValue `resp_` and a generated token
   */
  id?: string;
  /**
   * `created_at`, in seconds since the epoch.
   * @defaultValue the current time
   */
  createdAt?: number;
  /**
   * Makes the tokens of generated ids: the response's, each output item's, and call ids a
   * provider does not give.
   * @defaultValue {@link randomId}
   */
  generateId?: () => string;
  /**
   * The `encrypted_content` of the reasoning item a reasoning part becomes: a server that wants
   * another provider's opaque reasoning state back on the next turn (an Anthropic signature)
   * encodes it here, since Responses clients send `encrypted_content` back unchanged.
   * @defaultValue a Responses item's own `encryptedContent`; nothing for other parts
   */
  encryptedContent?: (part: ReasoningPart) => string | undefined;
}

/** Token usage as the Responses API reports it. */
export interface OpenAIResponsesUsage {
  /** Input tokens. */
  input_tokens: number;
  /** Always `{cached_tokens: 0}`: the library does not know cache hits. */
  input_tokens_details: { cached_tokens: number };
  /** Output tokens. */
  output_tokens: number;
  /** Always `{reasoning_tokens: 0}`. */
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
  /** Always empty. */
  annotations: [];
  /** Always empty. */
  logprobs: [];
}

/** An output item of a response. */
export type OpenAIResponsesOutputItem =
  | {
      type: "message";
      id: string;
      status: "in_progress" | "completed" | "incomplete";
      role: "assistant";
      content: OpenAIResponsesOutputText[];
    }
  | {
      type: "reasoning";
      id: string;
      summary: { type: "summary_text"; text: string }[];
      encrypted_content?: string;
    }
  | {
      type: "function_call";
      id: string;
      status: "in_progress" | "completed";
      call_id: string;
      name: string;
      arguments: string;
    }
  | {
      type: "custom_tool_call";
      id: string;
      status: "in_progress" | "completed";
      call_id: string;
      name: string;
      input: string;
    };

/** The `error` of a failed response: the library's code and message, never the provider's text. */
export interface OpenAIResponsesError {
  /** The library's error code (`provider-error`, `input-ended`, ...). */
  code: string;
  /** A sentence that never quotes model output nor the provider's own error text. */
  message: string;
}

/** A response object: in `response.created` (empty), and whole in the terminal event and the non-streaming answer. */
export interface OpenAIResponse {
  id: string;
  object: "response";
  created_at: number;
  status: "in_progress" | "completed" | "incomplete" | "failed";
  error: OpenAIResponsesError | null;
  incomplete_details: { reason: "max_output_tokens" | "content_filter" } | null;
  model: string;
  output: OpenAIResponsesOutputItem[];
  parallel_tool_calls: boolean;
  tool_choice: "auto";
  tools: [];
  usage: OpenAIResponsesUsage | null;
}

/** The usage of a response: integers, 0 where the provider gave none, the total as reported or their sum. */
export function responsesUsage(usage: Usage | undefined): OpenAIResponsesUsage {
  const input = tokens(usage?.inputTokens);
  const output = tokens(usage?.outputTokens);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage?.totalTokens !== undefined ? tokens(usage.totalTokens) : input + output,
  };
}

const tokens = (value: number | undefined): number =>
  value !== undefined && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;

/** The default `encrypted_content` of a reasoning part: a Responses item's own. */
export const ownEncryptedContent = (part: ReasoningPart): string | undefined =>
  part.type === "item" ? part.encryptedContent : undefined;
