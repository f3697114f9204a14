/**
 * Errors of `POST /v1/ui` before its stream starts. The AI SDK's `DefaultChatTransport` turns a
 * response that is not 2xx into an `Error` whose message is the body's text, which `useChat`
 * shows as `error.message`: the body is that message as plain text, with the status, and the
 * Worker's code in `x-error-code` for programs. Errors inside the stream are the protocol's own
 * `error` chunks, written by the library's encoder.
 *
 * @module
 */
import { exposeAlso } from "../../http/cors.ts";
import type { HttpError } from "../../response/json-error.ts";
import { withField } from "../protocol-post.ts";

/** An {@link HttpError} as the plain-text message `useChat` shows. */
export function uiMessageErrorResponse(error: HttpError): Response {
  return new Response(withField(error), {
    status: error.status,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-store",
      "x-error-code": error.body.code,
      ...error.headers,
      ...exposed(error.headers, "x-error-code"),
    },
  });
}

/** Lets a cross-origin client read `name` too, when the answer is a CORS one. */
function exposed(headers: Record<string, string>, name: string): Record<string, string> {
  if (headers["access-control-allow-origin"] === undefined) return {};
  return { "access-control-expose-headers": exposeAlso(headers, name) };
}
