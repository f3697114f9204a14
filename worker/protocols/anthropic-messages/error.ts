/**
 * Errors of `/v1/messages` before its stream starts, in Anthropic's own shape, so that
 * `@anthropic-ai/sdk` raises its usual classes (`BadRequestError` for 400,
 * `AuthenticationError` for 401, `NotFoundError` for 404, `RateLimitError` for 429, ...) and
 * Claude Code shows the message:
 *
 * ```json
 * {"type": "error", "error": {"type": "invalid_request_error", "message": "... (field: messages[1].content[0].type)",
 *   "details": {"error_code": "invalid_request"}}}
 * ```
 *
 * The message names the field at fault by its path; `details.error_code` is the Worker's code. A conversation too long for the model's
 * context window is Anthropic's own 400 "prompt is too long: N tokens > M maximum" (Claude Code
 * parses the two numbers and compacts; it matches "prompt is too long" where they are unknown).
 * Errors inside the stream are `event: error` frames, written by the library's encoder.
 *
 * @module
 */
import type { HttpError } from "../../response/json-error.ts";
import { withField } from "../protocol-post.ts";

/**
 * Anthropic's error `type` for an HTTP status, as its API and @anthropic-ai/sdk's `ErrorType` name
 * them: a quota or billing refusal is its 402 `billing_error` (the SDK's `PaymentRequiredError`,
 * which no client retries), a provider that did not answer in time its 504 `timeout_error`.
 */
function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 402) return "billing_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 413) return "request_too_large";
  if (status === 429) return "rate_limit_error";
  if (status === 504) return "timeout_error";
  if (status === 529) return "overloaded_error";
  return status >= 500 ? "api_error" : "invalid_request_error";
}

/** An {@link HttpError} as Anthropic's JSON error, with its status and headers. */
export function anthropicErrorResponse(error: HttpError): Response {
  // An overloaded Anthropic upstream's 529 stays Anthropic's own (Claude Code backs off on it, and
  // after repeated ones turns to its fallback model); any other provider's 503 stays a 503.
  const status = error.body.code === "upstream_overloaded" && error.body.upstreamStatus === 529 ? 529 : error.status;
  const body = { type: "error", error: { type: errorType(status), message: messageOf(error), ...details(error) } };
  return Response.json(body, { status, headers: { "cache-control": "no-store", ...error.headers } });
}

/**
 * Anthropic's `details`, where it puts an error's machine-readable code: the Worker's own
 * (`invalid_request`, `upstream_rate_limited`, ...), as Chat and Responses carry it in `code`.
 * @anthropic-ai/sdk reads it as the error's `errorCode`, and picks a class of its own for a status
 * and code it knows: a lost thread's `thread_not_found` (404), which it replays whole (./thread.ts).
 */
const details = (error: HttpError): { details: { error_code: string } } => ({
  details: { error_code: error.body.code },
});

/** The message, Anthropic's own words for an overflow (no field appended: Claude Code anchors its match). */
function messageOf(error: HttpError): string {
  if (error.body.code !== "context_length_exceeded") return withField(error);
  const { promptTokens, contextWindow } = error.body;
  return promptTokens === undefined || contextWindow === undefined
    ? "prompt is too long for the model's context window"
    : `prompt is too long: ${promptTokens} tokens > ${contextWindow} maximum`;
}
