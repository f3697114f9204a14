import type { Env } from "../../env.ts";
import { authenticatedSettings } from "../../http/auth.ts";
import { corsHeaders, corsOrigins, preflightResponse } from "../../http/cors.ts";
import { asHttpError, HttpError } from "../../response/json-error.ts";
import { responsePool, resumeStream } from "../../resumable/response-pool.ts";

/**
 * `GET /v1/stream/<id>` (and `/v1/run/<id>`) resumes a resumable response after the
 * `Last-Event-ID` it sends (what `EventSource` does by itself); `DELETE` cancels it. Same
 * authentication and CORS as `POST`.
 */
export async function resumeRoute(request: Request, id: string, env: Env): Promise<Response> {
  const origins = corsOrigins(env);
  const cors = corsHeaders(request, origins);
  try {
    if (request.method === "OPTIONS") return preflightResponse(request, origins, "GET, HEAD, DELETE, OPTIONS");
    if (request.method !== "GET" && request.method !== "DELETE") {
      throw new HttpError(
        405,
        { code: "method_not_allowed", message: "Use GET or DELETE." },
        { allow: "GET, HEAD, DELETE, OPTIONS" },
      );
    }
    const settings = await authenticatedSettings(request, env);
    if (!env.RESPONSES)
      throw new HttpError(404, { code: "unknown_response", message: "This Worker keeps no responses for resume." });
    return await resumeStream(request, id, await responsePool(request, env.RESPONSES, settings), cors);
  } catch (error) {
    // A malformed setting's 500 too: a browser reads an answer without them as an opaque network error.
    const failure = asHttpError(error);
    throw new HttpError(failure.status, failure.body, { ...failure.headers, ...cors });
  }
}
