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
 * OpenAI answers a bad key), `rate_limit_exceeded` for 429, `server_error` for the Worker's and
 * the provider's failures. `code` is the Worker's code (see worker/response/json-error.ts),
 * `param` the field at fault or `null`. Errors inside the stream are written by the library's
 * encoder of each protocol.
 *
 * @module
 */
import type { HttpError } from "../response/json-error.ts";

/** The body of an OpenAI error response. */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string };
}

/** An {@link HttpError} as OpenAI's JSON error, with its status and headers. */
export function openAIErrorResponse(error: HttpError): Response {
  const type =
    error.status === 429 ? "rate_limit_exceeded" : error.status >= 500 ? "server_error" : "invalid_request_error";
  const body: OpenAIErrorBody = {
    error: { message: error.body.message, type, param: error.body.field ?? null, code: error.body.code },
  };
  return Response.json(body, { status: error.status, headers: { "cache-control": "no-store", ...error.headers } });
}
