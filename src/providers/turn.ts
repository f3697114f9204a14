/**
 * The turn a provider expects back in the next request, as the message builders of each
 * provider folder read it: the assistant's text, calls and reasoning, and the outcome of each call.
 * Calls the provider ran itself (`providerExecuted`, e.g. Anthropic web search) are left out of
 * every builder: they are not the application's to answer.
 *
 * @module
 */
import type { ApprovalRequest, ReasoningPart } from "../shared/deltas.ts";
import type { ToolCall } from "../shared/events.ts";
import type { JsonValue } from "../shared/json.ts";

/** What an assistant turn produced: a `finish` event fits as it is. */
export interface AssistantTurn {
  /** The visible text, if any. */
  text?: string;
  /** The reasoning text, if any: Cohere sends it back as the `tool_plan` of a turn with calls, Ollama as `thinking`; the others ignore it. */
  reasoning?: string;
  /** The complete calls, in index order. */
  toolCalls: readonly ToolCall[];
  /** The reasoning parts, in order: Anthropic uses its signed and redacted blocks, OpenAI Responses its reasoning items; the others ignore them. */
  reasoningParts?: readonly ReasoningPart[] | undefined;
  /** The provider's approval requests (OpenAI Responses' MCP approvals): OpenAI Responses sends them back, after the calls; the others have none. */
  approvalRequests?: readonly ApprovalRequest[] | undefined;
}

/** The outcome of running one call. */
export interface ToolResult {
  /**
   * The call this answers: its id and name, and, when it has them, its input format, its
   * `providerMetadata` and its arguments (an OpenAI Responses built-in call's result is an item
   * of its own kind, made from them).
   */
  call: Pick<ToolCall, "id" | "name" | "inputFormat"> & {
    providerMetadata?: Readonly<Record<string, unknown>> | undefined;
    arguments?: JsonValue | undefined;
  };
  /** What the tool returned: text, or any JSON value. */
  output: JsonValue;
  /** The tool failed; `output` says why. */
  isError?: boolean;
}

/** The calls the application runs: those the provider did not execute itself. */
export const own = (calls: readonly ToolCall[]): ToolCall[] => calls.filter((call) => !call.providerExecuted);
/** A tool output as the text a provider takes. */
export const asText = (output: JsonValue): string => (typeof output === "string" ? output : JSON.stringify(output));
/** The id a provider correlates a result by: the call id, or the name for providers without ids. */
export const idOf = (call: Pick<ToolCall, "id" | "name">): string => call.id ?? call.name;
