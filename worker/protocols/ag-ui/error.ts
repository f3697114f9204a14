/**
 * Errors of `POST /v1/ag-ui` before its stream starts, in AG-UI's error shape: the body is the
 * `RUN_ERROR` event (`{"type": "RUN_ERROR", "message": "...", "code": "..."}`) as JSON, with the
 * status. `HttpAgent` of `@ag-ui/client` parses a JSON error body and raises
 * `Error("HTTP <status>: <body>")` with `status` and `payload`. Errors inside the stream are
 * `RUN_ERROR` events, written by the library's encoder.
 *
 * @module
 */
import type { HttpError } from "../../response/json-error.ts";
import { withField } from "../protocol-post.ts";

/** An {@link HttpError} as an AG-UI `RUN_ERROR` body. */
export function agUIErrorResponse(error: HttpError): Response {
  const body = { type: "RUN_ERROR", message: withField(error), code: error.body.code };
  return Response.json(body, { status: error.status, headers: { "cache-control": "no-store", ...error.headers } });
}
