/**
 * The approval requests a provider stage reads (OpenAI Responses `mcp_approval_request`), a
 * delta of the `ProviderDelta` union kept apart from the others.
 *
 * @module
 */
import type { JsonValue } from "./json.ts";

/**
 * A call the provider would run itself once the application approves it (OpenAI Responses
 * `mcp_approval_request`): never one the application runs. The next turn sends the request back
 * (`assistantMessage`) with an answer (`approvalResponses`), approving or denying it.
 */
export interface ApprovalRequest {
  /** The request's id (`mcpr_...`), which the answer names. */
  id: string;
  /** The tool the provider would call. */
  name: string;
  /** The parsed arguments (empty text is `{}`); `null` when the text is not JSON. */
  arguments: JsonValue;
  /** The arguments text exactly as received. */
  rawArguments: string;
  /** The label of the MCP server the tool is on, when the provider names one. */
  serverLabel?: string;
  /** The provider's item (`responsesItem`), which the next turn sends back. */
  providerMetadata?: Record<string, unknown>;
}

/**
 * The provider asks the application to approve a call it would run itself (OpenAI Responses
 * `mcp_approval_request`: a remote MCP server's tool whose `require_approval` says so). It is no
 * call to run: the provider runs it once the next turn approves it.
 *
 * @example
 * ```ts
 * accumulator.push({ type: "approval-request", request: { id: "mcpr_1", name: "shorten", arguments: { url: "https://example.com" }, rawArguments: '{"url":"https://example.com"}' } });
 * ```
 */
export interface ApprovalRequestDelta {
  /** The kind of delta: always `approval-request`. */
  type: "approval-request";
  /** The request, its arguments parsed by the provider stage. */
  request: ApprovalRequest;
}
