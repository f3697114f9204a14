/**
 * The normalized provider deltas: what every provider stage produces and the accumulator
 * consumes. Provider wire formats never cross this line.
 *
 * @module
 */
import type { StreamErrorInfo } from "./errors.ts";
import type { ExecutionContainer, ModerationDelta, RefusalDetails } from "./finish-details.ts";
// What a finish tells besides its reason, beside the deltas as the entry points export them.
export type { ExecutionContainer, RefusalDetails } from "./finish-details.ts";
import type { ApprovalRequestDelta } from "./approval-request.ts";
import type { JsonValue } from "./json.ts";
// A call the provider runs once approved (OpenAI Responses), in its own module.
export type { ApprovalRequest, ApprovalRequestDelta } from "./approval-request.ts";

/** Token usage normalized across providers. The provider's object is kept on `raw`. */
export interface Usage {
  /** Prompt / input tokens. */
  inputTokens?: number;
  /** Completion / output tokens. */
  outputTokens?: number;
  /** Total tokens, as reported or as input + output. */
  totalTokens?: number;
  /**
   * Of the input tokens, those read from the provider's prompt cache (OpenAI `cached_tokens`,
   * Anthropic `cache_read_input_tokens`, Gemini `cachedContentTokenCount`, Bedrock
   * `cacheReadInputTokens`), when it reported them. `inputTokens` counts them: a provider that
   * counts them apart (Anthropic, Bedrock) has them added.
   */
  cacheReadTokens?: number;
  /** Of the input tokens, those written to the prompt cache (Anthropic `cache_creation_input_tokens`, Bedrock `cacheWriteInputTokens`, OpenAI `cache_write_tokens`); counted in `inputTokens` too. */
  cacheWriteTokens?: number;
  /** Of the output tokens, those the model spent reasoning (OpenAI `reasoning_tokens`, Anthropic `thinking_tokens`; Gemini's `thoughtsTokenCount`, counted apart, is added to `outputTokens`), when reported. */
  reasoningTokens?: number;
  /** The provider's usage object, verbatim. */
  raw: unknown;
}

/**
 * Normalized reason a response finished. The provider's value is kept as `rawReason`. `pause`:
 * the provider paused a long turn of its own tools (Anthropic `pause_turn`); send the turn back as
 * it is, with no new user message, and it continues (`runToolLoop` does). `approval`: the provider
 * waits for the application to approve or deny calls it would run itself (OpenAI Responses
 * `mcp_approval_request`, listed in the finish's `approvalRequests`); send the turn back with an
 * answer to each (`runToolLoop` stops there, as only the application can decide). `error`: the
 * provider ended the turn failed, or reported an error in it, even after its own finish reason (a
 * refusal keeps `content-filter`); `runToolLoop` does not go on from it.
 */
export type FinishReason =
  | "stop"
  | "tool-calls"
  | "length"
  | "content-filter"
  | "pause"
  | "approval"
  | "error"
  | "other";

/**
 * A normalized provider delta: what every provider stage produces and the
 * {@link ToolCallAccumulatorStream} consumes. Provider wire formats never reach the accumulator.
 *
 * `choice` is the choice index for providers that stream several (`n > 1`); absent means 0.
 */
export type ProviderDelta =
  | TextDelta
  | ReasoningDelta
  | ReasoningPartDelta
  | ToolCallChunkDelta
  | ToolCallEndDelta
  | ToolCallWholeDelta
  | ApprovalRequestDelta
  | FinishDelta
  | UsageDelta
  | ModerationDelta
  | ErrorDelta
  | DoneDelta;

/** Visible assistant text. */
export interface TextDelta {
  /** The kind of delta: always `text-delta`. */
  type: "text-delta";
  /** The text fragment. */
  text: string;
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
}

/** Reasoning / thinking text (never part of the visible text). */
export interface ReasoningDelta {
  /** The kind of delta: always `reasoning-delta`. */
  type: "reasoning-delta";
  /** The text fragment. */
  text: string;
  /** Which text of an OpenAI Responses reasoning item it is: its `summary`, or its `content`, the raw reasoning (`reasoning_text`, gpt-oss's); absent for a provider with one kind. */
  field?: "summary" | "content";
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
}

