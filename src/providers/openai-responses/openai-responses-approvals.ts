import type { ApprovalRequest } from "../../shared/deltas.ts";
import { ToolCallStreamError } from "../../shared/errors.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord } from "../../shared/values.ts";
import type { DecoderLimits } from "../provider-decoder.ts";
import { longMemberName, parseStrictJsonText } from "../../shared/long-member-name.ts";

/**
 * The approval request of an `mcp_approval_request` item (see {@link approvalRequestOf}), the
 * `count`th of its response, bounded as a call is (the provider would make it once approved, and
 * it is kept whole for the finish): past `maxToolCalls` (counted apart from the calls) or with
 * arguments longer than `maxArgumentsLength`, checked before they are parsed, a
 * `ToolCallStreamError` of the accumulator's code and message, which ends the stream with an
 * `error` and an `abort` of reason `limit-exceeded`.
 *
 * @example
 * ```ts
 * const request = boundedApprovalRequest({ type: "mcp_approval_request", id: "mcpr_1", name: "shorten", arguments: "{}" }, 1, { maxToolCalls: 8 });
 * ```
 */
export function boundedApprovalRequest(
  item: Record<string, unknown>,
  count: number,
  limits: DecoderLimits,
): ApprovalRequest | undefined {
  // The accumulator's defaults (`DEFAULT_MAX_TOOL_CALLS`, `DEFAULT_MAX_ARGUMENTS_LENGTH`).
  const { maxToolCalls = 1024, maxArgumentsLength = 4194304 } = limits;
  const text = item["arguments"];
  if (count > maxToolCalls)
    throw new ToolCallStreamError({
      code: "too-many-tool-calls",
      message: "The response has more tool calls than the limit allows.",
    });
  if (typeof text === "string" && text.length > maxArgumentsLength)
    throw new ToolCallStreamError({
      code: "arguments-too-large",
      message: `Tool call arguments exceeded the limit of ${maxArgumentsLength} characters.`,
    });
  return approvalRequestOf(item);
}

/**
 * An `mcp_approval_request` output item as the library's request: a remote MCP tool OpenAI calls
 * only once the application approves it (the `mcp` tool's `require_approval`). Its arguments are
 * JSON text, parsed here (empty is `{}`; text that is not JSON is `null`, `rawArguments` keeps it);
 * the item itself is its `providerMetadata.responsesItem`. Undefined for an item without an id or a name.
 *
 * @example
 * ```ts
 * const request = approvalRequestOf({ type: "mcp_approval_request", id: "mcpr_1", name: "shorten", arguments: "{}", server_label: "links" });
 * ```
 */
export function approvalRequestOf(item: Record<string, unknown>): ApprovalRequest | undefined {
  const { id, name, arguments: text = "", server_label: label } = item;
  if (typeof id !== "string" || typeof name !== "string" || typeof text !== "string") return undefined;
  let parsed: JsonValue;
  try {
    parsed = parseStrictJsonText(text.trim() || "{}") as JsonValue;
  } catch {
    parsed = null; // not JSON: the request keeps its text
  }
  return {
    id,
    name,
    arguments: parsed,
    rawArguments: text,
    ...(typeof label === "string" && { serverLabel: label }),
    providerMetadata: { responsesItem: item },
  };
}

/**
 * A request as the input item the next turn sends back before its answer (OpenAI matches the
 * answer's `approval_request_id` to it when the conversation is passed back whole rather than by
 * `previous_response_id`): `mcp_approval_request` with its id, server label, name and arguments.
 *
 * @example
 * ```ts
 * input.push(approvalRequestItem(finish.approvalRequests![0]!));
 * ```
 */
export function approvalRequestItem(
  request: Pick<ApprovalRequest, "id" | "name" | "rawArguments" | "serverLabel" | "providerMetadata">,
): Record<string, unknown> {
  const item = request.providerMetadata?.["responsesItem"];
  const label = request.serverLabel ?? (isRecord(item) ? item["server_label"] : undefined);
  return {
    type: "mcp_approval_request",
    id: request.id,
    server_label: typeof label === "string" ? label : "",
    name: request.name,
    arguments: request.rawArguments,
  };
}

/** The application's answer to one {@link ApprovalRequest}. */
export interface ApprovalAnswer {
  /** The request answered (its `id` is enough). */
  readonly request: Pick<ApprovalRequest, "id">;
  /** Whether the provider may run the call. */
  readonly approve: boolean;
  /** Why, for the model (optional). */
  readonly reason?: string | undefined;
}

/**
 * The answers to a turn's approval requests as OpenAI Responses input items,
 * `mcp_approval_response` (`approval_request_id`, `approve`, `reason` when given), which go after
 * the turn's items (`assistantMessage("openai-responses", finish)` sends the requests back): on
 * that next request OpenAI runs each approved call (an `mcp_call` item) and tells the model of
 * each denied one.
 *
 * @example
 * ```ts
 * input.push(...assistantMessage("openai-responses", finish));
 * input.push(...approvalResponses(finish.approvalRequests!.map((request) => ({ request, approve: request.name !== "delete_all" }))));
 * ```
 */
export function approvalResponses(answers: readonly ApprovalAnswer[]): Record<string, unknown>[] {
  return answers.map(({ request, approve, reason }) => ({
    type: "mcp_approval_response",
    approval_request_id: request.id,
    approve,
    ...(reason !== undefined ? { reason } : {}),
  }));
}

/**
 * An answer given as a result's output: `{ approve, reason? }` or its JSON text (as a tool
 * message's content carries it); anything else approves nothing.
 *
 * @example
 * ```ts
 * approvalAnswer('{"approve":true}'); // { approve: true }
 * ```
 */
export function approvalAnswer(output: JsonValue): { approve: boolean; reason?: string } {
  let value: unknown = output;
  if (typeof output === "string")
    try {
      // Names V8 parses in quadratic time (../../shared/long-member-name.ts): no answer either.
      value = longMemberName(output) === undefined ? JSON.parse(output) : undefined;
    } catch {
      value = undefined; // not an answer: nothing is approved
    }
  const reason = isRecord(value) ? value["reason"] : undefined;
  return {
    approve: isRecord(value) && value["approve"] === true,
    ...(typeof reason === "string" ? { reason } : {}),
  };
}
