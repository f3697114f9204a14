import { readSettings, type Env } from "../../env.ts";
import { authContext, authenticate } from "../../http/auth.ts";
import { corsHeaders, preflightResponse } from "../../http/cors.ts";
import { HttpError } from "../../response/json-error.ts";
import { responsePool, resumeStream } from "../../resumable/response-pool.ts";

/**
 * `GET /v1/stream/<id>` (and `/v1/run/<id>`) resumes a resumable response after the
 * `Last-Event-ID` it sends (what `EventSource` does by itself); `DELETE` cancels it. Same
 * authentication and CORS as `POST`.
 */
export async function resumeRoute(request: Request, id: string, env: Env): Promise<Response> {
  const settings = readSettings(env);
  const cors = corsHeaders(request, settings.corsAllowOrigins);
  try {
    if (request.method === "OPTIONS")
      return preflightResponse(request, settings.corsAllowOrigins, "GET, DELETE, OPTIONS");
    if (request.method !== "GET" && request.method !== "DELETE") {
      throw new HttpError(
        405,
        { code: "method_not_allowed", message: "Use GET or DELETE." },
        { allow: "GET, DELETE, OPTIONS" },
      );
    }
    await authenticate(request, authContext(env, settings));
    if (!env.RESPONSES)
      throw new HttpError(404, { code: "unknown_response", message: "This Worker keeps no responses for resume." });
    return await resumeStream(request, id, await responsePool(request, env.RESPONSES, settings), cors);
  } catch (error) {
    if (error instanceof HttpError) throw new HttpError(error.status, error.body, { ...error.headers, ...cors });
    throw error;
  }
}