/**
 * One reasoning block of a turn as the provider must get it back on the next request: with
 * Anthropic extended thinking and tools, a signed block (its text with the provider's signature)
 * or a redacted block (only its opaque data); with OpenAI Responses, a reasoning item (its id,
 * summary and, when requested, encrypted content), which must precede the turn's function calls
 * when the conversation is passed back manually; with a thinking model on Chat Completions, the
 * field its reasoning streamed in; with Cohere, its thinking content items. A `finish` event lists them in the order they
 * streamed; each provider's message builder uses only its own kinds.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "anthropic" })) {
 *   if (event.type === "finish") console.log(event.reasoningParts?.map((part) => part.type)); // ["signed", "redacted"]
 * }
 * ```
 */
export type ReasoningPart =
  | {
      /** The kind of part: a reasoning block with a signature. */
      type: "signed";
      /** The block's whole reasoning text. */
      text: string;
      /** The provider's signature of the text, sent back unchanged. */
      signature: string;
    }
  | {
      /** The kind of part: a reasoning block the provider encrypted. */
      type: "redacted";
      /** The provider's opaque data, sent back unchanged. */
      data: string;
    }
  | {
      /** The kind of part: a reasoning output item (OpenAI Responses). */
      type: "item";
      /** The item's id (`rs_...`). */
      id: string;
      /** The item's encrypted reasoning, when it was requested (`include: ["reasoning.encrypted_content"]`, needed with `store: false`). */
      encryptedContent?: string;
      /** The item's summary parts, verbatim. */
      summary?: JsonValue[];
      /** The item's raw reasoning (its `reasoning_text` content parts), verbatim, when it has any. */
      content?: JsonValue[];
    }
  | {
      /**
       * The kind of part: reasoning a Chat Completions provider streamed in a field of the message
       * (DeepSeek, Kimi, GLM, Qwen, MiniMax, OpenRouter, Groq), or OpenAI's `refusal` (kept apart from
       * the text), which it takes back in the same field of the assistant message (DeepSeek answers a tool loop without it with a 400).
       */
      type: "field";
      /** The field as the stream named it, and as the next request's assistant message carries it. */
      field: "reasoning_content" | "reasoning" | "refusal" | "reasoning_details";
      /** The whole text; for `reasoning_details`, the detail objects, each one's streamed fragments merged. */
      value: string | JsonValue[];
      /** The model that streamed it (the chunks' `model`), if named: a request body sends it only to that family. */
      model?: string;
      /** OpenAI Responses' refusal: the id of the `message` item it came in, which its next turn sends back. */
      id?: string;
    }
  | {
      /**
       * The kind of part: a thinking content item (Cohere's `{ type: "thinking", thinking }`),
       * unsigned, which the provider takes back as that item of the assistant message's `content`,
       * apart from its `tool_plan`.
       */
      type: "thinking";
      /** The item's whole thinking text. */
      text: string;
    }
  | {
      /**
       * The kind of part: a block the provider must get back as it came, in its place (Anthropic's
       * `compaction`), a cited text (Anthropic's `{ type: "text", text, citations }`, OpenAI's with
       * `annotations`, Bedrock's `{ citationsContent }`), or Gemini's `{ groundingMetadata }` for the app.
       */
      type: "block";
      /** The block, verbatim (its own `type` says which). */
      block: { [key: string]: JsonValue };
    };

/**
 * One reasoning block completed, with what the provider needs back (a signature, redacted data, or a reasoning item's id and encrypted content).
 *
 * @example
 * ```ts
 * accumulator.push({ type: "reasoning-part", part: { type: "signed", text: "Let me check.", signature: "EqQBCg..." } });
 * accumulator.push({ type: "reasoning-part", part: { type: "item", id: "rs_0050...", encryptedContent: "gAAAAABo...", summary: [] } });
 * ```
 */
export interface ReasoningPartDelta {
  /** The kind of delta: always `reasoning-part`. */
  type: "reasoning-part";
  /** The block; its text, if any, already came as `reasoning-delta`s. */
  part: ReasoningPart;
}

