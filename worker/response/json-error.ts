/**
 * The one shape of every error the Worker answers with before a stream starts:
 * `{"error": {"code": "...", "message": "..."}}`, with a machine-readable snake_case `code`.
 * Messages are written here, never taken from a provider or an exception: provider bodies can
 * echo keys ("Incorrect API key provided: sk-...") and exceptions can carry internals.
 *
 * @module
 */
import { logUnexpected } from "./log-error.ts";
import { SettingsError } from "../env.ts";

/** The error codes of the HTTP API. */
export type ErrorCode =
  | "invalid_json"
  | "invalid_request"
  | "unknown_provider"
  // Azure OpenAI's own code (its casing) for a deployment it cannot route (/openai/deployments/...).
  | "DeploymentNotFound"
  | "unknown_field"
  // OpenAI's own codes for an array of the wrong length (an allowed_tools list of /v1/responses and Chat).
  | "empty_array"
  | "array_above_max_length"
  | "unauthorized"
  | "origin_not_allowed"
  | "not_found"
  | "method_not_allowed"
  | "upgrade_required"
  | "body_too_large"
  | "file_too_large"
  | "request_timeout"
  | "unsupported_media_type"
  | "worker_misconfigured"
  | "internal_error"
  | "upstream_auth_failed"
  | "upstream_rate_limited"
  | "upstream_quota_exceeded"
  | "upstream_overloaded"
  | "upstream_rejected"
  | "reasoning_required"
  | "context_length_exceeded"
  | "upstream_error"
  | "upstream_unreachable"
  | "upstream_timeout"
  | "completion_too_large"
  | "unknown_response"
  | "previous_response_not_found"
  | "thread_not_found"
  | "resume_window_passed"
  | "too_many_readers"
  | "object_busy"
  | "client_busy"
  | "store_quota_exceeded";

/** The body of an error response. */
export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    /** The request field at fault, as a path like `messages[2].role`. */
    field?: string;
    /** The provider's HTTP status, for `upstream_*` codes. */
    upstreamStatus?: number;
    /** `upstream_rate_limited`: what the limit counts, `tokens` where the provider said so, else `requests`. */
    limit?: "tokens" | "requests";
    /** `context_length_exceeded`: the tokens the request came to, where the provider said. */
    promptTokens?: number;
    /** `context_length_exceeded`: the model's context window in tokens, where the provider said. */
    contextWindow?: number;
  };
}

/** An error that becomes a JSON response; thrown by validation and upstream handling. */
export class HttpError extends Error {
  /** The HTTP status of the response. */
  readonly status: number;
  /** What goes under `error` in the body. */
  readonly body: ErrorBody["error"];
  /** Extra response headers (`retry-after`, `retry-after-ms`, `x-should-retry`, `allow`, `www-authenticate`). */
  readonly headers: Record<string, string>;
  /** `body.code`, where code that names a failure looks (`runToolLoop` names a failed step's by it). */
  readonly code: string;

  /** Creates an error answered with `status`. */
  constructor(status: number, body: ErrorBody["error"], headers: Record<string, string> = {}) {
    super(body.message);
    this.name = "HttpError";
    this.status = status;
    this.body = body;
    this.headers = headers;
    this.code = body.code;
  }
}

/** A JSON error response. */
export function errorResponse(error: HttpError): Response {
  return Response.json({ error: error.body } satisfies ErrorBody, {
    status: error.status,
    headers: { "cache-control": "no-store", ...error.headers },
  });
}

/** Shorthand for a 400 about one field of the request. */
export function invalidField(field: string, message: string): HttpError {
  return new HttpError(400, { code: "invalid_request", message, field });
}

/**
 * OpenAI's 400 for an array at `field` of `length` entries, outside 1 to `max`: its code
 * (`empty_array`, `array_above_max_length`) and its message, which openai-node and the clients
 * that match on them read as they would OpenAI's.
 */
export function arrayLengthError(field: string, length: number, max: number): HttpError {
  const message =
    length === 0
      ? `Invalid '${field}': empty array. Expected an array with minimum length 1, but got an empty array instead.`
      : `Invalid '${field}': array too long. Expected an array with maximum length ${max}, but got an array with length ${length} instead.`;
  return new HttpError(400, { code: length === 0 ? "empty_array" : "array_above_max_length", message, field });
}

/**
 * Any failure as an {@link HttpError}: a misconfigured variable is 500 `worker_misconfigured`,
 * which names the variable and no more (what it must be is logged: {@link logMisconfigured}),
 * anything unexpected a 500 that says nothing about internals, logged with its name and stack
 * (never its message: {@link logUnexpected}).
 */
export function asHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof SettingsError) {
    logMisconfigured(error);
    const message = `This Worker is misconfigured (${error.setting}): its operator's log says what to fix.`;
    return new HttpError(500, { code: "worker_misconfigured", message });
  }
  logUnexpected(error, "a request");
  return new HttpError(500, { code: "internal_error", message: "The Worker failed to handle the request." });
}

/** The settings errors logged so far: each once per isolate (a deployment's settings are its isolate's). */
const logged = new Set<string>();

/**
 * Logs a malformed setting once, with what it must be (never its value, which may be a secret):
 * the operator reads it in `wrangler tail` or the dev console, a client never does.
 *
 * @example
 * ```ts
 * logMisconfigured(new SettingsError("OPEN_ACCESS", 'must be "true" or "false".'));
 * ```
 */
export function logMisconfigured(error: SettingsError): void {
  if (logged.has(error.message)) return;
  logged.add(error.message);
  console.error(`tool-call-stream: the Worker is misconfigured: ${error.message}`);
}

/**
 * The status and headers of an answer that was not streamed and failed, from its protocol's error
 * code or type: a provider's failure of a known kind as the protocol answers it over HTTP (an
 * overflow 400, so a client compacts instead of retrying; a rate limit 429; an overload 503,
 * Anthropic's 529; a quota OpenAI's 429 `insufficient_quota` and Anthropic's 402 `billing_error`,
 * with `x-should-retry: false`, which openai-node and @anthropic-ai/sdk obey before their status
 * rule), a provider that timed out after its stream began 504 (as one that sent no headers in
 * time: `upstream_timeout`), any other failure 502.
 */
export function failedAnswer(code: string | undefined, headers: Record<string, string>): ResponseInit {
  const status = FAILED_STATUS.get(code ?? "") ?? 502;
  const quota = code === "insufficient_quota" || code === "billing_error";
  return { status, headers: quota ? { ...headers, "x-should-retry": "false" } : headers };
}

const FAILED_STATUS: ReadonlyMap<string, number> = new Map([
  ["context_length_exceeded", 400],
  ["invalid_request_error", 400],
  ["invalid_prompt", 400],
  ["rate_limit_exceeded", 429],
  ["rate_limit_error", 429],
  ["insufficient_quota", 429],
  ["billing_error", 402],
  // A Responses overload (openai-responses-wire.ts): the library's codes of other failures are kebab-case.
  ["server_error", 503],
  ["server_is_overloaded", 503],
  ["overloaded_error", 529],
  // Silent for IDLE_TIMEOUT_MS, or past MAX_RESPONSE_MS (Chat's and Responses' code, Messages' type).
  ["idle-timeout", 504],
  ["deadline-exceeded", 504],
  ["timeout_error", 504],
]);
