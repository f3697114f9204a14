/**
 * Errors of `POST /v1/chat/completions` and `POST /v1/responses` (and `GET /v1/models` for an
 * OpenAI client) before the answer starts, in OpenAI's own shape, shared by both protocols, so that
 * every OpenAI SDK raises its usual exception (openai-node: `BadRequestError` for 400,
 * `AuthenticationError` for 401, `RateLimitError` for 429, ... with `error.code` and
 * `error.param`):
 *
 * ```json
 * {"error": {"message": "...", "type": "invalid_request_error", "param": "messages[1].role", "code": "invalid_request"}}
 * ```
 *
 * `type` follows OpenAI: `invalid_request_error` for the client's mistakes (401 included, as
 * OpenAI answers a bad key, and 404, as OpenAI answers an unknown response or item: Open
 * Responses' table of error types names `not_found`, but its own example error and every OpenAI
 * client read OpenAI's, and openai-node and openai-python pick their `NotFoundError` by the
 * status alone), `server_error` for the Worker's and the provider's failures; for a
 * 429, OpenAI's own on Chat Completions (`{"type": "tokens", "code": "rate_limit_exceeded"}`:
 * OpenAI types a rate limit by the limit hit, `tokens` where the provider said so, else
 * `requests`, and codes it `rate_limit_exceeded`, as OpenAI's own streams and the AI SDK's error
 * reading do) and Open Responses' `too_many_requests` on `/v1/responses` (its error types: the
 * client should slow down and retry after a delay), with OpenAI's code too; a quota or billing
 * refusal OpenAI's own 429 `{"type": "insufficient_quota", "code": "insufficient_quota"}` with
 * `x-should-retry: false`, which openai-node obeys before its status rule. Any other
 * `code` is the Worker's code (see worker/response/json-error.ts), `param` the field at fault or `null`. A conversation too long for the model's context window is
 * OpenAI's own `context_length_exceeded` (Codex compacts on that code), `param` `messages` (Chat)
 * or `input` (Responses), worded as OpenAI words it where the provider gave the numbers. Errors
 * inside the stream are written by the library's encoder of each protocol.
 *
 * @module
 */
import type { HttpError } from "../response/json-error.ts";

/** The body of an OpenAI error response. */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string };
}

/**
 * An {@link HttpError} as OpenAI's JSON error, with its status and headers; `conversation` is the
 * request field an overflow is of (Chat Completions' `messages`, Responses' `input`, whose 429 is
 * typed as Open Responses types it).
 */
export function openAIErrorResponse(error: HttpError, conversation: "messages" | "input" = "messages"): Response {
  // A quota is OpenAI's own 429 `insufficient_quota`, which `x-should-retry: false` (on the
  // error) keeps the SDKs from retrying; on any other 429 they wait and retry.
  const quota = error.body.code === "upstream_quota_exceeded" || error.body.code === "store_quota_exceeded";
  const status = quota ? 429 : error.status;
  const limited = status === 429 && !quota;
  const type = quota ? "insufficient_quota" : limited ? rateType(error, conversation) : statusType(status);
  const overflow = error.body.code === "context_length_exceeded";
  const body: OpenAIErrorBody = {
    error: {
      message: overflow ? overflowMessage(error, conversation) : error.body.message,
      type,
      param: overflow ? conversation : (error.body.field ?? null),
      code: quota ? "insufficient_quota" : limited ? "rate_limit_exceeded" : error.body.code,
    },
  };
  return Response.json(body, { status, headers: { "cache-control": "no-store", ...error.headers } });
}

/** A 429's type: Open Responses' `too_many_requests`; on Chat Completions the limit hit, as OpenAI types it. */
const rateType = (error: HttpError, conversation: string): string =>
  conversation === "input" ? "too_many_requests" : (error.body.limit ?? "requests");

const statusType = (status: number): string => (status >= 500 ? "server_error" : "invalid_request_error");

/** {@link openAIErrorResponse} for `/v1/responses`, whose conversation is its `input`. */
export function responsesErrorResponse(error: HttpError): Response {
  return openAIErrorResponse(error, "input");
}

/** An overflow as OpenAI words it when the numbers are known (clients match "maximum context length"). */
function overflowMessage(error: HttpError, conversation: string): string {
  const { promptTokens, contextWindow } = error.body;
  if (promptTokens === undefined || contextWindow === undefined) return error.body.message;
  return (
    `This model's maximum context length is ${contextWindow} tokens. However, your ${conversation} resulted in ` +
    `${promptTokens} tokens. Please reduce the length of the ${conversation}.`
  );
}
