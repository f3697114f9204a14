/**
 * The error shape of a request no route answered (an unknown path), told from the path and the
 * client's headers, so that a client of a protocol reads the 404 as that protocol's own error:
 * `@anthropic-ai/sdk` a `NotFoundError` whose body is Anthropic's `not_found_error`, openai-node
 * one with OpenAI's `type` and `param`, `useChat` the plain-text message it shows, `HttpAgent`
 * a `RUN_ERROR`. Real servers answer an unknown path so: OpenAI a 404
 * `{"error": {"message": "Invalid URL (POST /v1/...)", "type": "invalid_request_error", "param": null, "code": null}}`,
 * Anthropic a 404 `{"type": "error", "error": {"type": "not_found_error", "message": "Not Found"}}`.
 *
 * @module
 */
import { errorResponse, type HttpError } from "../response/json-error.ts";
import { agUIErrorResponse } from "./ag-ui/error.ts";
import { anthropicErrorResponse } from "./anthropic-messages/error.ts";
import { openAIErrorResponse, responsesErrorResponse } from "./openai-error.ts";
import { uiMessageErrorResponse } from "./ui-message/error.ts";

/** A path's first segment after any `/v1` (a base URL with or without it), and the shape its clients read. */
const SHAPES: readonly (readonly [RegExp, (error: HttpError) => Response])[] = [
  [/^\/messages(?:\/|$)/, anthropicErrorResponse],
  [/^\/(?:chat|completions|embeddings|models)(?:\/|$)/, openAIErrorResponse],
  [/^\/responses(?:\/|$)/, responsesErrorResponse],
  [/^\/ui(?:\/|$)/, uiMessageErrorResponse],
  [/^\/ag-ui(?:\/|$)/, agUIErrorResponse],
];

/**
 * How to write an error of `request` that no route answered: in Anthropic's shape when the
 * client sends `anthropic-version` (every Anthropic SDK and Claude Code do, whatever the path,
 * as `GET /v1/models` reads it), else in the shape of the protocol whose path it is under (with
 * or without `/v1`, so a base URL's missing or doubled `/v1` is still answered in the client's
 * shape; under Azure OpenAI's `/openai`, whose clients are all OpenAI's, OpenAI's), else in the
 * Worker's own.
 *
 * @example
 * ```ts
 * return errorShapeOf(request, "/v1/messages/batches")(new HttpError(404, { code: "not_found", message }));
 * ```
 */
export function errorShapeOf(request: Request, pathname: string): (error: HttpError) => Response {
  if (request.headers.has("anthropic-version")) return anthropicErrorResponse;
  const rest = pathname.replace(/\/{2,}/g, "/").replace(/^(?:\/v1)+(?=\/)/, "");
  if (/^\/openai(?:\/|$)/.test(rest))
    return /^\/openai(?:\/v1)?\/responses(?:\/|$)/.test(rest) ? responsesErrorResponse : openAIErrorResponse;
  return SHAPES.find(([prefix]) => prefix.test(rest))?.[1] ?? errorResponse;
}
