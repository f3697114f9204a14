import type { Env, Settings } from "../env.ts";
import { authenticatedSettings } from "./auth.ts";
import { corsHeaders, corsOrigins, preflightResponse } from "./cors.ts";
import { asHttpError, HttpError } from "../response/json-error.ts";
import { readJsonBody } from "./read-json-body.ts";
import type { Runtime } from "../runtime.ts";
import type { RequestContext } from "./request-context.ts";

/**
 * The checks every `POST` endpoint that calls a provider runs, cheapest and most protective
 * first: CORS preflight, method, client token, the settings (a malformed one is a 500 for a client
 * let in alone: ./auth.ts), then the body within `MAX_BODY_BYTES`. Only then
 * is `handle` given the parsed body; nothing reaches a provider before all of them pass. Errors
 * before the stream are JSON ({@link HttpError}), the unexpected ones a 500 `internal_error`
 * ({@link asHttpError}), and all carry the CORS headers, so that a browser client can read them.
 */
export async function guardedPost(
  request: Request,
  env: Env,
  runtime: Runtime,
  handle: (body: unknown, context: RequestContext) => Promise<Response>,
  bodyLimit: (settings: Settings) => { bytes: number; name: string } = (settings) => ({
    bytes: settings.maxBodyBytes,
    name: "MAX_BODY_BYTES",
  }),
): Promise<Response> {
  const origins = corsOrigins(env);
  const cors = corsHeaders(request, origins);
  try {
    if (request.method === "OPTIONS") return preflightResponse(request, origins);
    if (request.method !== "POST") {
      throw new HttpError(405, { code: "method_not_allowed", message: "Use POST." }, { allow: "POST, OPTIONS" });
    }
    const settings = await authenticatedSettings(request, env);
    const limit = bodyLimit(settings);
    const body = await readJsonBody(request, limit.bytes, limit.name, runtime.timers);
    return await handle(body, { request, env, settings, runtime, cors });
  } catch (error) {
    // An unexpected failure too: a 500 without them is an opaque network error to a browser.
    const failure = asHttpError(error);
    throw new HttpError(failure.status, failure.body, { ...failure.headers, ...cors });
  }
}