/** A fragment of one tool call, with whatever the provider put in it: the accumulator finds its call (by `index`, by `id`, else the latest open one). */
export interface ToolCallChunkDelta {
  /** The kind of delta: always `tool-call-chunk`. */
  type: "tool-call-chunk";
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
  /** The provider's index of the call (OpenAI `index`, Anthropic block index, ...). */
  index?: number;
  /** The provider's call id; empty strings are dropped by the provider stage. */
  id?: string;
  /** A fragment of, or the whole, function name. */
  name?: string;
  /** A fragment of the JSON arguments text. */
  argumentsDelta?: string;
  /** Per-call data that must go back to the provider on the next turn. */
  providerMetadata?: Record<string, unknown>;
  /** The provider runs this call itself (Anthropic `server_tool_use`): the application must not. */
  providerExecuted?: true;
  /** `text`: the call's input is free text (Responses `custom_tool_call`), kept as a string, never parsed. */
  inputFormat?: "text";
}

/** The provider's explicit end of one call (Anthropic `content_block_stop`, Responses `.done`). */
export interface ToolCallEndDelta {
  /** The kind of delta: always `tool-call-end`. */
  type: "tool-call-end";
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
  /** The provider's index of the call, as in {@link ToolCallChunkDelta.index}. */
  index: number;
  /**
   * The final arguments text, when the provider sends it: the rest of the call when it extends the
   * fragments (or there were none); else it must be their value written otherwise (they stay the
   * call's text), or the call is an `invalid-tool-call` of code `arguments-mismatch`.
   */
  arguments?: string;
  /** The provider withdrew the call instead of ending it (Anthropic: the `tool_use` right before a `fallback` block, which the refusal may have cut off): reported as withdrawn, never run. */
  withdrawn?: true;
}

/**
 * A call sent whole that the provider ends only at its finish (OpenAI Chat: a later index began):
 * nothing completes it early, but a stop before the finish (a cut, a limit, a cancel) completes it
 * rather than discarding it. `whole: false` takes that back (the server went back to the call).
 */
export interface ToolCallWholeDelta {
  /** The kind of delta: always `tool-call-whole`. */
  type: "tool-call-whole";
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
  /** The provider's index of the call, as in {@link ToolCallChunkDelta.index}. */
  index: number;
  /** Whether the call is whole (`false`: no longer known to be). */
  whole: boolean;
}

/** The provider's finish reason for one choice; completes that choice's open calls. */
export interface FinishDelta {
  /** The kind of delta: always `finish`. */
  type: "finish";
  /** The choice it belongs to when the provider streams several (`n > 1`); absent for the first choice. */
  choice?: number;
  /** The provider's own finish reason (`null` when it sent none). */
  rawReason: string | null;
  /** The normalized reason (every provider stage sets it); a finish without one counts as a normal `stop`. */
  reason?: FinishReason;
  /** The code-execution container the response ran in, when it named one (Anthropic's `container`). */
  container?: ExecutionContainer;
  /** The stop sequence the provider stopped at (`rawReason` `stop_sequence`), when it names it (Anthropic's). */
  stopSequence?: string;
  /** Why the provider declined, when it said (Anthropic's `stop_details`): with `reason` `content-filter`. */
  refusal?: RefusalDetails;
  /** The token that continues a long decode the per-request limit cut (Gemini's `continuationToken` of a `CONTINUATION` finish, the Interactions API's `continuation_token`). */
  continuationToken?: string;
}

/** Token usage, wherever the provider sent it. The last one wins. */
export interface UsageDelta {
  /** The kind of delta: always `usage`. */
  type: "usage";
  /** The normalized token usage. */
  usage: Usage;
}

/** A provider error sent inside the stream, or a payload the provider stage could not read. */
export interface ErrorDelta {
  /** The kind of delta: always `error`. */
  type: "error";
  /** What went wrong: a `code`, a message that never quotes model output, and optional `data`. */
  error: StreamErrorInfo;
}

/** The provider's end of the response (`[DONE]`, `message_stop`, `response.completed`). */
export interface DoneDelta {
  /** The kind of delta: always `done`. */
  type: "done";
}
